package io.riptide.dolr.routing;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import java.util.List;
import java.util.function.Predicate;

/**
 * Chooses the next hop toward a key (Pastry's rule): inside the leaf set's range, the member
 * numerically closest to the key; otherwise the nearest candidate of the routing-table slot that
 * shares one more digit with the key; failing both, any known node that shares as long a prefix and
 * is numerically closer. Returns null when this node is the key's root.
 */
public final class Router {
    private final NodeHandle self;
    private final RoutingTable table;
    private final LeafSet leafSet;

    public Router(NodeHandle self, RoutingTable table, LeafSet leafSet) {
        this.self = self;
        this.table = table;
        this.leafSet = leafSet;
    }

    /** The next hop toward {@code key} avoiding nodes {@code excluded} accepts, or null if this node is the root. */
    public NodeHandle nextHop(Id key, Predicate<Id> excluded) {
        Id me = self.id();
        if (leafSet.covers(key)) {
            return closestInLeafSet(key, excluded);
        }
        int row = me.sharedPrefixLength(key);
        if (row >= Id.DIGITS) {
            return null;
        }
        int col = key.digit(row);
        for (int i = 0, n = table.slotSize(row, col); i < n; i++) {
            NodeHandle candidate = table.candidate(row, col, i);
            if (!excluded.test(candidate.id())) {
                return candidate;
            }
        }
        return rareCase(key, row, excluded);
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
