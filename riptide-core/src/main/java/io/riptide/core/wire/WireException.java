package io.riptide.core.wire;

/** Input that is not a valid frame or message: a bad length, an unknown type, a truncated field. */
public final class WireException extends Exception {
    private static final long serialVersionUID = 1L;

    public WireException(String message) {
        super(message);
    }
}
