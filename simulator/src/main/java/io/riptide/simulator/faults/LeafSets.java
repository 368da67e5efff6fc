package io.riptide.simulator.faults;

import io.riptide.core.id.Id;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.simulation.SimulatedOverlay;
import java.util.List;

/**
 * Leaf sets converge: once the faults have healed and the bound has passed, every live node's leaf
 * set must be exactly the live nodes nearest its ID on each side (the overlay's ground truth), at
 * every tick to the end of the run. Before that, the ticks only note how many are inexact.
 */
public final class LeafSets {
    private final Invariant invariant = new Invariant("leaf-sets-converge",
            "once the faults have healed and the bound has passed, every live node's leaf set is exactly the live nodes"
                    + " nearest its ID, at every check to the end");
    private final int half;
    private int inexactNow;
    private long lastInexactNanos = -1;

    /** Checks leaf sets of {@code half} members a side. */
    public LeafSets(int half) {
        this.half = half;
    }

    /** One tick at {@code nowNanos}; from {@code enforceFromNanos} on each live node is a check. */
    public void tick(SimulatedOverlay overlay, long nowNanos, long enforceFromNanos) {
        inexactNow = 0;
        for (int v : overlay.liveVertices()) {
            OverlayNode node = overlay.node(v);
            List<Id> truth = overlay.trueLeafSet(node.self().id(), half);
            boolean exact = node.leafSet().members().size() == truth.size() && truth.stream().allMatch(node.leafSet()::contains);
            if (!exact) {
                inexactNow++;
                lastInexactNanos = nowNanos;
            }
            if (nowNanos >= enforceFromNanos) {
                invariant.check(exact, nowNanos, () -> "vertex " + v + "'s leaf set has " + node.leafSet().members().size()
                        + " members, " + truth.stream().filter(id -> !node.leafSet().contains(id)).count()
                        + " of the " + truth.size() + " it should have missing");
            }
        }
    }

    public Invariant invariant() {
        return invariant;
    }

    /** Live nodes whose leaf set was inexact at the last tick. */
    public int inexactNow() {
        return inexactNow;
    }

    /** The last tick at which some leaf set was inexact, or -1. */
    public long lastInexactNanos() {
        return lastInexactNanos;
    }
}
