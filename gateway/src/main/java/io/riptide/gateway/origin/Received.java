package io.riptide.gateway.origin;

import io.riptide.core.http.Headers;

/**
 * One complete answer read from a connection.
 *
 * @param status the status code
 * @param reason the reason phrase
 * @param headers the header fields as sent
 * @param body the body as sent (de-chunked, not decoded)
 * @param requestTimeMillis when the request was written
 * @param responseTimeMillis when the answer was complete
 * @param keepAlive whether the connection may carry another request
 */
record Received(int status, String reason, Headers headers, byte[] body, long requestTimeMillis,
        long responseTimeMillis, boolean keepAlive) {
}
