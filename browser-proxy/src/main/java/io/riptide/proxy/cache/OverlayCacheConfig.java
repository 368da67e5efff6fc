package io.riptide.proxy.cache;

import java.time.Duration;

/**
 * How the proxy reads the cache through the overlay and what it tells cache managers.
 *
 * @param ttl             hop budget of a read: past it the overlay fails fast and the origin is used
 * @param slowHit         a hit slower than this sends a latency hint to the nearest cache manager
 * @param hintInterval    at most one miss or stale hint per URL and variant per this interval
 * @param maxBodyBytes    largest object accepted from a replica
 * @param verifyQueue     reads waiting for verification; past it requests go straight to the origin
 * @param readDeadline    how long a read may wait for its access node before the origin is used (and that node dropped)
 * @param loadReportEvery how often the requests per object since the last report go to the nearest cache manager
 * @param maxLoadReports  most objects reported per period (the most requested); 0 sends none
 */
public record OverlayCacheConfig(int ttl, Duration slowHit, Duration hintInterval, int maxBodyBytes, int verifyQueue,
        Duration readDeadline, Duration loadReportEvery, int maxLoadReports) {
    /** The read deadline unless one is given: long enough for a far replica, short enough that a dead node is not a hang. */
    public static final Duration DEFAULT_READ_DEADLINE = Duration.ofSeconds(3);
    /**
     * Load reports once a second: a crowd's rate then reaches the manager within one of its hot-object
     * checks (every 2 s), and a busy proxy sends at most {@link #DEFAULT_MAX_LOAD_REPORTS} a second.
     */
    public static final Duration DEFAULT_LOAD_REPORT_EVERY = Duration.ofSeconds(1);
    /** The objects reported per period: a crowd is a few objects; the long tail is left to hints. */
    public static final int DEFAULT_MAX_LOAD_REPORTS = 16;

    public OverlayCacheConfig {
        if (readDeadline == null || readDeadline.isNegative() || readDeadline.isZero()) {
            throw new IllegalArgumentException("the read deadline must be positive, not " + readDeadline);
        }
        if (loadReportEvery == null || loadReportEvery.isNegative() || loadReportEvery.isZero() || maxLoadReports < 0) {
            throw new IllegalArgumentException("load reports need a positive period and a non-negative count, not "
                    + loadReportEvery + " and " + maxLoadReports);
        }
    }

    /** As above with the default load reports. */
    public OverlayCacheConfig(int ttl, Duration slowHit, Duration hintInterval, int maxBodyBytes, int verifyQueue,
                              Duration readDeadline) {
        this(ttl, slowHit, hintInterval, maxBodyBytes, verifyQueue, readDeadline, DEFAULT_LOAD_REPORT_EVERY,
                DEFAULT_MAX_LOAD_REPORTS);
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
        return new OverlayCacheConfig(ttl, slowHit, hintInterval, maxBodyBytes, verifyQueue, deadline, loadReportEvery,
                maxLoadReports);
    }

    /** This configuration with at most {@code max} load reports every {@code every} (0: none). */
    public OverlayCacheConfig withLoadReports(Duration every, int max) {
        return new OverlayCacheConfig(ttl, slowHit, hintInterval, maxBodyBytes, verifyQueue, readDeadline, every, max);
    }

    /** This configuration with a hop budget of {@code hops} per read. */
    public OverlayCacheConfig withTtl(int hops) {
        return new OverlayCacheConfig(hops, slowHit, hintInterval, maxBodyBytes, verifyQueue, readDeadline, loadReportEvery,
                maxLoadReports);
    }

    /** This configuration with a hit slower than {@code threshold} hinted. */
    public OverlayCacheConfig withSlowHit(Duration threshold) {
        return new OverlayCacheConfig(ttl, threshold, hintInterval, maxBodyBytes, verifyQueue, readDeadline, loadReportEvery,
                maxLoadReports);
    }
}
