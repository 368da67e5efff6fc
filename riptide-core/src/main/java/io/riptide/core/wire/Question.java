package io.riptide.core.wire;

/**
 * A message answered by exactly one {@link Answer} carrying the same request ID. The ID is the
 * asker's own; a node that asks on a client's behalf (an access node) renumbers the question into
 * its own ID space, so two clients' IDs never meet at the answering node.
 */
public interface Question extends WireMessage {
    /** The asker's ID, which the answer repeats. */
    long requestId();

    /** This question under another ID. */
    Question withRequestId(long id);
}
