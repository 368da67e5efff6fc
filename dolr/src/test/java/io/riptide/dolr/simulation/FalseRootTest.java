package io.riptide.dolr.simulation;

import static io.riptide.dolr.simulation.OverlayFixture.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.location.LocateResult;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Right after joins a node's leaf set may lack the true root of a GUID, and the node then takes itself
 * for the root. Without pointers there it hands the locate to its leaf-set member nearest the GUID
 * instead of answering NOT_FOUND, and the object is found.
 */
class FalseRootTest {
    @Test
    void aNodeThatWronglyTakesItselfForTheRootPassesTheLocateOnAndTheObjectIsFound() {
        SimulatedOverlay overlay = OverlayFixture.settled(51, 200, 4);
        run(overlay, Duration.ofSeconds(30));
        Id guid = Id.hash("false-root-object");
        OverlayNode holder = overlay.node(7);
        holder.storeReplica(guid, new byte[] {1, 2, 3});
        run(overlay, Duration.ofSeconds(5));

        // The true root, and a leaf-set neighbour of it made to forget it (and any pointer copy).
        OverlayNode root = null;
        for (int v : overlay.liveVertices()) {
            OverlayNode n = overlay.node(v);
            if (n.nextHop(guid) == null) {
                root = n;
            }
        }
        assertNotNull(root);
        OverlayNode falseRoot = null;
        for (NodeHandle h : root.leafSet().members()) {
            OverlayNode n = overlay.node(overlay.vertexOf(h.id()));
            if (falseRoot == null || guid.compareRingDistance(n.self().id(), falseRoot.self().id()) < 0) {
                falseRoot = n;
            }
        }
        falseRoot.leafSet().remove(root.self().id());
        falseRoot.routingTable().remove(root.self().id());
        falseRoot.pointers().remove(guid, holder.self().id());
        assertEquals(null, falseRoot.nextHop(guid), "it now takes itself for the root");

        LocateResult[] found = new LocateResult[1];
        falseRoot.locate(guid, 16, false, r -> found[0] = r);
        run(overlay, Duration.ofSeconds(2));
        assertNotNull(found[0]);
        assertTrue(found[0].found(), "found, not " + found[0].failure());
        assertEquals(holder.self().id(), found[0].replica().id());
        assertEquals(1, falseRoot.locateStats().rootsAsked());
    }
}
