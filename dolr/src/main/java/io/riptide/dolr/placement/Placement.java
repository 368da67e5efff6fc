package io.riptide.dolr.placement;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.Cancellable;
import io.riptide.core.runtime.Env;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.dolr.location.LocateResult;
import io.riptide.dolr.location.LocationMessages.WhereIs;
import io.riptide.dolr.placement.PlacementMessages.FetchReplica;
import io.riptide.dolr.placement.PlacementMessages.Place;
import io.riptide.dolr.placement.PlacementMessages.Placed;
import io.riptide.dolr.placement.PlacementMessages.ReplicaData;
import io.riptide.dolr.routing.RouteForwarder;
import io.riptide.dolr.routing.RouteHandler;
import io.riptide.dolr.routing.RoutingMessages.Routed;
import io.riptide.dolr.store.ReplicaStore;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * The replica-placement primitive {@code place(guid, k)}: a request climbs k hops from the caller
 * toward the GUID's root, and the node it reaches copies the object from its nearest replica, stores
 * and publishes it, so the new replica serves the whole routing subtree below it.
 */
public final class Placement implements RouteHandler {
    /** How this node finds a replica: locate with a plain {@link WhereIs}. */
    @FunctionalInterface
    public interface Locator {
        void locate(Id guid, Consumer<LocateResult> done);
    }

    private final Env env;
    private final RouteForwarder forwarder;
    private final ReplicaStore store;
    private final Locator locator;
    private final Consumer<Id> publish;
    private final Duration deadline;
    private final Map<Long, Waiting> requests = new HashMap<>();
    private final Map<Long, BiConsumer<Boolean, byte[]>> fetches = new HashMap<>();
    private long nextId;

    private record Waiting(Consumer<PlaceResult> done, Cancellable timer) {
    }

    public Placement(Env env, RouteForwarder forwarder, ReplicaStore store, Locator locator, Consumer<Id> publish, Duration deadline) {
        this.env = env;
        this.forwarder = forwarder;
        this.store = store;
        this.locator = locator;
        this.publish = publish;
        this.deadline = deadline;
    }

    /** Places a replica of {@code guid} {@code climb} hops up its routing tree from this node. */
    public void place(Id guid, int climb, Consumer<PlaceResult> done) {
        long id = ++nextId;
        Cancellable timer = env.schedule(deadline, () -> {
            Waiting w = requests.remove(id);
            if (w != null) {
                w.done().accept(new PlaceResult(guid, false, null, -1, "no answer before the deadline"));
            }
        });
        requests.put(id, new Waiting(done, timer));
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
        locator.locate(p.guid(), result -> {
            if (!result.found()) {
                reply(p, false, hops, "no replica to copy from: " + result.failure());
                return;
            }
            fetch(result.replica(), p.guid(), (ok, data) -> {
                if (!ok) {
                    reply(p, false, hops, "the replica at " + result.replica() + " went away");
                } else if (!store.put(p.guid(), data)) {
                    reply(p, false, hops, "object larger than this node's store");
                } else {
                    publish.accept(p.guid());
                    reply(p, true, hops, "placed");
                }
            });
        });
    }

    private void fetch(NodeHandle from, Id guid, BiConsumer<Boolean, byte[]> done) {
        long id = ++nextId;
        fetches.put(id, done);
        env.schedule(deadline, () -> {
            BiConsumer<Boolean, byte[]> d = fetches.remove(id);
            if (d != null) {
                d.accept(false, null);
            }
        });
        env.send(from.address(), new FetchReplica(guid, id));
    }

    private void reply(Place p, boolean ok, int hops, String reason) {
        Placed placed = new Placed(p.requestId(), p.guid(), ok, hops, reason);
        if (p.requester().id().equals(env.self().id())) {
            onPlaced(env.self(), placed);
        } else {
            env.send(p.requester().address(), placed);
        }
    }

    /** A peer asks for a copy of a replica held here. */
    public void onFetch(NodeHandle from, FetchReplica fetch) {
        byte[] data = store.get(fetch.guid());
        env.send(from.address(), new ReplicaData(fetch.guid(), fetch.requestId(), data != null, data == null ? new byte[0] : data));
    }

    /** A copy arrived. */
    public void onReplicaData(ReplicaData data) {
        BiConsumer<Boolean, byte[]> done = fetches.remove(data.requestId());
        if (done != null) {
            done.accept(data.found(), data.data());
        }
    }

    /** The outcome of a placement this node asked for. */
    public void onPlaced(NodeHandle from, Placed placed) {
        Waiting w = requests.remove(placed.requestId());
        if (w != null) {
            w.timer().cancel();
            w.done().accept(new PlaceResult(placed.guid(), placed.ok(), placed.ok() ? from : null, placed.hops(), placed.reason()));
        }
    }
}
