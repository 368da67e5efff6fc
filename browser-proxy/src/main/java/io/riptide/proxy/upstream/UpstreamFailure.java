package io.riptide.proxy.upstream;

/**
 * Why a request could not be answered by its origin: the status to send the browser (502, 503 or 504), a readable
 * reason, and for a 503 how many seconds the browser is told to wait ({@code Retry-After}; 0 sends none).
 */
public record UpstreamFailure(int status, String message, int retryAfterSeconds) {
    /** A failure without {@code Retry-After}. */
    public UpstreamFailure(int status, String message) {
        this(status, message, 0);
    }

    /** Whether the request was shed by admission control (a 503 that says when to come back), not failed by the origin. */
    public boolean shed() {
        return status == 503 && retryAfterSeconds > 0;
    }
}
