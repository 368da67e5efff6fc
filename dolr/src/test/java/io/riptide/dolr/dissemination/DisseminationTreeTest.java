package io.riptide.dolr.dissemination;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.location.LocateResult;
import io.riptide.dolr.placement.PlaceResult;
import io.riptide.dolr.simulation.OverlayFixture;
import io.riptide.dolr.simulation.SimulatedOverlay;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Dissemination trees in the simulated runtime: updates reach every replica, repair after failures, never go backwards. */
class DisseminationTreeTest {
    private static final int NODES = 160;
    private static final int GROUPS = 8;
    private static final Id GUID = Id.hash("disseminated object");

    private static byte[] v(int n) {
        return ("version " + n).getBytes(StandardCharsets.UTF_8);
    }

    /** The root at vertex 0 and replicas on {@code count} nodes, each copied from (and attached to) the nearest replica. */
    private static List<Integer> buildTree(SimulatedOverlay overlay, int count) {
        OverlayNode root = overlay.node(0);
        root.storeReplica(GUID, v(1));
        root.startTree(GUID, 1);
        OverlayFixture.run(overlay, Duration.ofSeconds(2));
        List<Integer> members = new ArrayList<>();
        for (int i = 1; members.size() < count; i += 7) {
            int vertex = i % NODES;
            OverlayNode node = overlay.node(vertex);
            LocateResult[] read = new LocateResult[1];
            node.read(GUID, 16, r -> read[0] = r);
            OverlayFixture.run(overlay, Duration.ofSeconds(1));
            assertTrue(read[0].found());
            node.storeReplica(GUID, read[0].data());
            node.joinTree(GUID, read[0].replica());
            OverlayFixture.run(overlay, Duration.ofMillis(500));
            members.add(vertex);
        }
        OverlayFixture.run(overlay, Duration.ofSeconds(3));
        return members;
    }

    private static void assertAllHold(SimulatedOverlay overlay, List<Integer> members, byte[] expected) {
        for (int m : members) {
            if (overlay.isAlive(m)) {
                assertArrayEquals(expected, overlay.node(m).replicas().get(GUID).join(), "replica on " + m);
            }
        }
    }

    @Test
    void everyReplicaJoinsTheTreeAndAnUpdateReachesThemAll() {
        SimulatedOverlay overlay = OverlayFixture.settled(31, NODES, GROUPS);
        List<Integer> members = buildTree(overlay, 20);
        for (int m : members) {
            TreeView view = overlay.node(m).treeOf(GUID);
            assertNotNull(view, "member " + m);
            assertNotNull(view.parent(), "member " + m + " has a parent");
            assertEquals(overlay.node(0).self(), view.path().get(0), "every path starts at the root");
        }
        assertTrue(overlay.node(0).publishUpdate(GUID, v(2), 2));
        OverlayFixture.run(overlay, Duration.ofSeconds(2));
        assertAllHold(overlay, members, v(2));
    }

    @Test
    void placedReplicasJoinUnderTheReplicaTheyCopiedFrom() {
        SimulatedOverlay overlay = OverlayFixture.settled(32, NODES, GROUPS);
        overlay.node(0).storeReplica(GUID, v(1));
        overlay.node(0).startTree(GUID, 1);
        OverlayFixture.run(overlay, Duration.ofSeconds(2));
        PlaceResult[] placed = new PlaceResult[1];
        overlay.node(77).place(GUID, 1, r -> placed[0] = r);
        OverlayFixture.run(overlay, Duration.ofSeconds(5));
        assertTrue(placed[0].ok(), placed[0].reason());
        OverlayNode at = overlay.node(placed[0].where().address().port());
        assertEquals(overlay.node(0).self(), at.treeOf(GUID).parent());
        overlay.node(0).publishUpdate(GUID, v(2), 2);
        OverlayFixture.run(overlay, Duration.ofSeconds(2));
        assertArrayEquals(v(2), at.replicas().get(GUID).join());
    }

    @Test
    void whenAParentFailsItsChildrenReattachAndHearTheNextUpdate() {
        SimulatedOverlay overlay = OverlayFixture.settled(33, NODES, GROUPS);
        List<Integer> members = buildTree(overlay, 24);
        // Kill every interior member (one with children), except the root.
        List<Integer> interior = new ArrayList<>();
        for (int m : members) {
            if (!overlay.node(m).treeOf(GUID).children().isEmpty()) {
                interior.add(m);
            }
        }
        assertTrue(!interior.isEmpty(), "the tree has interior members");
        interior.forEach(overlay::kill);
        OverlayFixture.run(overlay, Duration.ofSeconds(12)); // beats stop; orphans re-attach up their paths
        overlay.node(0).publishUpdate(GUID, v(3), 3);
        OverlayFixture.run(overlay, Duration.ofSeconds(3));
        assertAllHold(overlay, members, v(3));
    }

    @Test
    void noReplicaEverStepsBackToAnOlderVersion() {
        SimulatedOverlay overlay = OverlayFixture.settled(34, NODES, GROUPS);
        List<Integer> members = buildTree(overlay, 16);
        Map<Integer, Long> lastSeen = new HashMap<>();
        for (int round = 2; round <= 6; round++) {
            overlay.node(0).publishUpdate(GUID, v(round), round);
            if (round == 4) {
                overlay.kill(members.get(3)); // failures in between updates
            }
            for (int step = 0; step < 10; step++) {
                OverlayFixture.run(overlay, Duration.ofMillis(300));
                for (int m : members) {
                    if (!overlay.isAlive(m)) {
                        continue;
                    }
                    long stamp = overlay.node(m).treeOf(GUID).stamp();
                    assertTrue(stamp >= lastSeen.getOrDefault(m, 0L), "member " + m + " went from " + lastSeen.get(m) + " to " + stamp);
                    lastSeen.put(m, stamp);
                }
            }
        }
        OverlayFixture.run(overlay, Duration.ofSeconds(12));
        overlay.node(0).publishUpdate(GUID, v(7), 7);
        OverlayFixture.run(overlay, Duration.ofSeconds(3));
        assertAllHold(overlay, members, v(7));
    }

}
