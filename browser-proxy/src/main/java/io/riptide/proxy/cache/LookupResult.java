package io.riptide.proxy.cache;

import io.riptide.core.http.Headers;

/**
 * What a cache lookup came to: a response to serve (its headers already carry {@code Age} and
 * {@code Cache-Status}), or a miss with the {@code Cache-Status} parameters to put on the origin's
 * response (RFC 9211, e.g. {@code fwd=miss}, {@code fwd=stale}, {@code fwd=miss; detail=timeout}).
 */
public record LookupResult(boolean hit, int status, String reason, Headers headers, byte[] body, String missStatus) {
    /** A hit. */
    public static LookupResult hit(int status, String reason, Headers headers, byte[] body) {
        return new LookupResult(true, status, reason, headers, body, null);
    }

    /** A miss; {@code cacheStatus} holds the RFC 9211 parameters after the cache's name. */
    public static LookupResult miss(String cacheStatus) {
        return new LookupResult(false, 0, null, Headers.EMPTY, null, cacheStatus);
    }
}
