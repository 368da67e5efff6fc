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
 * @param memoryBytes     the proxy's own memory tier of verified copies, in bytes (bodies off the heap); 0 turns it off
 * @param memoryRecheck   a copy served from memory is re-read through the overlay in the background once it was last
 *                        confirmed longer ago than this, so a pushed update or heartbeat reaches the proxy within it
 * @param insertPolicy    when a miss the proxy fetched itself asks for an insert into the overlay
 * @param keepOwnFetches  whether the memory tier also keeps what the proxy fetched from the origin itself (its
 *                        private tier); off, only verified copies are kept and a repeat waits for the overlay
 */
public record OverlayCacheConfig(int ttl, Duration slowHit, Duration hintInterval, int maxBodyBytes, int verifyQueue,
        Duration readDeadline, Duration loadReportEvery, int maxLoadReports, long memoryBytes, Duration memoryRecheck,
        InsertPolicy insertPolicy, boolean keepOwnFetches) {
    /** The read deadline unless one is given: long enough for a far replica, short enough that a dead node is not a hang. */
    public static final Duration DEFAULT_READ_DEADLINE = Duration.ofSeconds(3);
    /**
     * Load reports once a second: a crowd's rate then reaches the manager within one of its hot-object
     * checks (every 2 s), and a busy proxy sends at most {@link #DEFAULT_MAX_LOAD_REPORTS} a second.
     */
    public static final Duration DEFAULT_LOAD_REPORT_EVERY = Duration.ofSeconds(1);
    /** The objects reported per period: a crowd is a few objects; the long tail is left to hints. */
    public static final int DEFAULT_MAX_LOAD_REPORTS = 16;
    /**
     * The memory tier unless one is given: Squid's default {@code cache_mem}, 256 MB. It holds the few
     * thousand objects a person's browsing revisits, and costs a laptop little since the bodies sit off
     * the heap; a lab's shared proxy gives it more with {@code --memory-mb}.
     */
    public static final long DEFAULT_MEMORY_BYTES = 256L * 1024 * 1024;
    /**
     * How stale a memory copy may be relative to the overlay: one background read per hot URL per
     * second costs the overlay nothing next to the requests it saves, and bounds how long a pushed
     * update or a heartbeat takes to reach the user.
     */
    public static final Duration DEFAULT_MEMORY_RECHECK = Duration.ofSeconds(1);

    /**
     * How long a proxy remembers that it fetched a variant itself, for {@link InsertPolicy#SECOND_SIGHT}
     * when the private copy is gone: a day, the manager's sight window too.
     */
    public static final Duration SIGHT_WINDOW = Duration.ofDays(1);

    public OverlayCacheConfig {
        if (readDeadline == null || readDeadline.isNegative() || readDeadline.isZero()) {
            throw new IllegalArgumentException("the read deadline must be positive, not " + readDeadline);
        }
        if (loadReportEvery == null || loadReportEvery.isNegative() || loadReportEvery.isZero() || maxLoadReports < 0) {
            throw new IllegalArgumentException("load reports need a positive period and a non-negative count, not "
                    + loadReportEvery + " and " + maxLoadReports);
        }
        if (memoryBytes < 0 || memoryRecheck == null || memoryRecheck.isNegative() || memoryRecheck.isZero()) {
            throw new IllegalArgumentException("the memory tier needs a non-negative size and a positive recheck, not "
                    + memoryBytes + " bytes and " + memoryRecheck);
        }
        java.util.Objects.requireNonNull(insertPolicy, "insertPolicy");
    }

    /** As above, inserting on a second sighting. */
    public OverlayCacheConfig(int ttl, Duration slowHit, Duration hintInterval, int maxBodyBytes, int verifyQueue,
                              Duration readDeadline, Duration loadReportEvery, int maxLoadReports, long memoryBytes,
                              Duration memoryRecheck) {
        this(ttl, slowHit, hintInterval, maxBodyBytes, verifyQueue, readDeadline, loadReportEvery, maxLoadReports, memoryBytes,
                memoryRecheck, InsertPolicy.SECOND_SIGHT, true);
    }

    /** As above with the default memory tier. */
    public OverlayCacheConfig(int ttl, Duration slowHit, Duration hintInterval, int maxBodyBytes, int verifyQueue,
                              Duration readDeadline, Duration loadReportEvery, int maxLoadReports) {
        this(ttl, slowHit, hintInterval, maxBodyBytes, verifyQueue, readDeadline, loadReportEvery, maxLoadReports,
                DEFAULT_MEMORY_BYTES, DEFAULT_MEMORY_RECHECK);
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
                maxLoadReports, memoryBytes, memoryRecheck, insertPolicy, keepOwnFetches);
    }

    /** This configuration with at most {@code max} load reports every {@code every} (0: none). */
    public OverlayCacheConfig withLoadReports(Duration every, int max) {
        return new OverlayCacheConfig(ttl, slowHit, hintInterval, maxBodyBytes, verifyQueue, readDeadline, every, max, memoryBytes,
                memoryRecheck, insertPolicy, keepOwnFetches);
    }

    /** This configuration with a hop budget of {@code hops} per read. */
    public OverlayCacheConfig withTtl(int hops) {
        return new OverlayCacheConfig(hops, slowHit, hintInterval, maxBodyBytes, verifyQueue, readDeadline, loadReportEvery,
                maxLoadReports, memoryBytes, memoryRecheck, insertPolicy, keepOwnFetches);
    }

    /** This configuration with a hit slower than {@code threshold} hinted. */
    public OverlayCacheConfig withSlowHit(Duration threshold) {
        return new OverlayCacheConfig(ttl, threshold, hintInterval, maxBodyBytes, verifyQueue, readDeadline, loadReportEvery,
                maxLoadReports, memoryBytes, memoryRecheck, insertPolicy, keepOwnFetches);
    }

    /** This configuration with a memory tier of {@code bytes} (0: none) whose copies are re-read after {@code recheck}. */
    public OverlayCacheConfig withMemory(long bytes, Duration recheck) {
        return new OverlayCacheConfig(ttl, slowHit, hintInterval, maxBodyBytes, verifyQueue, readDeadline, loadReportEvery,
                maxLoadReports, bytes, recheck, insertPolicy, keepOwnFetches);
    }

    /** This configuration asking for inserts by {@code policy}. */
    public OverlayCacheConfig withInsertPolicy(InsertPolicy policy) {
        return new OverlayCacheConfig(ttl, slowHit, hintInterval, maxBodyBytes, verifyQueue, readDeadline, loadReportEvery,
                maxLoadReports, memoryBytes, memoryRecheck, policy, keepOwnFetches);
    }

    /** This configuration keeping ({@code true}) or not keeping the proxy's own fetches in its memory tier. */
    public OverlayCacheConfig withKeepOwnFetches(boolean keep) {
        return new OverlayCacheConfig(ttl, slowHit, hintInterval, maxBodyBytes, verifyQueue, readDeadline, loadReportEvery,
                maxLoadReports, memoryBytes, memoryRecheck, insertPolicy, keep);
    }
}
