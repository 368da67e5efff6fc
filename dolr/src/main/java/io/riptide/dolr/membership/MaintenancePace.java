package io.riptide.dolr.membership;

/**
 * How many routing-table rows one proximity-maintenance round asks about. Maintenance only ever
 * makes routes shorter, so it should use spare uplink capacity and yield the rest, as LEDBAT does
 * (RFC 6817): one more row per round while answers come back without queueing, half as many once
 * they queue past a target. The target is the low end of what RFC 6817 allows (at most 100 ms),
 * since the routes that maintenance speeds up share the same queue.
 */
final class MaintenancePace {
    /** Queueing above which a round asks fewer rows. */
    static final long TARGET_QUEUEING_NANOS = 25_000_000L;

    private int rows = 1;

    /** The rows to ask this round, given the rows populated and the queueing answers saw lately. */
    int rowsThisRound(int populatedRows, long queueingNanos) {
        if (queueingNanos > TARGET_QUEUEING_NANOS) {
            rows = Math.max(1, rows / 2);
        } else {
            rows++;
        }
        rows = Math.min(rows, Math.max(1, populatedRows));
        return rows;
    }
}
