package io.riptide.simulator.agents;

/**
 * An origin server's outbound link as a FIFO queue. Each response occupies the link for
 * {@code bytes × 8 / bandwidth} after the responses queued before it; the requester has it
 * {@code latency} later (the round trip to the origin and its processing, a fixed cost). So while
 * requests arrive slower than the link drains them a fetch costs transfer + latency, and once they
 * arrive faster the queue, and with it every fetch's latency, grows with the load: the paper's
 * bandwidth-restricted web server (section 6.8).
 */
public final class OriginLink {
    private final double bitsPerSecond;
    private final long latencyNanos;
    private long freeAtNanos;
    private long busyNanos;

    /** A link of {@code bitsPerSecond} with {@code latencyNanos} of fixed cost per fetch. */
    public OriginLink(double bitsPerSecond, long latencyNanos) {
        if (!(bitsPerSecond > 0) || latencyNanos < 0) {
            throw new IllegalArgumentException("invalid link");
        }
        this.bitsPerSecond = bitsPerSecond;
        this.latencyNanos = latencyNanos;
    }

    /** Queues a response of {@code bytes} at {@code nowNanos}; returns how long until the requester has it. */
    public long send(long nowNanos, int bytes) {
        long start = Math.max(nowNanos, freeAtNanos);
        long transfer = (long) Math.ceil(bytes * 8e9 / bitsPerSecond);
        freeAtNanos = start + transfer;
        busyNanos += transfer;
        return freeAtNanos - nowNanos + latencyNanos;
    }

    /** Total time the link spent sending. */
    public long busyNanos() {
        return busyNanos;
    }
}
