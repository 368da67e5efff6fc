package io.riptide.dolr.simulation;

import static io.riptide.dolr.simulation.OverlayFixture.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.dolr.location.LocateResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Local areas form in both directions: a node that pulls filters from a peer is measured by it, so a
 * node no routing state happened to measure still enters its nearest peers' local areas, and what it
 * holds shows in their filters.
 */
class LocalAreaDiscoveryTest {
    /** Groups of 100, as in a transit-stub stub: larger than a routing table's share of them. */
    private static final int NODES = 400;
    private static final int GROUPS = 4;

    @Test
    void everyNodeIsInSomeNodesLocalArea() {
        SimulatedOverlay overlay = OverlayFixture.settled(4, NODES, GROUPS);
        run(overlay, Duration.ofSeconds(60)); // local areas settle

        assertEquals(List.of(), unseen(overlay), "nodes in no other node's local area");
    }

    @Test
    void theLeastSeenNodesServiceIsFoundThroughTheFiltersInOneHop() {
        SimulatedOverlay overlay = OverlayFixture.settled(4, NODES, GROUPS);
        run(overlay, Duration.ofSeconds(60));
        // The node in fewest local areas: the one routing state alone is likeliest to leave in none.
        Map<Id, List<Integer>> listedBy = listedBy(overlay);
        int provider = overlay.liveVertices().get(0);
        for (int v : overlay.liveVertices()) {
            if (seenBy(listedBy, overlay, v).size() < seenBy(listedBy, overlay, provider).size()) {
                provider = v;
            }
        }
        List<Integer> seers = seenBy(listedBy, overlay, provider);
        assertFalse(seers.isEmpty(), "node " + provider + " is in no other node's local area");
        Id service = Id.hash("riptide:least-seen-provider");

        overlay.node(provider).offerService(service);
        run(overlay, Duration.ofSeconds(2)); // the triggered push

        for (int v : seers) {
            LocateResult r = OverlayFixture.locate(overlay, v, service, 16, true);
            assertTrue(r.found(), "node " + v + " found the service");
            assertEquals(overlay.node(provider).self().id(), r.replica().id(), "node " + v + " found the provider");
            assertEquals(1, r.hops(), "node " + v + " went straight to its neighbour");
        }
    }

    private static Map<Id, List<Integer>> listedBy(SimulatedOverlay overlay) {
        Map<Id, List<Integer>> out = new HashMap<>();
        for (int v : overlay.liveVertices()) {
            for (NodeHandle n : overlay.node(v).localArea().neighbours()) {
                out.computeIfAbsent(n.id(), k -> new ArrayList<>()).add(v);
            }
        }
        return out;
    }

    private static List<Integer> seenBy(Map<Id, List<Integer>> listedBy, SimulatedOverlay overlay, int v) {
        return listedBy.getOrDefault(overlay.node(v).self().id(), List.of());
    }

    private static List<Integer> unseen(SimulatedOverlay overlay) {
        Map<Id, List<Integer>> listedBy = listedBy(overlay);
        List<Integer> out = new ArrayList<>();
        for (int v : overlay.liveVertices()) {
            if (seenBy(listedBy, overlay, v).isEmpty()) {
                out.add(v);
            }
        }
        return out;
    }
}
