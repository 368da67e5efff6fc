package io.riptide.cachemanager.replicas;

import io.riptide.cachemanager.CacheManagerConfig;
import io.riptide.core.hint.HintMessages.LatencyHint;
import io.riptide.core.id.Id;
import io.riptide.core.throttle.Throttle;
import io.riptide.dolr.OverlayNode;

/**
 * Slow hits become replicas near the users who saw them (paper, section 4.3): on the manager's own
 * node, or k hops up the object's routing tree so the replica serves the whole subtree below it.
 * One placement per object per window: the hints of many users of one slow object cause one replica.
 */
public final class SlowHits {
    private final OverlayNode node;
    private final CacheManagerConfig config;
    private final Throttle<Id> placed;
    private long replicasMade;
    private long failures;

    public SlowHits(OverlayNode node, CacheManagerConfig config) {
        this.node = node;
        this.config = config;
        this.placed = Throttle.oncePer(config.placeWindow(), config.maxTracked());
    }

    /** A proxy's latency hint: acts if the hit was slow. */
    public void onLatency(LatencyHint hint) {
        boolean slow = hint.hops() >= config.slowHops() || hint.latencyMicros() >= config.slowMicros();
        if (!slow || node.replicas().contains(hint.guid()) || !placed.admit(hint.guid(), node.env().nowNanos())) {
            return;
        }
        if (config.placement() == PlacementPolicy.LOCAL) {
            placeLocally(hint.guid());
        } else {
            node.place(hint.guid(), climbFor(hint.hops()), r -> count(r.ok()));
        }
    }

    /**
     * The climb for a hint that saw {@code hops}: as configured (one hop when 0, the paper's Figure
     * 11(b)), and below where the slow read found its copy, or the replica adds nothing. Deriving it
     * as one hop short of that copy put the replica beside the far copy, outside the campus it was
     * for (flash-crowd seed 3: two hops up, in another stub, serving nobody).
     */
    int climbFor(int hops) {
        int wanted = config.climb() > 0 ? config.climb() : 1;
        return Math.max(1, Math.min(wanted, hops - 1));
    }

    private void placeLocally(Id guid) {
        LocalCopy.make(node, guid, this::count);
    }

    private void count(boolean ok) {
        if (ok) {
            replicasMade++;
        } else {
            failures++;
        }
    }

    /** Replicas this manager created for slow hits. */
    public long replicasMade() {
        return replicasMade;
    }

    /** Placements that failed (no replica to copy, no room, no answer). */
    public long failures() {
        return failures;
    }
}
