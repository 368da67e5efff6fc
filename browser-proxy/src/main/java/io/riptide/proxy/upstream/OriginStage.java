package io.riptide.proxy.upstream;

import io.riptide.core.stage.StageMetrics;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * The figures of every {@link OriginQueue} of one proxy together, reported as the stage {@value #NAME}: requests
 * waiting for an origin connection, connections in use, admitted, refused (queue full), shed (waited past the limit)
 * and the time they waited. Queues on every event loop count here at once, hence adders.
 */
public final class OriginStage {
    /** The stage's name on {@code /metrics} and the status page. */
    public static final String NAME = "origin";

    private final AtomicInteger waiting = new AtomicInteger();
    private final AtomicInteger inUse = new AtomicInteger();
    private final LongAdder accepted = new LongAdder();
    private final LongAdder refused = new LongAdder();
    private final LongAdder shed = new LongAdder();
    private final LongAdder waited = new LongAdder();
    private final LongAdder waitTotal = new LongAdder();
    private final LongAccumulator waitMax = new LongAccumulator(Math::max, 0);

    void queued() {
        accepted.increment();
        waiting.incrementAndGet();
    }

    /** Admitted at once: a slot was free and no one waited. */
    void admittedAtOnce() {
        accepted.increment();
        inUse.incrementAndGet();
        waitedFor(0);
    }

    /** Admitted from the queue after {@code waitNanos}. */
    void admittedAfter(long waitNanos) {
        waiting.decrementAndGet();
        inUse.incrementAndGet();
        waitedFor(waitNanos);
    }

    void released() {
        inUse.decrementAndGet();
    }

    void refused() {
        refused.increment();
    }

    void shed(long waitNanos) {
        waiting.decrementAndGet();
        shed.increment();
        waitedFor(waitNanos);
    }

    void cancelled() {
        waiting.decrementAndGet();
    }

    private void waitedFor(long nanos) {
        waited.increment();
        waitTotal.add(nanos);
        waitMax.accumulate(nanos);
    }

    /** Requests shed so far, at the door or after waiting. */
    public long shedTotal() {
        return shed.sum() + refused.sum();
    }

    /** A snapshot in the form every stage reports; "threads" are the origin connections in use. */
    public StageMetrics metrics() {
        long n = waited.sum();
        long total = waitTotal.sum();
        return new StageMetrics(NAME, Math.max(0, waiting.get()), Math.max(0, inUse.get()), accepted.sum(), refused.sum(), 0, 0,
                n == 0 ? 0 : total / n, waitMax.get(), 0, 0, 0, shed.sum(), n, total);
    }
}
