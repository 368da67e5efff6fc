package io.riptide.dolr.client;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.dolr.location.LocateResult;
import io.riptide.dolr.location.LocationMessages.FailureReason;

/**
 * How a read through {@link OverlayAccess} ended: the replica's bytes, or why there are none.
 *
 * @param failure null when a replica answered
 * @param hops    overlay hops the read took
 * @param data    the replica's bytes (empty on failure)
 * @param replica the node that answered, when the path says (a member's own read); null through an access node
 */
public record ObjectRead(Id guid, FailureReason failure, int hops, byte[] data, NodeHandle replica) {
    private static final byte[] NONE = new byte[0];

    public ObjectRead {
        data = data == null ? NONE : data;
    }

    /** Whether a replica answered. */
    public boolean found() {
        return failure == null;
    }

    /** A read that failed for {@code reason}. */
    public static ObjectRead failed(Id guid, FailureReason reason) {
        return new ObjectRead(guid, reason, 0, NONE, null);
    }

    /** A member node's own read. */
    static ObjectRead of(LocateResult r) {
        return r.found() && r.data() != null
                ? new ObjectRead(r.guid(), null, r.hops(), r.data(), r.replica())
                : new ObjectRead(r.guid(), r.found() ? FailureReason.NOT_FOUND : r.failure(), r.hops(), NONE, null);
    }

    /** An access node's answer to a client's read. */
    static ObjectRead of(ClientMessages.ClientReadReply r) {
        return new ObjectRead(r.guid(), r.failure(), r.hops(), r.data(), null);
    }
}
