package io.riptide.proxy.front;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The bound on cache lookups in flight (architecture §4): over it a request goes straight to its
 * origin instead of queueing behind the overlay, so a slow overlay never slows browsing down.
 */
final class Admission {
    private final int max;
    private final AtomicInteger inFlight = new AtomicInteger();

    Admission(int max) {
        this.max = max;
    }

    boolean tryEnter() {
        while (true) {
            int n = inFlight.get();
            if (n >= max) {
                return false;
            }
            if (inFlight.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    void exit() {
        inFlight.decrementAndGet();
    }
}
