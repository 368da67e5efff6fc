package io.riptide.dolr.simulation;

import static io.riptide.dolr.simulation.OverlayFixture.run;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.dolr.OverlayNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A node whose leaf set holds only nodes farther along the ring than its true neighbours, and whom
 * those neighbours do not know: an island, as a join answered by a false root leaves one (seen at
 * 10,000 nodes, seed 3, where three nodes of one stub knew only each other and far nodes, and a key
 * between them routed to the wrong root). Within half a minute it must know its true neighbours and
 * they it.
 */
class LeafSetIslandTest {
    @Test
    void aNodeThatKnowsOnlyFarNodesFindsItsTrueNeighboursAndTheyFindIt() {
        SimulatedOverlay overlay = OverlayFixture.settled(17, 300, 100);
        List<Integer> live = overlay.liveVertices(); // in ID order
        int n = live.size();
        int at = n / 2;
        OverlayNode island = overlay.node(live.get(at));
        Id self = island.self().id();
        int half = island.config().leafSetHalf();

        // Everyone forgets the island node; it forgets every node within 3 leaf sets of it, and keeps
        // only the leaf sets' worth of nodes beyond that on each side.
        for (int v : live) {
            OverlayNode node = overlay.node(v);
            node.leafSet().remove(self);
            node.routingTable().remove(self);
            node.localArea().remove(self);
        }
        for (NodeHandle h : island.leafSet().members()) {
            island.leafSet().remove(h.id());
        }
        int near = 3 * half;
        for (int d = -near; d <= near; d++) {
            island.routingTable().remove(overlay.node(live.get(Math.floorMod(at + d, n))).self().id());
        }
        List<NodeHandle> far = new ArrayList<>();
        for (int d = near + 1; d <= near + half; d++) {
            far.add(overlay.node(live.get(Math.floorMod(at + d, n))).self());
            far.add(overlay.node(live.get(Math.floorMod(at - d, n))).self());
        }
        for (NodeHandle h : far) {
            island.leafSet().add(h);
        }
        OverlayNode successor = overlay.node(live.get(Math.floorMod(at + 1, n)));
        OverlayNode predecessor = overlay.node(live.get(Math.floorMod(at - 1, n)));

        run(overlay, Duration.ofSeconds(30));

        assertEquals(successor.self(), island.leafSet().right().get(0), "the island's successor");
        assertEquals(predecessor.self(), island.leafSet().left().get(0), "the island's predecessor");
        assertEquals(island.self(), successor.leafSet().left().get(0), "its successor's predecessor");
        assertEquals(island.self(), predecessor.leafSet().right().get(0), "its predecessor's successor");
    }
}
