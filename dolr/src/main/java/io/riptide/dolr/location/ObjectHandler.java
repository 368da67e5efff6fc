package io.riptide.dolr.location;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.wire.WireMessage;

/** The application upcall at a replica: a request for one of this node's objects arrived. */
@FunctionalInterface
public interface ObjectHandler {
    /** {@code payload} for the object {@code guid} from {@code requester}, who is waiting for a direct answer. */
    void deliverToObject(Id guid, WireMessage payload, NodeHandle requester, long requestId, int hops);
}
