package io.riptide.dolr.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.location.LocateResult;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Object pointers are soft state across the whole overlay: republishing keeps them alive for as long
 * as a replica is held, and a holder that goes quiet without unpublishing (it lost its disk, or
 * forgot) leaves pointers that vanish everywhere once their lifetime runs out.
 */
class SoftStateTest {
    private static final int NODES = 120;
    private static final Id GUID = Id.hash("soft state object");
    private static final int HOLDER = 17;

    @Test
    void republishingKeepsPointersAliveAndSilenceLetsThemExpireEverywhere() {
        DolrConfig config = DolrConfig.defaults();
        SimulatedOverlay overlay = OverlayFixture.settled(41, NODES, 4);
        assertTrue(overlay.node(HOLDER).storeReplica(GUID, "held".getBytes(StandardCharsets.UTF_8)));
        OverlayFixture.run(overlay, Duration.ofSeconds(5));
        int published = nodesWithPointers(overlay);
        assertTrue(published >= 2, "pointers left on the path to the root: " + published);

        // Three pointer lifetimes later the pointers are still there, refreshed by republishing.
        OverlayFixture.run(overlay, config.pointerTtl().multipliedBy(3));
        assertTrue(nodesWithPointers(overlay) >= 2, "pointers refreshed while the replica is held");
        assertEveryLocate(overlay, true);

        // The holder loses the replica without a word: no unpublish goes out.
        assertTrue(overlay.node(HOLDER).replicas().remove(GUID));
        OverlayFixture.run(overlay, config.republishInterval());
        assertTrue(nodesWithPointers(overlay) >= 2, "soft state outlives the replica until it expires");

        OverlayFixture.run(overlay, config.pointerTtl());
        assertEquals(0, nodesWithPointers(overlay), "no pointer survives its lifetime without republishing");
        assertEveryLocate(overlay, false);
    }

    private static int nodesWithPointers(SimulatedOverlay overlay) {
        long now = overlay.simulation().now();
        return (int) IntStream.range(0, NODES)
                .filter(v -> overlay.isAlive(v) && !overlay.node(v).pointers().lookup(GUID, now).isEmpty())
                .count();
    }

    /** Locates from a spread of nodes without Bloom filters (pointers only) and checks each outcome. */
    private static void assertEveryLocate(SimulatedOverlay overlay, boolean found) {
        for (int v = 0; v < NODES; v += 7) {
            LocateResult r = OverlayFixture.locate(overlay, v, GUID, 16, false);
            if (found) {
                assertTrue(r.found(), "locate from " + v + ": " + r);
            } else {
                assertFalse(r.found(), "locate from " + v + " found a replica no one holds: " + r);
            }
        }
    }
}
