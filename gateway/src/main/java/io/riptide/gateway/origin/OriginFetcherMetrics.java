package io.riptide.gateway.origin;

import java.util.Map;

/**
 * A snapshot of an {@link OriginFetcher}'s counters, totals since start except {@code inFlight}.
 *
 * @param fetches fetches asked for (each counts once, however many redirects it follows)
 * @param succeeded fetches that ended with a response
 * @param failures failed fetches by reason; every reason is present
 * @param inFlight fetches in progress now
 * @param connectionsOpened connections opened to origins
 * @param connectionsReused requests sent on a connection kept from an earlier one
 * @param redirectsFollowed redirects followed
 * @param bytesReceived bytes read from origin sockets (TLS and HTTP framing included)
 * @param bodyBytes body bytes handed to callers
 */
public record OriginFetcherMetrics(
        long fetches,
        long succeeded,
        Map<FetchException.Reason, Long> failures,
        int inFlight,
        long connectionsOpened,
        long connectionsReused,
        long redirectsFollowed,
        long bytesReceived,
        long bodyBytes) {

    public OriginFetcherMetrics {
        failures = Map.copyOf(failures);
    }

    /** Failed fetches for {@code reason}. */
    public long failures(FetchException.Reason reason) {
        return failures.getOrDefault(reason, 0L);
    }
}
