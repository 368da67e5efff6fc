package io.riptide.gateway.origin;

import io.riptide.core.http.Headers;
import java.net.URI;
import java.util.Objects;

/**
 * An origin's complete answer, as the origin sent it: the headers in order (hop-by-hop fields
 * included) and the body de-chunked but never content-decoded, so a stored object keeps the
 * origin's representation.
 *
 * @param url the URL that answered, after any redirects (never with userinfo or a fragment)
 * @param status the status code
 * @param reason the reason phrase
 * @param headers the response header fields
 * @param body the body; empty for HEAD, 304 and the like. Not copied: treat as read-only
 * @param requestTimeMillis the fetcher's clock when the request that got this answer was sent
 *     (RFC 9111 request_time)
 * @param responseTimeMillis the fetcher's clock when the answer was complete (RFC 9111 response_time)
 * @param redirects how many redirects were followed to reach {@code url}
 */
public record OriginResponse(
        URI url,
        int status,
        String reason,
        Headers headers,
        byte[] body,
        long requestTimeMillis,
        long responseTimeMillis,
        int redirects) {

    public OriginResponse {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(headers, "headers");
        Objects.requireNonNull(body, "body");
    }
}
