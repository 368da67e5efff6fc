package io.riptide.gateway.origin;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/** The live counters behind {@link OriginFetcherMetrics}; updated from any thread without locks. */
final class FetchCounters {
    private final LongAdder fetches = new LongAdder();
    private final LongAdder succeeded = new LongAdder();
    private final Map<FetchException.Reason, LongAdder> failures = new EnumMap<>(FetchException.Reason.class);
    private final LongAdder connectionsOpened = new LongAdder();
    private final LongAdder connectionsReused = new LongAdder();
    private final LongAdder redirects = new LongAdder();
    private final LongAdder bytesReceived = new LongAdder();
    private final LongAdder bodyBytes = new LongAdder();

    FetchCounters() {
        // Filled once here and never changed, so reads from other threads need no lock.
        for (FetchException.Reason r : FetchException.Reason.values()) {
            failures.put(r, new LongAdder());
        }
    }

    void fetch() {
        fetches.increment();
    }

    void succeeded(int bodyLength) {
        succeeded.increment();
        bodyBytes.add(bodyLength);
    }

    void failed(FetchException.Reason reason) {
        failures.get(reason).increment();
    }

    void connectionOpened() {
        connectionsOpened.increment();
    }

    void connectionReused() {
        connectionsReused.increment();
    }

    void redirect() {
        redirects.increment();
    }

    void bytesReceived(long n) {
        bytesReceived.add(n);
    }

    OriginFetcherMetrics snapshot(int inFlight) {
        Map<FetchException.Reason, Long> byReason = new EnumMap<>(FetchException.Reason.class);
        failures.forEach((r, n) -> byReason.put(r, n.sum()));
        return new OriginFetcherMetrics(fetches.sum(), succeeded.sum(), byReason, inFlight, connectionsOpened.sum(),
                connectionsReused.sum(), redirects.sum(), bytesReceived.sum(), bodyBytes.sum());
    }
}
