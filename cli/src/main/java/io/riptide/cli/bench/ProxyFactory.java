package io.riptide.cli.bench;

/**
 * Where the benchmarks get Riptide's browser proxy. The proxy's HTTP front ({@code io.riptide.proxy.ProxyServer})
 * is being built on another branch; the two methods below are the only places that construct it, and are wired
 * when that branch merges. Until then they throw, and the benchmarks report the proxy as unavailable.
 */
public final class ProxyFactory {
    private ProxyFactory() {
    }

    /**
     * TO WIRE: the browser proxy in pass-through mode ({@code ProxyConfig} with pass-through on), forwarding every
     * request to its origin without consulting the overlay; the subject of {@code riptide bench proxy-overhead}.
     */
    public static ProxyUnderTest passThrough() {
        throw new IllegalStateException("browser proxy not built yet");
    }

    /**
     * TO WIRE: the browser proxy backed by a small loopback overlay with a gateway, whose {@link
     * HitProxyUnderTest#makeHits} inserts the URLs through the gateway so the proxy then serves them as overlay
     * hits; the subject of {@code riptide bench hit-throughput}.
     */
    public static HitProxyUnderTest overlayHits() {
        throw new IllegalStateException("browser proxy not built yet");
    }
}
