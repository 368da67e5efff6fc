package io.riptide.dolr.routing;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import java.util.List;
import java.util.function.Predicate;

/**
 * Chooses the next hop toward a key (Pastry's rule): inside the leaf set's range, the member
 * numerically closest to the key; otherwise a candidate of the routing-table slot that shares one
 * more digit with the key (which one: see {@link HopChoice}); failing both, any known node that
 * shares as long a prefix and is numerically closer. Returns null when this node is the key's root.
 */
public final class Router {
    /**
     * Under {@link HopChoice#NEAR_CLOSEST_TO_KEY}, a slot's candidates within this many times the
     * nearest one's RTT count as near. With ideal tables on the 10,000-node transit-stub topology,
     * choosing among them the one closest to the key takes the median delay penalty of a route from
     * 1.53 (nearest always) to 1.44 (seventh session, {@code route_p50_rdp_ideal_tables}).
     */
    static final int NEAR_ENOUGH = 2;

    private final NodeHandle self;
    private final RoutingTable table;
    private final LeafSet leafSet;

    public Router(NodeHandle self, RoutingTable table, LeafSet leafSet) {
        this.self = self;
        this.table = table;
        this.leafSet = leafSet;
    }

    /** The next hop toward {@code key} by the slots' nearest candidates, avoiding nodes {@code excluded} accepts, or null at the root. */
    public NodeHandle nextHop(Id key, Predicate<Id> excluded) {
        return nextHop(key, excluded, HopChoice.NEAREST);
    }

    /** The next hop toward {@code key} chosen as {@code choice} says, avoiding nodes {@code excluded} accepts, or null at the root. */
    public NodeHandle nextHop(Id key, Predicate<Id> excluded, HopChoice choice) {
        Id me = self.id();
        if (leafSet.covers(key)) {
            return closestInLeafSet(key, excluded);
        }
        int row = me.sharedPrefixLength(key);
        if (row >= Id.DIGITS) {
            return null;
        }
        int col = key.digit(row);
        NodeHandle chosen = null;
        long nearest = 0;
        for (int i = 0, n = table.slotSize(row, col); i < n; i++) {
            NodeHandle candidate = table.candidate(row, col, i);
            if (excluded.test(candidate.id())) {
                continue;
            }
            if (choice == HopChoice.NEAREST) {
                return candidate;
            }
            // Candidates come nearest first, so the first one not excluded sets the bar.
            long rtt = table.candidateRtt(row, col, i);
            if (chosen == null) {
                chosen = candidate;
                nearest = rtt;
            } else if (rtt <= NEAR_ENOUGH * nearest && candidate.id().closerTo(key, chosen.id())) {
                chosen = candidate;
            }
        }
        return chosen != null ? chosen : rareCase(key, row, excluded);
    }

    private NodeHandle closestInLeafSet(Id key, Predicate<Id> excluded) {
        // Both sides read in place rather than through members(), which copies them on every call. A
        // member on both sides is the same handle; meeting it twice changes nothing, since no node is
        // strictly closer than itself.
        NodeHandle best = closestIn(leafSet.rightView(), key, excluded, self);
        best = closestIn(leafSet.leftView(), key, excluded, best);
        return best == self ? null : best;
    }

    private static NodeHandle closestIn(List<NodeHandle> side, Id key, Predicate<Id> excluded, NodeHandle best) {
        for (int i = 0; i < side.size(); i++) {
            NodeHandle h = side.get(i);
            if (!excluded.test(h.id()) && h.id().closerTo(key, best.id())) {
                best = h;
            }
        }
        return best;
    }

    private NodeHandle rareCase(Id key, int row, Predicate<Id> excluded) {
        NodeHandle best = self;
        for (NodeHandle h : leafSet.members()) {
            best = better(key, row, excluded, best, h);
        }
        for (NodeHandle h : table.all()) {
            best = better(key, row, excluded, best, h);
        }
        return best == self ? null : best;
    }

    private static NodeHandle better(Id key, int row, Predicate<Id> excluded, NodeHandle best, NodeHandle h) {
        if (!excluded.test(h.id()) && h.id().sharedPrefixLength(key) >= row && h.id().closerTo(key, best.id())) {
            return h;
        }
        return best;
    }

    /** Whether this node believes it is the root of {@code key} among the nodes it knows, all live. */
    public boolean isRoot(Id key, Predicate<Id> excluded) {
        return nextHop(key, excluded) == null;
    }
}
