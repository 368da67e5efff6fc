package io.riptide.gateway.origin;

import io.netty.handler.codec.http.HttpMethod;

/** What status codes mean for the fetcher's framing and redirects. */
final class Statuses {
    private Statuses() {
    }

    /** An interim 1xx answer (not 101, which we never ask for): the real answer follows on the same request. */
    static boolean informational(int status) {
        return status >= 100 && status < 200 && status != 101;
    }

    /** Whether an answer to {@code method} with {@code status} can carry a body at all (RFC 9112 section 6.3). */
    static boolean mayHaveBody(HttpMethod method, int status) {
        return !HttpMethod.HEAD.equals(method) && !(status >= 100 && status < 200) && status != 204 && status != 304;
    }

    /** The redirects the fetcher follows: 301, 302, 303, 307 and 308. */
    static boolean redirect(int status) {
        return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
    }
}
