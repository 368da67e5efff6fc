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
 * @param readDeadline  how long a read may wait for its access node before the origin is used (and that node dropped)
 */
public record OverlayCacheConfig(int ttl, Duration slowHit, Duration hintInterval, int maxBodyBytes, int verifyQueue,
        Duration readDeadline) {
    /** The read deadline unless one is given: long enough for a far replica, short enough that a dead node is not a hang. */
    public static final Duration DEFAULT_READ_DEADLINE = Duration.ofSeconds(3);

    public OverlayCacheConfig {
        if (readDeadline == null || readDeadline.isNegative() || readDeadline.isZero()) {
            throw new IllegalArgumentException("the read deadline must be positive, not " + readDeadline);
        }
    }

    /** As above with the default read deadline. */
    public OverlayCacheConfig(int ttl, Duration slowHit, Duration hintInterval, int maxBodyBytes, int verifyQueue) {
        this(ttl, slowHit, hintInterval, maxBodyBytes, verifyQueue, DEFAULT_READ_DEADLINE);
    }

    public static OverlayCacheConfig defaults() {
        return new OverlayCacheConfig(8, Duration.ofMillis(50), Duration.ofSeconds(5), 14 * 1024 * 1024, 1024);
    }

    /** This configuration with reads waiting at most {@code deadline} for their access node. */
    public OverlayCacheConfig withReadDeadline(Duration deadline) {
        return new OverlayCacheConfig(ttl, slowHit, hintInterval, maxBodyBytes, verifyQueue, deadline);
    }
}
