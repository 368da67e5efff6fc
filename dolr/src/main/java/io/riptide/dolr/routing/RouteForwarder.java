package io.riptide.dolr.routing;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.Env;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.dolr.routing.RoutingMessages.Routed;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Moves routed messages toward their key's root, one acknowledged hop at a time. Each payload type
 * has a {@link RouteHandler} that sees the message at every node; a next hop that does not
 * acknowledge is reported as suspect and the message goes another way, up to a retry bound.
 */
public final class RouteForwarder {
    private final Env env;
    private final Router router;
    private final PeerTable peers;
    private final HopSender hops;
    private final int retries;
    private final Consumer<NodeHandle> onSuspect;
    private final Map<Class<?>, RouteHandler> handlers = new HashMap<>();
    private RouteHandler fallback;
    private long dropped;

    public RouteForwarder(Env env, Router router, PeerTable peers, HopSender hops, int retries, Consumer<NodeHandle> onSuspect) {
        this.env = env;
        this.router = router;
        this.peers = peers;
        this.hops = hops;
        this.retries = retries;
        this.onSuspect = onSuspect;
    }

    /** Routes payloads of {@code type} through {@code handler}. */
    public void handle(Class<?> type, RouteHandler handler) {
        handlers.put(type, handler);
    }

    /** The handler for payload types nobody registered (the application's). */
    public void fallback(RouteHandler handler) {
        this.fallback = handler;
    }

    /** Routed messages given up after every retry failed. */
    public long dropped() {
        return dropped;
    }

    /** Takes {@code message} at this node: offers it to its handler, then forwards or delivers it. */
    public void route(Routed message) {
        route(message, Set.of());
    }

    /**
     * As {@link #route(Routed)}, but the first hop is none of {@code avoid}: a second attempt that
     * should not follow the first one's path (a hedged locate). Returns the first hop (null: this
     * node is the key's root, or no handler takes the message).
     */
    public NodeHandle route(Routed message, Set<Id> avoid) {
        RouteHandler handler = handlers.getOrDefault(message.payload().getClass(), fallback);
        if (handler == null) {
            dropped++;
            return null;
        }
        NodeHandle next = router.nextHop(message.key(), id -> excluded(id) || avoid.contains(id) || handler.bypasses(message, id),
                handler.hopChoice());
        if (!handler.onHop(message, next == null)) {
            return next;
        }
        moveOn(message, handler, next, new HashSet<>(avoid), 0);
        return next;
    }

    /** The next hop toward {@code key} from here, or null at the root. */
    public NodeHandle nextHop(Id key) {
        return router.nextHop(key, this::excluded);
    }

    private boolean excluded(Id id) {
        return peers.isDead(id, env.nowNanos());
    }

    private void moveOn(Routed message, RouteHandler handler, NodeHandle next, Set<Id> tried, int attempt) {
        if (next == null) {
            handler.onRoot(message);
            return;
        }
        long rtt = peers.distance(next.id());
        Routed onward = message.nextHop(rtt < 0 ? 0 : rtt / 2);
        hops.send(next, onward, () -> {
            onSuspect.accept(next);
            tried.add(next.id());
            if (attempt >= retries) {
                dropped++;
                return;
            }
            NodeHandle alternative = router.nextHop(message.key(),
                    id -> excluded(id) || tried.contains(id) || handler.bypasses(message, id), handler.hopChoice());
            moveOn(message, handler, alternative, tried, attempt + 1);
        });
    }
}
