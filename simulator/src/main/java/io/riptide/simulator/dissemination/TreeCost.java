package io.riptide.simulator.dissemination;

import io.riptide.simulator.topology.TransitStubTopology;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What pushing one update down a dissemination tree costs on the interdomain links, beside the
 * optimum and beside every replica fetching from the root directly.
 *
 * <p>The interdomain links are the stub–transit uplinks: in a transit-stub topology every path
 * between two stubs leaves the first over its uplink and enters the second over its uplink, and a
 * path within a stub uses none. So a message between two hosts crosses 2 uplinks if they are in
 * different stubs and 0 otherwise, and
 * <ul>
 *   <li>{@code crossings} = 2 × (tree edges whose parent and child are in different stubs);
 *   <li>{@code optimal} = 2 × (stubs holding a member, other than the root's stub): a tree must enter
 *       each such stub at least once, each entry is an edge from another stub, and one entry per stub
 *       is enough (the rest of the stub's replicas hang off the first one inside the stub) — the
 *       paper's "one interdomain link for each stub that contains a replica", counted in the same
 *       uplink crossings as the tree;
 *   <li>{@code direct} = 2 × (replicas outside the root's stub): each fetching from the root itself.
 * </ul>
 * {@code ratio} = crossings / optimal, and 1 when both are 0 (every replica in the root's stub).
 */
public record TreeCost(int replicas, int memberStubs, int interStubEdges, int crossings, int optimal, int direct) {

    /** The cost of the tree with {@code edges} rooted at {@code root} over {@code members} (root included). */
    public static TreeCost of(TransitStubTopology topology, int root, List<Integer> members, List<TreeEdge> edges) {
        int rootStub = topology.stubOf(root);
        Set<Integer> stubs = new HashSet<>();
        int outside = 0;
        for (int m : members) {
            stubs.add(topology.stubOf(m));
            if (m != root && topology.stubOf(m) != rootStub) {
                outside++;
            }
        }
        stubs.add(rootStub);
        int inter = 0;
        for (TreeEdge e : edges) {
            if (!topology.sameStub(e.parent(), e.child())) {
                inter++;
            }
        }
        int replicas = (int) members.stream().filter(m -> m != root).count();
        return new TreeCost(replicas, stubs.size(), inter, 2 * inter, 2 * (stubs.size() - 1), 2 * outside);
    }

    /** Crossings over the optimum; 1 when both are 0. */
    public double ratio() {
        if (optimal == 0) {
            return crossings == 0 ? 1.0 : Double.POSITIVE_INFINITY;
        }
        return crossings / (double) optimal;
    }
}
