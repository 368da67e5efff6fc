package io.riptide.dolr.location;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.dolr.location.LocationMessages.FailureReason;

/**
 * How a locate ended: the replica that answered and the overlay hops it took, or why it failed.
 *
 * @param replica null when the locate failed
 * @param failure null when a replica was found
 */
public record LocateResult(Id guid, NodeHandle replica, FailureReason failure, int hops, long elapsedNanos) {
    public boolean found() {
        return replica != null;
    }
}
