package io.riptide.dolr.routing;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The nodes with IDs nearest this node's on each side of the ring. The leaf set decides which node
 * is a key's root (the live node numerically closest to it) and is what repair leans on first.
 * In a network smaller than the leaf set, both sides hold everyone.
 */
public final class LeafSet {
    private final Id self;
    private final int half;
    // Nearest first. right: clockwise successors; left: counter-clockwise predecessors.
    private final List<NodeHandle> right = new ArrayList<>();
    private final List<NodeHandle> left = new ArrayList<>();
    // Read-only windows on the sides for the router's last hop, which runs per routed message and
    // should not copy the sides as right() and left() do.
    private final List<NodeHandle> rightView = Collections.unmodifiableList(right);
    private final List<NodeHandle> leftView = Collections.unmodifiableList(left);

    public LeafSet(Id self, int half) {
        this.self = self;
        this.half = half;
    }

    public Id self() {
        return self;
    }

    /** Offers a node; returns true if either side changed. */
    public boolean add(NodeHandle node) {
        if (node.id().equals(self)) {
            return false;
        }
        boolean changed = insert(right, node, self.clockwiseTo(node.id()), true);
        changed |= insert(left, node, node.id().clockwiseTo(self), false);
        return changed;
    }

    private boolean insert(List<NodeHandle> side, NodeHandle node, Id distance, boolean clockwise) {
        for (int i = 0; i < side.size(); i++) {
            if (side.get(i).id().equals(node.id())) {
                if (side.get(i).equals(node)) {
                    return false;
                }
                side.set(i, node); // same node, new address
                return true;
            }
        }
        int pos = side.size();
        for (int i = 0; i < side.size(); i++) {
            Id d = clockwise ? self.clockwiseTo(side.get(i).id()) : side.get(i).id().clockwiseTo(self);
            if (distance.compareTo(d) < 0) {
                pos = i;
                break;
            }
        }
        if (pos >= half) {
            return false;
        }
        side.add(pos, node);
        if (side.size() > half) {
            side.remove(side.size() - 1);
        }
        return true;
    }

    /** Whether {@link #add} would take a node with {@code id} (it is new and nearer than a side's farthest). */
    public boolean wouldAccept(Id id) {
        if (id.equals(self) || contains(id)) {
            return false;
        }
        if (right.size() < half || left.size() < half) {
            return true;
        }
        return self.compareClockwiseDistance(id, rightEdge().id()) < 0
                || self.compareCounterClockwiseDistance(id, leftEdge().id()) < 0;
    }

    /** Removes the node with {@code id}; returns true if it was a member. */
    public boolean remove(Id id) {
        boolean r = right.removeIf(h -> h.id().equals(id));
        boolean l = left.removeIf(h -> h.id().equals(id));
        return r || l;
    }

    public boolean contains(Id id) {
        for (NodeHandle h : right) {
            if (h.id().equals(id)) {
                return true;
            }
        }
        for (NodeHandle h : left) {
            if (h.id().equals(id)) {
                return true;
            }
        }
        return false;
    }

    /** Clockwise neighbours, nearest first. */
    public List<NodeHandle> right() {
        return List.copyOf(right);
    }

    /** Counter-clockwise neighbours, nearest first. */
    public List<NodeHandle> left() {
        return List.copyOf(left);
    }

    /** Every member once. */
    public List<NodeHandle> members() {
        Set<NodeHandle> all = new LinkedHashSet<>(right);
        all.addAll(left);
        return new ArrayList<>(all);
    }

    /**
     * The clockwise side, nearest first, as a live read-only view (no copy). A member may also be on
     * the other side, as the same handle.
     */
    List<NodeHandle> rightView() {
        return rightView;
    }

    /** The counter-clockwise side, nearest first, as a live read-only view (no copy). */
    List<NodeHandle> leftView() {
        return leftView;
    }

    public int size() {
        return members().size();
    }

    /** Whether both sides are full, i.e. the network is larger than the leaf set. */
    public boolean isFull() {
        return right.size() == half && left.size() == half;
    }

    /**
     * Whether {@code key} falls within the range the leaf set spans, so that its root is this node or
     * one of the members. A leaf set that is not full is taken to know the whole (small) network.
     */
    public boolean covers(Id key) {
        if (!isFull()) {
            return true;
        }
        return self.compareClockwiseDistance(key, right.get(right.size() - 1).id()) <= 0
                || self.compareCounterClockwiseDistance(key, left.get(left.size() - 1).id()) <= 0;
    }

    /** The farthest member on the clockwise side, or null. */
    public NodeHandle rightEdge() {
        return right.isEmpty() ? null : right.get(right.size() - 1);
    }

    /** The farthest member on the counter-clockwise side, or null. */
    public NodeHandle leftEdge() {
        return left.isEmpty() ? null : left.get(left.size() - 1);
    }
}
