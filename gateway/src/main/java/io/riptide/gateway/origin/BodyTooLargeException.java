package io.riptide.gateway.origin;

/** Raised in the pipeline by {@link BodyLimit} when a body would exceed the limit. */
final class BodyTooLargeException extends Exception {
    BodyTooLargeException(long limit) {
        super("body larger than " + limit + " bytes", null, false, false);
    }
}
