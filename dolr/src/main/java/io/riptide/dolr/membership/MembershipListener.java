package io.riptide.dolr.membership;

import io.riptide.core.runtime.NodeHandle;

/** What other parts of a node hear from membership: measured peers, failures, leaf-set changes. */
public interface MembershipListener {
    /** A live peer's RTT was measured (or re-measured). */
    default void onMeasured(NodeHandle peer, long rttNanos) {
    }

    /** A peer was declared failed and removed from the routing state. */
    default void onFailed(NodeHandle peer) {
    }

    /** {@code added} joined this node's leaf set. */
    default void onLeafAdded(NodeHandle added) {
    }

    /** This node finished joining the overlay. */
    default void onJoined() {
    }
}
