package io.riptide.core.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/** A clock tests move by hand: for freshness, rates and timeouts judged by a {@link Clock}. */
public final class ManualClock extends Clock {
    private final AtomicLong millis;

    /** A clock standing at {@code startMillis} since the epoch. */
    public ManualClock(long startMillis) {
        this.millis = new AtomicLong(startMillis);
    }

    /** A clock starting at the real time, for code that compares it with timestamps made elsewhere. */
    public ManualClock() {
        this(System.currentTimeMillis());
    }

    public void advance(long ms) {
        millis.addAndGet(ms);
    }

    public void advance(Duration d) {
        advance(d.toMillis());
    }

    @Override
    public long millis() {
        return millis.get();
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis.get());
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException();
    }
}
