package io.riptide.core.wire;

/**
 * A node-to-node message: plain immutable data (a record) that a {@link MessageCodec} knows how to
 * write and read. In simulation messages travel as objects; over TCP as frames.
 */
public interface WireMessage {
}
