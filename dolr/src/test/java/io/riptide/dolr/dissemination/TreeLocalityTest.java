package io.riptide.dolr.dissemination;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.simulation.GroupLatency;
import io.riptide.dolr.simulation.OverlayFixture;
import io.riptide.dolr.simulation.SimulatedOverlay;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A replica that attached to a far member (location had not yet learnt of a member near it) moves
 * under the near one, so its group's outside link is crossed once; moves never make a loop.
 */
class TreeLocalityTest {
    private static final int NODES = 160;
    private static final int GROUPS = 8;
    private static final GroupLatency GROUPING = new GroupLatency(GROUPS);
    private static final Id GUID = Id.hash("an object replicated in one far group");

    private static byte[] v(int n) {
        return ("version " + n).getBytes(StandardCharsets.UTF_8);
    }

    /** Replicas in group 3, all attached straight to the root in group 0, as a lagging location would have it. */
    private static void joinUnderTheRoot(SimulatedOverlay overlay, List<Integer> vertices) {
        for (int m : vertices) {
            OverlayNode node = overlay.node(m);
            node.storeReplica(GUID, v(1));
            node.joinTree(GUID, overlay.node(0).self());
        }
    }

    private static int outsideLinks(SimulatedOverlay overlay, List<Integer> members) {
        int outside = 0;
        for (int m : members) {
            TreeView view = overlay.node(m).treeOf(GUID);
            assertNotNull(view.parent(), "member " + m + " is attached");
            if (GROUPING.groupOf(view.parent().address().port()) != GROUPING.groupOf(m)) {
                outside++;
            }
        }
        return outside;
    }

    /** Following parents from every member reaches the root without meeting a member twice. */
    private static void assertNoLoop(SimulatedOverlay overlay, List<Integer> members) {
        for (int m : members) {
            Set<Integer> seen = new HashSet<>();
            int at = m;
            while (at != 0) {
                assertTrue(seen.add(at), "member " + m + " reaches " + at + " twice on its way up");
                at = overlay.node(at).treeOf(GUID).parent().address().port();
            }
        }
    }

    @Test
    void aReplicaAttachedFarAwayMovesUnderANearMember() {
        SimulatedOverlay overlay = OverlayFixture.settled(51, NODES, GROUPS);
        overlay.node(0).storeReplica(GUID, v(1));
        overlay.node(0).startTree(GUID, 1);
        List<Integer> first = List.of(3);
        joinUnderTheRoot(overlay, first);
        OverlayFixture.run(overlay, Duration.ofSeconds(2));
        List<Integer> later = List.of(11, 19, 27);
        for (int m : later) {
            joinUnderTheRoot(overlay, List.of(m));
            OverlayFixture.run(overlay, Duration.ofSeconds(2));
        }
        OverlayFixture.run(overlay, Duration.ofSeconds(10));
        List<Integer> members = List.of(3, 11, 19, 27);
        assertEquals(1, outsideLinks(overlay, members), "one member of group 3 links to the root; the rest hang below it");
        assertNoLoop(overlay, members);
        overlay.node(0).publishUpdate(GUID, v(2), 2);
        OverlayFixture.run(overlay, Duration.ofSeconds(2));
        for (int m : members) {
            assertArrayEquals(v(2), overlay.node(m).replicas().get(GUID).join(), "replica on " + m);
        }
    }

    @Test
    void replicasJoiningTogetherSortThemselvesOutWithoutLoops() {
        SimulatedOverlay overlay = OverlayFixture.settled(52, NODES, GROUPS);
        overlay.node(0).storeReplica(GUID, v(1));
        overlay.node(0).startTree(GUID, 1);
        OverlayFixture.run(overlay, Duration.ofSeconds(2));
        // All at once: each may find the others and try to move under them at the same moment.
        List<Integer> members = List.of(3, 11, 19, 27, 35, 43);
        joinUnderTheRoot(overlay, members);
        for (int step = 0; step < 40; step++) {
            OverlayFixture.run(overlay, Duration.ofMillis(500));
            boolean allAttached = members.stream().allMatch(m -> overlay.node(m).treeOf(GUID).parent() != null);
            if (allAttached) {
                assertNoLoop(overlay, members);
            }
        }
        int outside = outsideLinks(overlay, members);
        assertTrue(outside <= 3, outside + " of " + members.size() + " members of group 3 link outside it");
        overlay.node(0).publishUpdate(GUID, v(2), 2);
        OverlayFixture.run(overlay, Duration.ofSeconds(2));
        for (int m : members) {
            assertArrayEquals(v(2), overlay.node(m).replicas().get(GUID).join(), "replica on " + m);
        }
    }
    /**
     * A far member whose early looks found nobody keeps looking: a member that joins nearby later
     * and cannot move itself (it gained a child before any answer came) is found by the first one,
     * which moves under it, so the group's outside link is crossed once.
     */
    @Test
    void aFarMemberLooksAgainAndFindsALaterNearMember() {
        SimulatedOverlay overlay = OverlayFixture.settled(53, NODES, GROUPS);
        overlay.node(0).storeReplica(GUID, v(1));
        overlay.node(0).startTree(GUID, 1);
        int early = 3;
        joinUnderTheRoot(overlay, List.of(early));
        OverlayFixture.run(overlay, Duration.ofSeconds(10)); // its first two looks find nobody
        int late = 11;
        joinUnderTheRoot(overlay, List.of(late));
        while (overlay.node(late).treeOf(GUID).parent() == null) {
            OverlayFixture.run(overlay, Duration.ofNanos(100_000));
        }
        // A child 1 ms away attaches before the early member's answer (2 ms away) reaches the late one.
        int child = late + 7 * GROUPS;
        overlay.node(child).storeReplica(GUID, v(1));
        overlay.node(child).joinTree(GUID, overlay.node(late).self());
        OverlayFixture.run(overlay, Duration.ofSeconds(1));
        TreeView lateView = overlay.node(late).treeOf(GUID);
        assertEquals(0, lateView.parent().address().port(), "the late member stays under the root");
        assertEquals(1, lateView.children().size(), "the late member has a child, so it may not move");
        OverlayFixture.run(overlay, Duration.ofSeconds(40));
        List<Integer> members = List.of(early, late, child);
        assertEquals(1, outsideLinks(overlay, members), "the early member moved under the late one's subtree");
        assertNoLoop(overlay, members);
        overlay.node(0).publishUpdate(GUID, v(2), 2);
        OverlayFixture.run(overlay, Duration.ofSeconds(2));
        for (int m : members) {
            assertArrayEquals(v(2), overlay.node(m).replicas().get(GUID).join(), "replica on " + m);
        }
    }
}
