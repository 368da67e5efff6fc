package io.riptide.dolr.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import io.riptide.core.wire.WireMessage;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.location.LocateResult;
import io.riptide.dolr.location.LocationMessages.Publish;
import io.riptide.dolr.routing.RoutingMessages.Hop;
import io.riptide.dolr.routing.RoutingMessages.Routed;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
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

    @Test
    void aNodeHoldingManyReplicasRepublishesThemSpreadOverTheIntervalNotInOneBurst() {
        DolrConfig config = DolrConfig.defaults();
        SimulatedOverlay overlay = OverlayFixture.settled(43, NODES, 4);
        int replicas = 600;
        int rootedHere = 0; // a publish from the key's own root sends nothing
        for (int i = 0; i < replicas; i++) {
            Id guid = Id.hash("many " + i);
            assertTrue(overlay.node(HOLDER).storeReplica(guid, "held".getBytes(StandardCharsets.UTF_8)));
            rootedHere += overlay.trueRoot(guid) == HOLDER ? 1 : 0;
        }
        OverlayFixture.run(overlay, Duration.ofSeconds(5));
        Id holder = overlay.node(HOLDER).self().id();
        Map<Long, Integer> perSecond = new TreeMap<>();
        Set<Id> republished = new HashSet<>();
        overlay.network().tap(m -> {
            WireMessage inner = m instanceof Hop hop ? hop.inner() : m;
            if (inner instanceof Routed r && r.hops() <= 1 && r.payload() instanceof Publish p && !p.withdraw()
                    && p.replica().id().equals(holder)) {
                perSecond.merge(overlay.simulation().now() / 1_000_000_000L, 1, Integer::sum);
                republished.add(p.guid());
            }
        });
        OverlayFixture.run(overlay, config.republishInterval());
        assertEquals(replicas - rootedHere, republished.size(), "every replica republished within one interval");
        int busiest = perSecond.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        // An even spread is 10 a second; a burst would be all 600 at once.
        assertTrue(busiest <= 3 * replicas / 60, "busiest second: " + busiest + " republishes of " + replicas + " " + perSecond);
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
