package io.riptide.core.testing;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Bounded polling for tests that watch other threads: waits for a condition, fails after a deadline. */
public final class Await {
    /** The default bound: generous for a loaded CI machine, short enough to fail a broken build fast. */
    public static final Duration DEFAULT = Duration.ofSeconds(5);

    private Await() {
    }

    /** Polls {@code condition} until it holds; throws {@link AssertionError} naming {@code what} after {@code timeout}. */
    public static void until(Duration timeout, String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + timeout + " waiting for: " + what);
            }
            // Polling interval, not a timing assumption: the bound above is what the test relies on.
            LockSupport.parkNanos(1_000_000);
        }
    }

    /** {@link #until(Duration, String, BooleanSupplier)} with the {@link #DEFAULT} bound. */
    public static void until(String what, BooleanSupplier condition) {
        until(DEFAULT, what, condition);
    }
}
