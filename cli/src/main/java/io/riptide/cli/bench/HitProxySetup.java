package io.riptide.cli.bench;

import java.nio.file.Path;

/**
 * How the hit-throughput benchmark wants one Riptide proxy under test: its memory tier, and for the JVM it runs in,
 * the collector and where its GC log and its output go.
 *
 * @param memoryMb the proxy's memory tier in MB ({@code --memory-mb}); 0 turns it off, so every hit is an overlay read
 * @param gc       the collector, a key of {@link ProxyProcess#COLLECTORS}
 * @param gcLog    where the proxy's JVM writes its GC log
 * @param output   where the proxy's stdout and stderr go
 */
public record HitProxySetup(int memoryMb, String gc, Path gcLog, Path output) {
    /** Whether the proxy answers repeated hits from its memory tier. */
    public boolean memoryTier() {
        return memoryMb > 0;
    }
}
