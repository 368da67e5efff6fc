package io.riptide.core.http;

import java.time.Instant;

/**
 * A stored response and when it was fetched, the inputs of age and freshness (RFC 9111 §4.2.3).
 *
 * @param status the response status code
 * @param headers the stored response header fields
 * @param requestTime when the request that produced it was sent
 * @param responseTime when the response was received
 */
public record CachedResponse(int status, Headers headers, Instant requestTime, Instant responseTime) {
    public CachedResponse {
        if (responseTime.isBefore(requestTime)) {
            throw new IllegalArgumentException("a response cannot arrive before its request was sent");
        }
    }
}
