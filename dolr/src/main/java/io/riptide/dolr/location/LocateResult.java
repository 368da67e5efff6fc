package io.riptide.dolr.location;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.dolr.location.LocationMessages.FailureReason;

/**
 * How a locate ended: the replica that answered and the overlay hops it took, or why it failed.
 *
 * @param replica null when the locate failed
 * @param failure null when a replica was found
 * @param data    the replica's bytes for a read ({@code OverlayNode.read}), else null
 */
public record LocateResult(Id guid, NodeHandle replica, FailureReason failure, int hops, long elapsedNanos, byte[] data) {
    public boolean found() {
        return replica != null;
    }
}
