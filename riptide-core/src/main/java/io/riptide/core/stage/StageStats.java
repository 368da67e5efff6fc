package io.riptide.core.stage;

import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/** One stage's running counters; adders and accumulators so workers and callers never contend on a lock. */
final class StageStats {
    private final LongAdder accepted = new LongAdder();
    private final LongAdder refused = new LongAdder();
    private final LongAdder completed = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder dequeued = new LongAdder();
    private final LongAdder waitTotal = new LongAdder();
    private final LongAccumulator waitMax = new LongAccumulator(Math::max, 0);
    private final LongAdder serviceTotal = new LongAdder();
    private final LongAccumulator serviceMax = new LongAccumulator(Math::max, 0);

    void accepted() {
        accepted.increment();
    }

    /** Undoes {@link #accepted()} for an event that turned out not to fit after all. */
    void refusedAfterAll() {
        accepted.decrement();
        refused.increment();
    }

    void refused() {
        refused.increment();
    }

    void waited(long nanos) {
        dequeued.increment();
        waitTotal.add(nanos);
        waitMax.accumulate(nanos);
    }

    void served(long nanos, boolean succeeded) {
        serviceTotal.add(nanos);
        serviceMax.accumulate(nanos);
        (succeeded ? completed : failed).increment();
    }

    StageMetrics snapshot(String name, int queueLength, int threads, long elapsedNanos) {
        long done = completed.sum();
        long fail = failed.sum();
        long finished = done + fail;
        long taken = dequeued.sum();
        return new StageMetrics(
                name,
                queueLength,
                threads,
                accepted.sum(),
                refused.sum(),
                done,
                fail,
                taken == 0 ? 0 : waitTotal.sum() / taken,
                waitMax.get(),
                finished == 0 ? 0 : serviceTotal.sum() / finished,
                serviceMax.get(),
                elapsedNanos <= 0 ? 0 : finished * 1e9 / elapsedNanos,
                0,
                taken,
                waitTotal.sum());
    }
}
