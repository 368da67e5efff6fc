package io.riptide.dolr.placement;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.Env;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.runtime.PendingRequests;
import io.riptide.core.store.ContentStore;
import io.riptide.dolr.placement.PlacementMessages.Replicate;
import io.riptide.dolr.placement.PlacementMessages.Replicated;
import io.riptide.dolr.placement.PlacementMessages.Retire;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Replicas on chosen nodes: {@code replicateTo(target, guid)} asks a node (which need run no agent)
 * to copy an object from its nearest replica and hold it; {@code retireAt(target, guid)} asks it to
 * drop that replica again. A node only drops what it copied at the same requester's asking, so one
 * node cannot make another discard replicas it holds for anyone else.
 */
public final class Replication {
    /** The reason of a refusal because a node named as a holder is in the target's local area. */
    public static final String HELD_NEARBY = "a copy is held nearby";

    private final Env env;
    private final ContentStore store;
    private final ReplicaCopier copier;
    private final BiConsumer<Id, NodeHandle> copied;
    private final Consumer<Id> drop;
    private final NearbyCopies nearby;
    private final Duration deadline;
    private final int maxRemembered;
    private final PendingRequests<PlaceResult> requests;
    // Who asked for each replica copied here (insertion order: the oldest is forgotten first).
    private final Map<Id, Id> askedBy = new LinkedHashMap<>();

    /** Replication on this node, copying into {@code store} through {@code copier} (digest first). */
    public Replication(Env env, ContentStore store, ReplicaCopier copier, BiConsumer<Id, NodeHandle> copied, Consumer<Id> drop,
                       NearbyCopies nearby, Duration deadline, int maxRemembered) {
        this.env = env;
        this.store = store;
        this.copier = copier;
        this.copied = copied;
        this.drop = drop;
        this.nearby = nearby;
        this.deadline = deadline;
        this.maxRemembered = maxRemembered;
        this.requests = new PendingRequests<>(env);
    }

    /**
     * Asks {@code target} to copy {@code guid} from its nearest replica and hold it, unless one of
     * {@code holders} is in its local area (then the answer is not ok, with reason {@link #HELD_NEARBY});
     * {@code done} hears how it went.
     */
    public void replicateTo(NodeHandle target, Id guid, List<NodeHandle> holders, Consumer<PlaceResult> done) {
        long id = requests.add(deadline, done, () -> new PlaceResult(guid, false, null, -1, "no answer before the deadline"));
        Replicate r = new Replicate(guid, id, holders);
        if (target.id().equals(env.self().id())) {
            onReplicate(env.self(), r);
        } else {
            env.send(target.address(), r);
        }
    }

    /** Asks {@code target} to drop the replica of {@code guid} it copied at this node's asking. */
    public void retireAt(NodeHandle target, Id guid) {
        if (target.id().equals(env.self().id())) {
            onRetire(env.self(), new Retire(guid));
        } else {
            env.send(target.address(), new Retire(guid));
        }
    }

    /** Another node asks this one to hold a replica. */
    public void onReplicate(NodeHandle from, Replicate r) {
        if (store.contains(r.guid())) {
            reply(from, r, true, "already held");
            return;
        }
        if (r.holders().isEmpty()) {
            copy(from, r);
            return;
        }
        // A copy in this node's local area serves its users about as well: the asker places its copies
        // one at a time, naming those made, so one stub does not get them all while the next gets none.
        nearby.anyNear(r.holders(), near -> {
            if (near != null) {
                reply(from, r, false, HELD_NEARBY);
            } else if (store.contains(r.guid())) {
                reply(from, r, true, "already held");
            } else {
                copy(from, r);
            }
        });
    }

    private void copy(NodeHandle from, Replicate r) {
        copier.copy(r.guid(), copy -> {
            if (!copy.stored()) {
                reply(from, r, false, copy.reason());
            } else {
                copied.accept(r.guid(), copy.source()); // publish, and join the tree under the copy's source
                remember(r.guid(), from.id());
                reply(from, r, true, "replicated");
            }
        });
    }

    private void remember(Id guid, Id requester) {
        askedBy.remove(guid);
        askedBy.put(guid, requester);
        var it = askedBy.keySet().iterator();
        while (askedBy.size() > maxRemembered && it.hasNext()) {
            it.next();
            it.remove(); // forgotten: that replica just stays until evicted, which is always safe
        }
    }

    /** Another node asks this one to drop a replica: honoured only for the node that asked for it. */
    public void onRetire(NodeHandle from, Retire r) {
        if (from.id().equals(askedBy.get(r.guid()))) {
            askedBy.remove(r.guid());
            drop.accept(r.guid());
        }
    }

    /** The replica of {@code guid} left this node some other way: no requester may retire a later copy. */
    public void forget(Id guid) {
        askedBy.remove(guid);
    }

    private void reply(NodeHandle to, Replicate r, boolean ok, String reason) {
        Replicated answer = new Replicated(r.requestId(), r.guid(), ok, reason);
        if (to.id().equals(env.self().id())) {
            onReplicated(env.self(), answer);
        } else {
            env.send(to.address(), answer);
        }
    }

    /** The outcome of a replication this node asked for. */
    public void onReplicated(NodeHandle from, Replicated answer) {
        requests.complete(answer.requestId(),
                new PlaceResult(answer.guid(), answer.ok(), answer.ok() ? from : null, 0, answer.reason()));
    }
}
