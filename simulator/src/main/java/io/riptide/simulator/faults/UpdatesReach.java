package io.riptide.simulator.faults;

import io.riptide.core.id.Id;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.dissemination.TreeView;
import io.riptide.dolr.simulation.SimulatedOverlay;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Updates reach every live replica in a tree: each tick, the newest version any live gateway holds
 * of each watched object is noted; once the faults have healed, every live member of the object's
 * dissemination tree (a node whose tree view has a parent) must hold, by now, at least the version
 * the gateways held one bound ago. A member still looking for a new parent after its own crashed
 * counts: repairing the tree within the bound is part of the promise. Nodes that hold a copy but
 * belong to no tree (a node restarted on its disk keeps its replicas, not its tree) are counted
 * apart, as {@link #outsideTrees}, not as violations: the tree cannot reach what is not in it.
 */
public final class UpdatesReach {
    private final Invariant invariant = new Invariant("updates-reach-replicas",
            "once the faults have healed, every live replica attached to an object's dissemination tree holds, within the"
                    + " bound, every version a gateway held the bound before");
    private final Map<Id, String> names;
    private final long boundNanos;
    /** Per object: the newest version a live gateway held, by tick time. */
    private final Map<Id, TreeMap<Long, Long>> newest = new HashMap<>();
    private long worstLagNanos;
    private int behindNow;

    /** Watches the objects {@code names} lists, each update due at every member within {@code boundNanos}. */
    public UpdatesReach(Map<Id, String> names, long boundNanos) {
        this.names = Map.copyOf(names);
        this.boundNanos = boundNanos;
    }

    /**
     * One tick at {@code nowNanos}: notes what {@code gateways} (those live) hold, and from
     * {@code enforceFromNanos} on checks the members of each tree.
     */
    public void tick(SimulatedOverlay overlay, List<Integer> gateways, long nowNanos, long enforceFromNanos) {
        behindNow = 0;
        List<Integer> live = overlay.liveVertices();
        for (Id guid : names.keySet()) {
            long held = -1;
            for (int g : gateways) {
                if (overlay.isAlive(g)) {
                    held = Math.max(held, versionAt(overlay.node(g), guid));
                }
            }
            TreeMap<Long, Long> history = newest.computeIfAbsent(guid, k -> new TreeMap<>());
            history.put(nowNanos, held);
            if (nowNanos < enforceFromNanos) {
                continue;
            }
            Map.Entry<Long, Long> due = history.floorEntry(nowNanos - boundNanos);
            long required = due == null ? -1 : due.getValue();
            for (int v : live) {
                OverlayNode node = overlay.node(v);
                TreeView view = node.treeOf(guid);
                if (view == null || view.root() || view.parent() == null) {
                    continue;
                }
                long has = versionAt(node, guid);
                if (has < held) {
                    behindNow++;
                    worstLagNanos = Math.max(worstLagNanos, lagNanos(history, has, nowNanos));
                }
                invariant.check(has >= required, nowNanos, () -> "vertex " + v + " (parent vertex "
                        + view.parent().address().port() + ") holds " + names.get(guid) + " version " + has
                        + ", but a gateway held version " + required + " " + boundNanos / 1_000_000_000L + " s before");
            }
        }
    }

    /** How long ago the gateways first held something newer than {@code has}. */
    private static long lagNanos(TreeMap<Long, Long> history, long has, long nowNanos) {
        for (Map.Entry<Long, Long> e : history.entrySet()) {
            if (e.getValue() > has) {
                return nowNanos - e.getKey();
            }
        }
        return 0;
    }

    /** The version of {@code guid}'s copy {@code node} holds, or -1. */
    static long versionAt(OverlayNode node, Id guid) {
        HeldCopy copy = HeldCopy.of(node.replicas().peek(guid));
        return copy == null ? -1 : copy.version();
    }

    /**
     * Live nodes holding a copy of a watched object older than the newest a live gateway holds while
     * belonging to no tree of it: out of reach of updates (the tree does not know them).
     */
    public int outsideTrees(SimulatedOverlay overlay, List<Integer> gateways) {
        int count = 0;
        for (Id guid : names.keySet()) {
            long newestHeld = -1;
            for (int g : gateways) {
                if (overlay.isAlive(g)) {
                    newestHeld = Math.max(newestHeld, versionAt(overlay.node(g), guid));
                }
            }
            for (int v : overlay.liveVertices()) {
                OverlayNode node = overlay.node(v);
                long has = versionAt(node, guid);
                TreeView view = node.treeOf(guid);
                if (has >= 0 && has < newestHeld && (view == null || (!view.root() && view.parent() == null))) {
                    count++;
                }
            }
        }
        return count;
    }

    public Invariant invariant() {
        return invariant;
    }

    /** Members behind the gateways' newest version at the last tick (in all trees). */
    public int behindNow() {
        return behindNow;
    }

    /** The longest any member was seen behind the gateways after enforcement began, in nanoseconds. */
    public long worstLagNanos() {
        return worstLagNanos;
    }
}
