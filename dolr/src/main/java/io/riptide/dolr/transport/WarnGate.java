package io.riptide.dolr.transport;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Opens at most once a minute: whether a refusal the operator should hear of is logged at WARN this
 * time or at DEBUG, so that a peer connecting again and again cannot fill the log. Thread-safe (every
 * event loop of a transport shares one).
 */
final class WarnGate {
    static final long EVERY_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final LongSupplier nanoTime;
    private final AtomicLong lastOpened;

    WarnGate(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
        this.lastOpened = new AtomicLong(nanoTime.getAsLong() - EVERY_NANOS);
    }

    /** Whether this event is the one of its minute to log at WARN. */
    boolean open() {
        long now = nanoTime.getAsLong();
        long last = lastOpened.get();
        return now - last >= EVERY_NANOS && lastOpened.compareAndSet(last, now);
    }
}
