package io.riptide.core.http;

import java.time.Duration;

/**
 * What to do with a stored response for one request, and why.
 *
 * @param action what to do
 * @param staleIfErrorAllowed whether, if validation fails (5xx or no answer), the stored response may be
 *     served stale instead (RFC 5861 §4)
 * @param age the stored response's current age, for the Age header of what is served (RFC 9111 §5.1)
 * @param reason a human-readable reason
 */
public record ServeDecision(Action action, boolean staleIfErrorAllowed, Duration age, String reason) {
    /** The possible uses of a stored response. */
    public enum Action {
        /** Serve it: it is fresh enough for the request. */
        SERVE_FRESH,
        /** Serve it stale: the client accepts this much staleness (max-stale). */
        SERVE_STALE,
        /** Serve it stale and revalidate in the background (stale-while-revalidate, RFC 5861 §3). */
        SERVE_STALE_WHILE_REVALIDATE,
        /** Send a conditional request first and serve only after a successful answer. */
        VALIDATE,
        /** The client asked only-if-cached and nothing usable is stored: answer 504 (RFC 9111 §5.2.1.7). */
        GATEWAY_TIMEOUT
    }
}
