package io.riptide.proxy.front;

import io.riptide.core.stage.StageMetrics;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The bound on cache lookups in flight (architecture §4): over it a request goes straight to its
 * origin instead of queueing behind the overlay, so a slow overlay never slows browsing down.
 * Reported as the stage {@value #NAME}: no queue, lookups in flight as its "threads", and those sent
 * to the origin instead as refused.
 */
final class Admission {
    /** The stage's name on {@code /metrics} and the status page. */
    static final String NAME = "lookup";

    private final int max;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final LongAdder accepted = new LongAdder();
    private final LongAdder refused = new LongAdder();

    Admission(int max) {
        this.max = max;
    }

    boolean tryEnter() {
        while (true) {
            int n = inFlight.get();
            if (n >= max) {
                refused.increment();
                return false;
            }
            if (inFlight.compareAndSet(n, n + 1)) {
                accepted.increment();
                return true;
            }
        }
    }

    void exit() {
        inFlight.decrementAndGet();
    }

    /** A snapshot in the form every stage reports. */
    StageMetrics metrics() {
        return new StageMetrics(NAME, 0, inFlight.get(), accepted.sum(), refused.sum(), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }
}
