package io.riptide.proxy.cache;

import io.riptide.core.http.Headers;
import java.time.Duration;

/**
 * What a cache lookup came to: a response to serve (its headers already carry {@code Age} and
 * {@code Cache-Status}), or a miss with the {@code Cache-Status} parameters to put on the origin's
 * response (RFC 9211, e.g. {@code fwd=miss}, {@code fwd=stale}, {@code fwd=miss; detail=timeout}).
 * A miss may carry the verified copy it found but may not serve without validation ({@link #stored}):
 * the front then revalidates it with the origin (RFC 9111 §4.3).
 */
public record LookupResult(boolean hit, int status, String reason, Headers headers, byte[] body, String missStatus,
        Stored stored) {
    /**
     * A verified copy that needs validating before use.
     *
     * @param status       the stored status code
     * @param reason       the stored reason phrase, or null
     * @param headers      the stored header fields (as signed, with a heartbeat's Date), without Age or Cache-Status
     * @param body         the stored body
     * @param age          the copy's current age, for the Age of a copy served stale
     * @param staleIfError whether the copy may be served stale if the origin fails or answers 5xx (RFC 5861 §4)
     */
    public record Stored(int status, String reason, Headers headers, byte[] body, Duration age, boolean staleIfError) {
    }

    /** A hit. */
    public static LookupResult hit(int status, String reason, Headers headers, byte[] body) {
        return new LookupResult(true, status, reason, headers, body, null, null);
    }

    /** A miss; {@code cacheStatus} holds the RFC 9211 parameters after the cache's name. */
    public static LookupResult miss(String cacheStatus) {
        return new LookupResult(false, 0, null, Headers.EMPTY, null, cacheStatus, null);
    }

    /** A miss that found {@code stored}, usable once the origin validates it; {@code cacheStatus} as for a miss. */
    public static LookupResult validate(String cacheStatus, Stored stored) {
        return new LookupResult(false, 0, null, Headers.EMPTY, null, cacheStatus, stored);
    }
}
