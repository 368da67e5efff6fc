package io.riptide.proxy.cache;

import java.time.Duration;

/**
 * How the proxy reads the cache through the overlay.
 *
 * @param ttl           hop budget of a read: past it the overlay fails fast and the origin is used
 * @param slowHit       a hit slower than this sends a latency hint to the nearest cache manager
 * @param hintInterval  at most one miss hint per URL per this interval
 * @param maxBodyBytes  largest object accepted from a replica
 * @param verifyQueue   reads waiting for verification; past it requests go straight to the origin
 */
public record OverlayCacheConfig(int ttl, Duration slowHit, Duration hintInterval, int maxBodyBytes, int verifyQueue) {
    public static OverlayCacheConfig defaults() {
        return new OverlayCacheConfig(8, Duration.ofMillis(50), Duration.ofSeconds(5), 14 * 1024 * 1024, 1024);
    }
}
