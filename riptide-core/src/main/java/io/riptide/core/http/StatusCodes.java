package io.riptide.core.http;

import java.util.Set;

/** What a shared cache knows about response status codes (RFC 9110 §15, RFC 9111 §3). */
public final class StatusCodes {
    /** Cacheable by default: storable with heuristic freshness (RFC 9110 §15.1). */
    private static final Set<Integer> HEURISTIC = Set.of(200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501);

    /**
     * The codes whose caching requirements Riptide implements, for must-understand (RFC 9111
     * §5.2.2.3). 206 is left out on purpose: Riptide stores whole objects, never ranges.
     */
    private static final Set<Integer> UNDERSTOOD =
            Set.of(200, 203, 204, 300, 301, 302, 303, 307, 308, 404, 405, 410, 414, 501);

    private StatusCodes() {}

    /** Whether {@code status} is heuristically cacheable (RFC 9110 §15.1). */
    public static boolean isHeuristicallyCacheable(int status) {
        return HEURISTIC.contains(status);
    }

    /** Whether Riptide implements the caching rules of {@code status}. */
    public static boolean isUnderstood(int status) {
        return UNDERSTOOD.contains(status);
    }

    /** Whether {@code status} ends an exchange (not 1xx) and is a valid three-digit code. */
    public static boolean isFinal(int status) {
        return status >= 200 && status <= 599;
    }
}
