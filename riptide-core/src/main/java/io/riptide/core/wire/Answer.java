package io.riptide.core.wire;

/** The one answer to a {@link Question}, carrying the question's request ID. */
public interface Answer extends WireMessage {
    /** The ID of the question this answers. */
    long requestId();
}
