package io.riptide.core.object;

/** Bytes that are not a well-formed stored object or heartbeat: truncated, oversized, or invalid. */
public final class ObjectFormatException extends Exception {
    private static final long serialVersionUID = 1L;

    public ObjectFormatException(String message) {
        super(message);
    }
}
