package io.riptide.core.http;

import java.time.Duration;

/**
 * A response's freshness lifetime and where it came from (RFC 9111 §4.2.1).
 *
 * @param duration how long the response stays fresh after it was generated
 * @param source which rule gave the duration
 */
public record Lifetime(Duration duration, Source source) {
    /** The rules of RFC 9111 §4.2.1, in order of precedence. */
    public enum Source {
        /** Cache-Control: s-maxage (shared caches only). */
        S_MAXAGE,
        /** Cache-Control: max-age. */
        MAX_AGE,
        /** Expires minus Date. */
        EXPIRES,
        /** A fraction of the time since Last-Modified (§4.2.2). */
        HEURISTIC,
        /** No explicit expiry and no heuristic applies: the response is stale at once. */
        NONE
    }
}
