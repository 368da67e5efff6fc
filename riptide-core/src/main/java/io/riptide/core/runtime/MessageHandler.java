package io.riptide.core.runtime;

import io.riptide.core.wire.WireMessage;

/** What a node's protocol code receives from the runtime: messages from its peers. */
@FunctionalInterface
public interface MessageHandler {
    /**
     * A message arrived. Runs on the node's own event loop. {@code from} is the sender's proven ID and
     * the address it listens on.
     */
    void onMessage(NodeHandle from, WireMessage message);
}
