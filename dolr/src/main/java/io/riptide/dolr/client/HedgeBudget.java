package io.riptide.dolr.client;

/**
 * How many hedged reads a client may send: a token bucket filled by the reads themselves, so hedges
 * stay a bounded share of reads however slow the overlay gets (Finagle's retry budget does the same).
 * Each read adds {@code ratio} of a token, up to {@code burst}; a hedge takes one. Without the bound, an
 * overlay slow for everyone would make every read late, hence hedged, and double its own load.
 */
final class HedgeBudget {
    /** A hedge's cost; tokens are counted in thousandths so that ten reads at 0.1 make exactly one. */
    private static final long HEDGE = 1000;

    private final long perRead;
    private final long burst;
    private long tokens;
    private long refused;

    /** At most {@code ratio} hedges per read in the long run, and {@code burst} at once. */
    HedgeBudget(double ratio, int burst) {
        if (ratio < 0 || ratio > 1 || burst < 1) {
            throw new IllegalArgumentException("hedge budget ratio " + ratio + ", burst " + burst);
        }
        this.perRead = Math.round(ratio * HEDGE);
        this.burst = burst * HEDGE;
        this.tokens = this.burst;
    }

    /** A read was sent: it earns its share of a hedge. */
    void onRead() {
        tokens = Math.min(burst, tokens + perRead);
    }

    /** Takes a hedge if the budget has one; counts it as refused if not. */
    boolean tryHedge() {
        if (tokens >= HEDGE) {
            tokens -= HEDGE;
            return true;
        }
        refused++;
        return false;
    }

    /** Hedges refused for want of budget. */
    long refused() {
        return refused;
    }
}
