package io.riptide.dolr;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.wire.WireMessage;
import io.riptide.dolr.location.ObjectHandler;
import io.riptide.dolr.routing.HopChoice;

/**
 * The upcalls an agent running on an overlay node receives, after the common API for structured
 * overlays: {@code deliver} at a key's root, {@code forward} at each hop on the way, requests for
 * objects this node holds, and messages sent to it directly.
 */
public interface OverlayApplication extends ObjectHandler {
    /** This node finished joining the overlay: a good moment to offer services and publish. */
    default void onJoined() {
    }

    /** A message routed with {@link OverlayNode#route} arrived at the root of {@code key}: this node. */
    default void deliver(Id key, WireMessage payload, NodeHandle origin, int hops) {
    }

    /**
     * How this application's routed messages pick each hop. By default they take the shorter path to
     * the root ({@link HopChoice#NEAR_CLOSEST_TO_KEY}); an application whose {@link #forward} builds
     * on routes from nearby nodes meeting early (a Scribe-like tree, a cache on the path) returns
     * {@link HopChoice#NEAREST}, the rule the overlay's own location uses.
     */
    default HopChoice hopChoice() {
        return HopChoice.NEAR_CLOSEST_TO_KEY;
    }

    /** A routed message passes this node toward {@code key}; return false to stop it here. */
    default boolean forward(Id key, WireMessage payload, NodeHandle origin, int hops) {
        return true;
    }

    @Override
    default void deliverToObject(Id guid, WireMessage payload, NodeHandle requester, long requestId, int hops) {
    }

    /** A message for the application sent straight to this node (for example an answer to a request). */
    default void onMessage(NodeHandle from, WireMessage message) {
    }

    /** An application that does nothing: a plain storage and routing node. */
    OverlayApplication NONE = new OverlayApplication() {
    };
}
