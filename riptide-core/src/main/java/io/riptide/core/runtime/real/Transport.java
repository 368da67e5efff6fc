package io.riptide.core.runtime.real;

import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.wire.WireMessage;

/** Carries one node's messages to its peers over a real network. */
public interface Transport extends AutoCloseable {
    /**
     * Queues {@code message} for the node at {@code to}, connecting if needed. Thread-safe, never
     * blocks; a message that cannot be delivered is dropped (and counted), as on any network.
     */
    void send(NodeAddress to, WireMessage message);

    /** Stops listening and closes every connection. */
    @Override
    void close();
}
