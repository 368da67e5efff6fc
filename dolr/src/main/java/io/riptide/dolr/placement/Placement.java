package io.riptide.dolr.placement;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.Env;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.runtime.PendingRequests;
import io.riptide.core.store.ContentStore;
import io.riptide.dolr.placement.PlacementMessages.Place;
import io.riptide.dolr.placement.PlacementMessages.Placed;
import io.riptide.dolr.routing.RouteForwarder;
import io.riptide.dolr.routing.RouteHandler;
import io.riptide.dolr.routing.RoutingMessages.Routed;
import java.time.Duration;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * The replica-placement primitive {@code place(guid, k)}: a request climbs k hops from the caller
 * toward the GUID's root, and the node it reaches reads the object from its nearest replica, stores
 * and publishes it, so the new replica serves the whole routing subtree below it. The copy is digest
 * first ({@link ReplicaCopier}): no body moves when the node already holds one with that digest.
 */
public final class Placement implements RouteHandler {
    private final Env env;
    private final RouteForwarder forwarder;
    private final ContentStore store;
    private final ReplicaCopier copier;
    // Publishes the new replica and ties it into the object's tree under the replica it was copied from.
    private final BiConsumer<Id, NodeHandle> placed;
    private final Duration deadline;
    private final PendingRequests<PlaceResult> requests;

    /** Placement on this node, copying into {@code store} through {@code copier}. */
    public Placement(Env env, RouteForwarder forwarder, ContentStore store, ReplicaCopier copier, BiConsumer<Id, NodeHandle> placed,
                     Duration deadline) {
        this.env = env;
        this.forwarder = forwarder;
        this.store = store;
        this.copier = copier;
        this.placed = placed;
        this.deadline = deadline;
        this.requests = new PendingRequests<>(env);
    }

    /** Places a replica of {@code guid} {@code climb} hops up its routing tree from this node. */
    public void place(Id guid, int climb, Consumer<PlaceResult> done) {
        long id = requests.add(deadline, done, () -> new PlaceResult(guid, false, null, -1, "no answer before the deadline"));
        forwarder.route(new Routed(guid, env.self(), 0, 0, new Place(guid, climb, env.self(), id)));
    }

    @Override
    public boolean onHop(Routed message, boolean atRoot) {
        Place p = (Place) message.payload();
        if (message.hops() >= p.climb() || atRoot) {
            createHere(p, message.hops());
            return false;
        }
        return true;
    }

    @Override
    public void onRoot(Routed message) {
        createHere((Place) message.payload(), message.hops());
    }

    private void createHere(Place p, int hops) {
        if (store.contains(p.guid())) {
            reply(p, true, hops, "already held");
            return;
        }
        copier.copy(p.guid(), copy -> {
            if (!copy.stored()) {
                reply(p, false, hops, copy.reason());
            } else {
                placed.accept(p.guid(), copy.source());
                reply(p, true, hops, "placed");
            }
        });
    }

    private void reply(Place p, boolean ok, int hops, String reason) {
        Placed placed = new Placed(p.requestId(), p.guid(), ok, hops, reason);
        if (p.requester().id().equals(env.self().id())) {
            onPlaced(env.self(), placed);
        } else {
            env.send(p.requester().address(), placed);
        }
    }

    /** The outcome of a placement this node asked for. */
    public void onPlaced(NodeHandle from, Placed placed) {
        requests.complete(placed.requestId(),
                new PlaceResult(placed.guid(), placed.ok(), placed.ok() ? from : null, placed.hops(), placed.reason()));
    }
}
