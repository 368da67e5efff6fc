package io.riptide.simulator.dissemination;

import io.riptide.core.id.Id;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.dissemination.TreeView;
import io.riptide.dolr.simulation.SimulatedOverlay;
import io.riptide.simulator.topology.TransitStubTopology;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One object's dissemination tree grown in a simulated overlay: the primary copy at the root, then
 * replicas added one at a time, each reading the object from the nearest replica the overlay finds
 * for it, storing it, and attaching to that replica as its child.
 */
public final class TreeGrowth {
    private final SimulatedOverlay overlay;
    private final TransitStubTopology topology;
    private final Id guid;
    private final int root;
    private final int ttl;
    private final List<Integer> members = new ArrayList<>();
    private final Set<Integer> memberSet = new HashSet<>();
    private final Set<Integer> holders = new HashSet<>();
    private int failedCopies;
    private int localParentMissed;

    /** Stores {@code data} as the primary copy of {@code guid} at {@code root} and makes it the tree's root. */
    public TreeGrowth(SimulatedOverlay overlay, TransitStubTopology topology, Id guid, int root, byte[] data, long stamp, int ttl) {
        this.overlay = overlay;
        this.topology = topology;
        this.guid = guid;
        this.root = root;
        this.ttl = ttl;
        OverlayNode node = overlay.node(root);
        node.storeReplica(guid, data);
        node.startTree(guid, stamp);
        members.add(root);
        memberSet.add(root);
        holders.add(root);
    }

    /** Whether {@code vertex} is the root or has been asked to hold a replica. */
    public boolean isMember(int vertex) {
        return memberSet.contains(vertex);
    }

    /** Starts making a replica at {@code vertex}: read the nearest replica, store it, attach to it. */
    public void add(int vertex) {
        if (!memberSet.add(vertex)) {
            throw new IllegalArgumentException("vertex " + vertex + " is already a member");
        }
        members.add(vertex);
        OverlayNode node = overlay.node(vertex);
        node.read(guid, ttl, r -> {
            if (!r.found() || r.data() == null || !node.storeReplica(guid, r.data())) {
                failedCopies++;
                return;
            }
            int from = r.replica().address().port();
            // Diagnostic: the copy came from another stub although a replica already sat in this one.
            if (!topology.sameStub(from, vertex) && holders.stream().anyMatch(h -> topology.sameStub(h, vertex))) {
                localParentMissed++;
            }
            holders.add(vertex);
            node.joinTree(guid, r.replica());
        });
    }

    /** The root and every replica asked for, in the order added. */
    public List<Integer> members() {
        return List.copyOf(members);
    }

    /** The root's vertex. */
    public int root() {
        return root;
    }

    /** The tree as it stands: each attached replica's edge from its parent. */
    public List<TreeEdge> edges() {
        List<TreeEdge> out = new ArrayList<>();
        for (int m : members) {
            TreeView view = overlay.node(m).treeOf(guid);
            if (m != root && view != null && view.parent() != null) {
                out.add(new TreeEdge(view.parent().address().port(), m));
            }
        }
        return out;
    }

    /** Replicas not attached to a parent (yet, or ever). */
    public int unattached() {
        return members.size() - 1 - edges().size();
    }

    /** Replicas whose copy failed (no replica found, or no room). */
    public int failedCopies() {
        return failedCopies;
    }

    /** Replicas that copied from another stub although their own stub already held a replica. */
    public int localParentMissed() {
        return localParentMissed;
    }

    /** At the root: publishes new content, to be pushed down the tree. */
    public boolean publishUpdate(byte[] data, long stamp) {
        return overlay.node(root).publishUpdate(guid, data, stamp);
    }

    /** Members (root included) whose stored copy is exactly {@code data}. */
    public int holding(byte[] data) {
        int n = 0;
        for (int m : members) {
            if (Arrays.equals(overlay.node(m).replicas().get(guid).join(), data)) {
                n++;
            }
        }
        return n;
    }
}
