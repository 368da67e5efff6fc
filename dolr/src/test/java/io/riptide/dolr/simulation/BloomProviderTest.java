package io.riptide.dolr.simulation;

import static io.riptide.dolr.simulation.OverlayFixture.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.bloom.LocalArea;
import io.riptide.dolr.location.LocateResult;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Providers: a nearby node outside a reader's nearest that serves its reads (a stub's cache manager
 * node) is kept in the reader's local area, so later Bloom hits on it take one hop, not two or three.
 */
class BloomProviderTest {
    private static final int NODES = 400;
    private static final int GROUPS = 4;
    private static final int HOLDER = 16; // group 0

    @Test
    void aNearbyNodeThatServedAReadIsReachedInOneHopAfterwards() {
        SimulatedOverlay overlay = OverlayFixture.settled(21, NODES, GROUPS);
        run(overlay, Duration.ofSeconds(60));
        OverlayNode holder = overlay.node(HOLDER);
        Id first = Id.hash("provider-first");
        holder.storeReplica(first, new byte[] {1, 2, 3});
        run(overlay, Duration.ofSeconds(5)); // pushed through every level of the local areas

        int reader = readerReachingThroughANeighbour(overlay, first);
        LocateResult before = read(overlay, reader, first);
        assertTrue(before.found());
        assertEquals(holder.self().id(), before.replica().id());
        assertTrue(before.hops() >= 2, "found through a neighbour first: " + before.hops() + " hops");
        run(overlay, Duration.ofSeconds(2)); // measured, and its filter pulled

        LocalArea area = overlay.node(reader).localArea();
        assertTrue(area.providers().contains(holder.self()), "kept as a provider: " + area.providers());
        assertFalse(area.neighbours().contains(holder.self()), "not one of the nearest");
        Id second = Id.hash("provider-second");
        holder.storeReplica(second, new byte[] {4, 5, 6});
        run(overlay, Duration.ofSeconds(3));
        LocateResult after = read(overlay, reader, second);
        assertTrue(after.found());
        assertEquals(holder.self().id(), after.replica().id());
        assertEquals(1, after.hops(), "straight to the provider");
        assertTrue(after.elapsedNanos() < before.elapsedNanos(), after.elapsedNanos() + " ns after, " + before.elapsedNanos()
                + " ns before");
    }

    @Test
    void aReplicaFarAwayIsNotKeptAndAQuietProviderIsLetGo() {
        SimulatedOverlay overlay = OverlayFixture.settled(22, NODES, GROUPS);
        run(overlay, Duration.ofSeconds(60));
        OverlayNode holder = overlay.node(HOLDER);
        Id near = Id.hash("provider-near");
        holder.storeReplica(near, new byte[] {1});
        // Only copy in another group: found through the overlay, from afar.
        int far = HOLDER + 1; // group 1
        Id distant = Id.hash("provider-distant");
        overlay.node(far).storeReplica(distant, new byte[] {2});
        run(overlay, Duration.ofSeconds(5));
        int reader = readerReachingThroughANeighbour(overlay, near);

        assertTrue(read(overlay, reader, distant).found());
        assertTrue(read(overlay, reader, near).found());
        run(overlay, Duration.ofSeconds(2));
        List<NodeHandle> providers = overlay.node(reader).localArea().providers();
        assertFalse(providers.contains(overlay.node(far).self()), "a node of another group is not local: " + providers);
        assertTrue(providers.contains(holder.self()));

        // Ten refresh periods without serving: let go.
        run(overlay, holder.config().bloomRefresh().multipliedBy(12));
        assertFalse(overlay.node(reader).localArea().providers().contains(holder.self()));
    }

    /** A node of the holder's group whose filters lead to {@code guid} through a neighbour, not straight. */
    private static int readerReachingThroughANeighbour(SimulatedOverlay overlay, Id guid) {
        NodeHandle holder = overlay.node(HOLDER).self();
        int levels = overlay.node(HOLDER).config().bloomLevels() - 1;
        for (int v = 0; v < NODES; v += GROUPS) { // group 0: vertices congruent to HOLDER's modulo GROUPS
            if (v == HOLDER) {
                continue;
            }
            LocalArea area = overlay.node(v).localArea();
            List<LocalArea.Match> m = area.matches(guid, levels, id -> false);
            if (!area.neighbours().contains(holder) && !m.isEmpty() && m.get(0).level() >= 2) {
                return v;
            }
        }
        throw new AssertionError("no node of the holder's group reaches it through a neighbour");
    }

    private static LocateResult read(SimulatedOverlay overlay, int vertex, Id guid) {
        LocateResult[] out = new LocateResult[1];
        overlay.node(vertex).read(guid, 16, true, r -> out[0] = r);
        run(overlay, Duration.ofSeconds(4));
        assertNotNull(out[0], "answered");
        return out[0];
    }
}
