package io.riptide.dolr.dissemination;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.location.LocateResult;
import io.riptide.dolr.simulation.OverlayFixture;
import io.riptide.dolr.simulation.SimulatedOverlay;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Updates that change a little travel down the tree as deltas; a member without the delta's base still converges. */
class DeltaUpdateTest {
    private static final int NODES = 160;
    private static final Id GUID = Id.hash("a page edited in one place");

    private static String page(String headline) {
        StringBuilder b = new StringBuilder("<html><head><title>news</title></head><body>\n<h1>" + headline + "</h1>\n");
        for (int i = 0; i < 400; i++) {
            b.append("<p class=\"item\">story ").append(i).append(": text that stays the same from one version to the next</p>\n");
        }
        return b.append("</body></html>\n").toString();
    }

    private static final byte[] V1 = page("Monday").getBytes(StandardCharsets.UTF_8);
    private static final byte[] V2 = page("Tuesday, with a longer headline").getBytes(StandardCharsets.UTF_8);

    /** The root at vertex 0 holding V1, and {@code count} replicas each copied from (and attached to) the nearest one. */
    private static List<Integer> buildTree(SimulatedOverlay overlay, int count) {
        overlay.node(0).storeReplica(GUID, V1);
        overlay.node(0).startTree(GUID, 1);
        OverlayFixture.run(overlay, Duration.ofSeconds(2));
        List<Integer> members = new ArrayList<>();
        for (int i = 3; members.size() < count; i += 7) {
            OverlayNode node = overlay.node(i % NODES);
            LocateResult[] read = new LocateResult[1];
            node.read(GUID, 16, r -> read[0] = r);
            OverlayFixture.run(overlay, Duration.ofSeconds(1));
            assertTrue(read[0].found());
            node.storeReplica(GUID, read[0].data());
            node.joinTree(GUID, read[0].replica());
            OverlayFixture.run(overlay, Duration.ofMillis(500));
            members.add(i % NODES);
        }
        OverlayFixture.run(overlay, Duration.ofSeconds(3));
        return members;
    }

    private static TreeStats total(SimulatedOverlay overlay) {
        long fs = 0, fb = 0, ds = 0, db = 0, da = 0, dr = 0, c = 0;
        for (int v : overlay.liveVertices()) {
            TreeStats s = overlay.node(v).treeStats();
            fs += s.fullSent();
            fb += s.fullBytesSent();
            ds += s.deltasSent();
            db += s.deltaBytesSent();
            da += s.deltasApplied();
            dr += s.deltasRefused();
            c += s.corruptUpdates();
        }
        return new TreeStats(fs, fb, ds, db, da, dr, c);
    }

    @Test
    void aSmallEditReachesEveryReplicaAsADelta() {
        SimulatedOverlay overlay = OverlayFixture.settled(41, NODES, 8);
        List<Integer> members = buildTree(overlay, 20);
        TreeStats before = total(overlay);
        assertTrue(overlay.node(0).publishUpdate(GUID, V2, 2));
        OverlayFixture.run(overlay, Duration.ofSeconds(2));
        for (int m : members) {
            assertArrayEquals(V2, overlay.node(m).replicas().get(GUID).join(), "replica on " + m);
        }
        TreeStats after = total(overlay);
        // One update per tree edge, every one a delta, every one applied.
        assertEquals(members.size(), after.deltasSent() - before.deltasSent());
        assertEquals(0, after.fullSent() - before.fullSent());
        assertEquals(members.size(), after.deltasApplied() - before.deltasApplied());
        assertEquals(0, after.deltasRefused());
        long perDelta = (after.deltaBytesSent() - before.deltaBytesSent()) / members.size();
        assertTrue(perDelta * 20 < V2.length, perDelta + "-byte deltas for a " + V2.length + "-byte object");
    }

    @Test
    void aReplicaWhoseBaseDiffersGetsTheFullDataAndItsChildrenStillGetTheDelta() {
        SimulatedOverlay overlay = OverlayFixture.settled(42, NODES, 8);
        List<Integer> members = buildTree(overlay, 20);
        int odd = -1;
        for (int m : members) {
            if (!overlay.node(m).treeOf(GUID).children().isEmpty()) {
                odd = m;
                break;
            }
        }
        assertTrue(odd >= 0, "the tree has an interior member");
        // This member's copy drifted from the version its parent holds (same stamp, other bytes).
        byte[] drifted = page("Monday, locally altered").getBytes(StandardCharsets.UTF_8);
        overlay.node(odd).replicas().put(GUID, drifted);
        assertTrue(overlay.node(0).publishUpdate(GUID, V2, 2));
        OverlayFixture.run(overlay, Duration.ofSeconds(3));
        for (int m : members) {
            assertArrayEquals(V2, overlay.node(m).replicas().get(GUID).join(), "replica on " + m);
        }
        assertEquals(1, overlay.node(odd).treeStats().deltasRefused(), "the drifted member refused the delta");
        assertEquals(1, total(overlay).deltasRefused(), "its children, holding the real base, took the delta it passed on");
        assertEquals(2, overlay.node(odd).treeOf(GUID).stamp());
    }
}
