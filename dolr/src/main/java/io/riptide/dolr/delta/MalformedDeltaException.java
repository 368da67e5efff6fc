package io.riptide.dolr.delta;

/** A delta that does not decode against the base it was applied to: truncated, out of range, or too large. */
public final class MalformedDeltaException extends Exception {
    private static final long serialVersionUID = 1L;

    public MalformedDeltaException(String message) {
        super(message);
    }
}
