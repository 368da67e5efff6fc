package io.riptide.dolr.transport;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Bounded polling for conditions that become true on other threads. */
final class Await {
    private Await() {
    }

    /** Waits until {@code condition} holds, failing with {@code what} after {@code timeout}. */
    static void until(Duration timeout, String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("timed out after " + timeout + " waiting for: " + what);
            }
            Thread.sleep(5);
        }
    }
}
