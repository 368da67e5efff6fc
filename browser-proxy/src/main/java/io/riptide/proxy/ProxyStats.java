package io.riptide.proxy;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * What the proxy has served: hits, misses, bypasses, errors, requests shed, tunnels and intercepted connections (with the leaf
 * certificates minted and origin certificates refused), the clients it refused, the browser connections open
 * and those refused over a cap, request heads that came too slowly, messages refused for their framing, and the
 * latency of every answered request from its head arriving to its last byte handed to the socket. Thread-safe;
 * the front records, the status page and tests read.
 */
public final class ProxyStats {
    /** Latency percentiles in microseconds over every request recorded so far. */
    public record Latency(long count, long p50Micros, long p90Micros, long p99Micros, long maxMicros) {
    }

    /** How a request was answered, for counting. */
    public enum Outcome { HIT, MISS, BYPASS, ERROR, SHED }

    /** Which connection cap a browser connection was over. */
    public enum Cap { GLOBAL, PER_CLIENT }

    /** Whose message was refused for its framing: a browser's request or an origin's response. */
    public enum Side { REQUEST, RESPONSE }

    private static final long HIGHEST_MICROS = TimeUnit.HOURS.toMicros(1);

    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder bypasses = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final LongAdder shed = new LongAdder();
    private final LongAdder tunnels = new LongAdder();
    private final LongAdder clientsRefused = new LongAdder();
    private final LongAdder upstreamConnections = new LongAdder();
    private final LongAdder intercepted = new LongAdder();
    private final LongAdder leavesMinted = new LongAdder();
    private final LongAdder originCertificatesRefused = new LongAdder();
    private final LongAdder clientConnections = new LongAdder();
    private final LongAdder overGlobalCap = new LongAdder();
    private final LongAdder overPerClientCap = new LongAdder();
    private final LongAdder headTimeouts = new LongAdder();
    private final LongAdder requestsFramingRefused = new LongAdder();
    private final LongAdder responsesFramingRefused = new LongAdder();
    private final LongAdder latencyMicrosSum = new LongAdder();
    // Recording is wait-free on the event loops; readers fold the interval into the running total.
    private final Recorder recorder = new Recorder(HIGHEST_MICROS, 3);
    private final Histogram total = new Histogram(HIGHEST_MICROS, 3);
    private Histogram interval;

    /** Counts one answered request and its latency. */
    public void record(Outcome outcome, long latencyNanos) {
        switch (outcome) {
            case HIT -> hits.increment();
            case MISS -> misses.increment();
            case BYPASS -> bypasses.increment();
            case ERROR -> errors.increment();
            case SHED -> shed.increment();
        }
        long micros = Math.max(0, Math.min(HIGHEST_MICROS, TimeUnit.NANOSECONDS.toMicros(latencyNanos)));
        recorder.recordValue(micros);
        latencyMicrosSum.add(micros);
    }

    /** The latencies recorded so far, added up, in seconds (a Prometheus summary's {@code _sum}). */
    public double latencySecondsSum() {
        return latencyMicrosSum.sum() / 1e6;
    }

    /** Counts one CONNECT tunnel opened. */
    public void tunnelOpened() {
        tunnels.increment();
    }

    /**
     * Counts one client refused because its address is not in the allow-list: a 403, not an answered
     * request (it is in neither the request counts nor the latency).
     */
    public void clientRefused() {
        clientsRefused.increment();
    }

    /** Counts one new connection to an origin (reused ones are not counted). */
    public void upstreamConnectionOpened() {
        upstreamConnections.increment();
    }

    /** Counts one CONNECT intercepted (TLS terminated here) rather than tunnelled. */
    public void connectionIntercepted() {
        intercepted.increment();
    }

    /** Counts one leaf certificate minted for an intercepted host. */
    public void leafMinted() {
        leavesMinted.increment();
    }

    /** Counts one TLS handshake with an origin refused because its certificate did not verify. */
    public void originCertificateRefused() {
        originCertificatesRefused.increment();
    }

    /** Counts one browser connection admitted (open until {@link #clientConnectionClosed()}). */
    public void clientConnectionOpened() {
        clientConnections.increment();
    }

    /** Counts one admitted browser connection closed. */
    public void clientConnectionClosed() {
        clientConnections.decrement();
    }

    /** Counts one browser connection refused with 503 because it was over {@code cap}. */
    public void connectionOverCap(Cap cap) {
        (cap == Cap.GLOBAL ? overGlobalCap : overPerClientCap).increment();
    }

    /** Counts one connection closed with 408 because a request's head did not arrive in time. */
    public void requestHeadTimedOut() {
        headTimeouts.increment();
    }

    /** Counts one message refused for its framing (a browser got 400/501, or 502 for an origin's response). */
    public void framingRefused(Side side) {
        (side == Side.REQUEST ? requestsFramingRefused : responsesFramingRefused).increment();
    }

    /** Browser connections open now (those refused over a cap not counted). */
    public long clientConnections() {
        return clientConnections.sum();
    }

    public long connectionsOverCap(Cap cap) {
        return (cap == Cap.GLOBAL ? overGlobalCap : overPerClientCap).sum();
    }

    public long requestHeadTimeouts() {
        return headTimeouts.sum();
    }

    public long framingRefusals(Side side) {
        return (side == Side.REQUEST ? requestsFramingRefused : responsesFramingRefused).sum();
    }

    public long intercepted() {
        return intercepted.sum();
    }

    public long leavesMinted() {
        return leavesMinted.sum();
    }

    public long originCertificatesRefused() {
        return originCertificatesRefused.sum();
    }

    public long hits() {
        return hits.sum();
    }

    public long misses() {
        return misses.sum();
    }

    public long bypasses() {
        return bypasses.sum();
    }

    public long errors() {
        return errors.sum();
    }

    /** Requests answered 503 with Retry-After by admission control: the origin's connections busy, its queue standing. */
    public long shed() {
        return shed.sum();
    }

    public long tunnels() {
        return tunnels.sum();
    }

    public long clientsRefused() {
        return clientsRefused.sum();
    }

    public long upstreamConnectionsOpened() {
        return upstreamConnections.sum();
    }

    /** The latency percentiles so far. */
    public synchronized Latency latency() {
        interval = recorder.getIntervalHistogram(interval);
        total.add(interval);
        return new Latency(total.getTotalCount(), total.getValueAtPercentile(50), total.getValueAtPercentile(90),
                total.getValueAtPercentile(99), total.getMaxValue());
    }
}
