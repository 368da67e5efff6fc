package io.riptide.dolr.routing;

import io.riptide.dolr.routing.RoutingMessages.Routed;

/** What a protocol does with its routed messages at each node they pass and at the key's root. */
public interface RouteHandler {
    /**
     * The message is at this node (its origin or a hop on the way), about to move on or, if
     * {@code atRoot}, to be delivered here. Returns false to stop it here (the handler took it).
     */
    boolean onHop(Routed message, boolean atRoot);

    /** The message reached the root of its key: this node. */
    void onRoot(Routed message);

    /**
     * How this protocol's messages pick each hop. The default keeps routes toward one key from
     * nearby nodes on the same primaries (location's pointers depend on it); a protocol whose
     * messages only need to reach the root may take the shorter path.
     */
    default HopChoice hopChoice() {
        return HopChoice.NEAREST;
    }

    /**
     * Whether {@code message} must not go to the node with ID {@code id}, though it may be nearest
     * its key: the default, never. A join is not routed to the joiner itself (see {@code Membership}).
     */
    default boolean bypasses(Routed message, io.riptide.core.id.Id id) {
        return false;
    }
}
