package io.riptide.dolr.client;

import java.util.Arrays;

/**
 * The latest read latencies through one access node (or all of them), for when a read is late enough
 * to hedge: a window of the last {@link #WINDOW} answers and its 95th percentile. A percentile, not a
 * mean plus deviations: one slow answer moves a mean-based estimate for many reads after it, while the
 * tail a hedge is meant to cut is exactly the answers beyond the 95th (Dean and Barroso, "The Tail at
 * Scale").
 */
final class ReadLatencies {
    /** Answers kept: enough for a stable 95th percentile, few enough to follow a change within a second of reads. */
    static final int WINDOW = 64;
    /** Fewer answers than this say too little about the tail. */
    static final int MIN_SAMPLES = 8;

    private final long[] nanos = new long[WINDOW];
    private int count;
    private int next;
    private long p95 = -1;

    /** An answer that took {@code latency} nanoseconds from sending the read. */
    void add(long latency) {
        nanos[next] = latency;
        next = (next + 1) % WINDOW;
        count = Math.min(WINDOW, count + 1);
        p95 = -1;
    }

    /** Whether there are enough answers for {@link #p95}. */
    boolean known() {
        return count >= MIN_SAMPLES;
    }

    /** The 95th percentile of the answers in the window, in nanoseconds (0 with none). */
    long p95() {
        if (p95 < 0) {
            if (count == 0) {
                return 0;
            }
            long[] sorted = Arrays.copyOf(nanos, count);
            Arrays.sort(sorted);
            p95 = sorted[(int) Math.ceil(0.95 * count) - 1];
        }
        return p95;
    }
}
