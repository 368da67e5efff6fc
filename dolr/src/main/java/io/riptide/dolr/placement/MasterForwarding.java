package io.riptide.dolr.placement;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.Env;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.store.ContentStore;
import io.riptide.dolr.bloom.LocalArea;
import io.riptide.dolr.placement.PlacementMessages.ForwardedReplica;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.BiPredicate;

/**
 * The second half of the cooperative-caching rule (N-chance forwarding, Dahlin et al. 1994): when a
 * node's store evicts the neighbourhood's last copy of an object (its "master": no local-area
 * neighbour's filter claims it), the node sends the replica to a local-area neighbour chosen at random
 * instead of dropping it, so a full node does not push objects out of the stub while its neighbours
 * have room. The neighbour keeps it as an ordinary replica (stored and published) only if that evicts
 * none of its own masters, and a master evicted while a forwarded copy is being stored is never
 * forwarded itself: a forward never starts a cascade. A forwarded copy is forwarded again on its own
 * eviction only while it has been forwarded fewer than {@link #MAX_PASSES} times (a read does not
 * reset the count, as it does in N-chance: the count lives here, reads are served elsewhere).
 *
 * <p>Only stores that can hand over an evicted replica's bytes forward (the in-memory one); a disk
 * store evicts without them, but takes forwarded copies as any replica.
 */
public final class MasterForwarding {
    /** Forwards per copy: N-chance's N = 2 gives an evicted master two more lifetimes in the stub, then lets it go. */
    public static final int MAX_PASSES = 2;

    /**
     * What forwarding did at this node: masters it {@code forwarded}; forwarded copies it
     * {@code accepted} or {@code declined} (no room without evicting a master of its own, or already
     * held); masters it evicted and {@code droppedAtBound}: forwarded {@link #MAX_PASSES} times
     * already, or pushed out while a forwarded copy was being stored.
     */
    public record Stats(long forwarded, long accepted, long declined, long droppedAtBound) {
    }

    private final Env env;
    private final LocalArea localArea;
    private final ContentStore store;
    private final BiPredicate<Id, byte[]> storeReplica;
    private final BiConsumer<Id, NodeHandle> joinTree;
    // Copies held here that arrived by forwarding: how many times each had been forwarded.
    private final Map<Id, Integer> passes = new HashMap<>();
    private boolean storingForwarded;
    private long forwarded;
    private long accepted;
    private long declined;
    private long droppedAtBound;

    /**
     * Forwarding for the node whose replicas are in {@code store}; {@code storeReplica} stores and
     * publishes a replica the way the node stores any other (false if it does not fit);
     * {@code joinTree} attaches a kept copy under the given member of the object's dissemination tree.
     */
    public MasterForwarding(Env env, LocalArea localArea, ContentStore store, BiPredicate<Id, byte[]> storeReplica,
            BiConsumer<Id, NodeHandle> joinTree) {
        this.env = env;
        this.localArea = localArea;
        this.store = store;
        this.storeReplica = storeReplica;
        this.joinTree = joinTree;
    }

    /**
     * {@code guid} left the store to make room; {@code replica} is its bytes (null if the store could
     * not hand them over), {@code master} whether it was the neighbourhood's last copy,
     * {@code treeParent} this node's parent in the object's tree (null if none), which the copy's
     * new holder attaches to: a forwarded copy outside the tree would miss every update.
     */
    public void evicted(Id guid, byte[] replica, boolean master, NodeHandle treeParent) {
        Integer before = passes.remove(guid);
        if (!master || replica == null) {
            return;
        }
        int sofar = before == null ? 0 : before;
        if (storingForwarded || sofar >= MAX_PASSES) {
            droppedAtBound++;
            return;
        }
        List<NodeHandle> targets = localArea.neighboursWithout(guid);
        if (targets.isEmpty()) {
            return; // no local area yet: nowhere to keep it
        }
        NodeHandle to = targets.get(env.random().nextInt(targets.size()));
        env.send(to.address(), new ForwardedReplica(guid, sofar + 1, replica, treeParent == null ? List.of() : List.of(treeParent)));
        forwarded++;
    }

    /** The replica of {@code guid} left the store otherwise (dropped on request): it is no forwarded copy any more. */
    public void forget(Id guid) {
        passes.remove(guid);
    }

    /** A neighbour forwards the last copy it evicted: kept if that costs none of this node's own masters. */
    public void onForwarded(NodeHandle from, ForwardedReplica m) {
        if (store.contains(m.guid()) || !store.roomSparing(m.data())) {
            declined++;
            return;
        }
        boolean stored;
        storingForwarded = true;
        try {
            stored = storeReplica.test(m.guid(), m.data());
        } finally {
            storingForwarded = false;
        }
        if (!stored) {
            declined++;
            return;
        }
        passes.put(m.guid(), Math.max(1, m.passes())); // a sender cannot reset the chain below one pass
        accepted++;
        if (!m.treeParent().isEmpty()) {
            joinTree.accept(m.guid(), m.treeParent().get(0));
        }
    }

    public Stats stats() {
        return new Stats(forwarded, accepted, declined, droppedAtBound);
    }
}
