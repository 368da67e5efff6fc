package io.riptide.dolr.simulation;

import static io.riptide.dolr.simulation.OverlayFixture.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.location.LocateResult;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A replica holder cut off long enough to be declared failed, then back (a false alarm, as a
 * blacked-out uplink causes): the GUID's root kept its pointer, suspended rather than dropped, and a
 * locate at the root finds the object at once instead of failing until the holder's next republish.
 */
class SuspendedPointersTest {
    @Test
    void aRootThatDeclaredTheHolderFailedStillFindsItsObjectOnceItIsBack() {
        SimulatedOverlay overlay = OverlayFixture.settled(53, 120, 4);
        run(overlay, Duration.ofSeconds(30));
        Id guid = Id.hash("suspended-pointer-object");
        int holderVertex = 7;
        OverlayNode holder = overlay.node(holderVertex);
        holder.storeReplica(guid, new byte[] {1, 2, 3});
        run(overlay, Duration.ofSeconds(5));
        OverlayNode root = null;
        for (int v : overlay.liveVertices()) {
            if (overlay.node(v).nextHop(guid) == null) {
                root = overlay.node(v);
            }
        }
        assertNotNull(root);
        assertFalse(root == holder, "pick another seed: the holder is the root");

        // Cut the holder off until the root declares it failed, then let it back at once (well before a republish).
        overlay.network().partition(v -> v == holderVertex);
        OverlayNode r = root;
        for (int s = 0; s < 60 && !r.peers().isDead(holder.self().id(), overlay.simulation().now()); s++) {
            run(overlay, Duration.ofSeconds(1));
        }
        assertTrue(root.peers().isDead(holder.self().id(), overlay.simulation().now()), "the root declared the holder failed");
        overlay.network().heal();
        assertEquals(1, root.pointers().lookup(guid, overlay.simulation().now()).size(), "the pointer is kept, suspended");

        LocateResult[] found = new LocateResult[1];
        root.locate(guid, 16, false, x -> found[0] = x);
        run(overlay, Duration.ofSeconds(2));
        assertNotNull(found[0]);
        assertTrue(found[0].found(), "found, not " + found[0].failure());
        assertEquals(holder.self().id(), found[0].replica().id());
    }
}
