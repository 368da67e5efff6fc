package io.riptide.core.runtime;

import java.time.Duration;

/**
 * A retransmission timeout learnt from measured round trips, as TCP does it (RFC 6298): smoothed
 * round trip plus four times its variation, doubled after each timeout until an answer is measured.
 * Only answers to first attempts are measured (Karn): an answer to a resent request is ambiguous.
 * Used for lease claims' resends and for when a client's read is hedged to a second access node.
 */
public final class RoundTripEstimate {
    private final long floorNanos;
    private final long ceilingNanos;
    private long smoothedNanos;
    private long variationNanos;
    private long timeoutNanos;
    private boolean measured;

    /** Starts at {@code initial} before any sample; never below {@code floor} nor above {@code ceiling}. */
    public RoundTripEstimate(Duration initial, Duration floor, Duration ceiling) {
        this.floorNanos = floor.toNanos();
        this.ceilingNanos = Math.max(floorNanos, ceiling.toNanos());
        this.timeoutNanos = clamp(initial.toNanos());
    }

    /** A round trip of {@code nanos}, measured on a request that was sent once. */
    public void sample(long nanos) {
        if (!measured) {
            smoothedNanos = nanos;
            variationNanos = nanos / 2;
            measured = true;
        } else {
            variationNanos = (3 * variationNanos + Math.abs(smoothedNanos - nanos)) / 4;
            smoothedNanos = (7 * smoothedNanos + nanos) / 8;
        }
        timeoutNanos = clamp(smoothedNanos + 4 * variationNanos);
    }

    /** A request timed out: the path is slower than believed, so wait twice as long next time. */
    public void backOff() {
        timeoutNanos = clamp(timeoutNanos * 2);
    }

    /** How long to wait for an answer before resending. */
    public Duration timeout() {
        return Duration.ofNanos(timeoutNanos);
    }

    private long clamp(long nanos) {
        return Math.max(floorNanos, Math.min(ceilingNanos, nanos));
    }
}
