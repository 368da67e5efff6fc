package io.riptide.dolr.simulation;

import static io.riptide.dolr.simulation.OverlayFixture.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import io.riptide.dolr.OverlayNode;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.dolr.placement.PlaceResult;
import io.riptide.dolr.placement.Replication;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** replicateTo and retireAt: a replica on a chosen node, found there, and dropped only at its requester's asking. */
class ReplicationTest {
    private static final int NODES = 48;
    private static final int GROUPS = 6;

    @Test
    void aChosenNodeCopiesTheObjectServesItAndDropsItOnlyForItsRequester() {
        SimulatedOverlay overlay = OverlayFixture.settled(21, NODES, GROUPS);
        Id guid = Id.hash("replicated object");
        int holder = 1; // group 1
        int requester = 2; // group 2
        int target = 8; // group 2, beside the requester
        overlay.node(holder).storeReplica(guid, new byte[] {4, 2});
        run(overlay, Duration.ofSeconds(2));

        OverlayNode asker = overlay.node(requester);
        PlaceResult[] out = new PlaceResult[1];
        asker.replicateTo(overlay.node(target).self(), guid, r -> out[0] = r);
        run(overlay, Duration.ofSeconds(8));
        assertNotNull(out[0]);
        assertTrue(out[0].ok(), out[0].reason());
        assertEquals(overlay.node(target).self().id(), out[0].where().id());
        assertArrayEquals(new byte[] {4, 2}, overlay.node(target).replicas().get(guid).join());

        // Another node cannot retire it.
        overlay.node(3).retireAt(overlay.node(target).self(), guid);
        run(overlay, Duration.ofSeconds(1));
        assertTrue(overlay.node(target).replicas().contains(guid));
        // Nor can the requester retire a replica the holder had of its own.
        asker.retireAt(overlay.node(holder).self(), guid);
        run(overlay, Duration.ofSeconds(1));
        assertTrue(overlay.node(holder).replicas().contains(guid));

        asker.retireAt(overlay.node(target).self(), guid);
        run(overlay, Duration.ofSeconds(1));
        assertFalse(overlay.node(target).replicas().contains(guid));
        assertTrue(overlay.node(holder).replicas().contains(guid));
    }

    @Test
    void replicatingAnObjectNobodyHoldsFails() {
        SimulatedOverlay overlay = OverlayFixture.settled(22, NODES, GROUPS);
        PlaceResult[] out = new PlaceResult[1];
        overlay.node(0).replicateTo(overlay.node(6).self(), Id.hash("nowhere"), r -> out[0] = r);
        run(overlay, Duration.ofSeconds(10));
        assertNotNull(out[0]);
        assertFalse(out[0].ok());
        assertFalse(overlay.node(6).replicas().contains(Id.hash("nowhere")));
    }

    @Test
    void aNodeCanReplicateToItself() {
        SimulatedOverlay overlay = OverlayFixture.settled(23, NODES, GROUPS);
        Id guid = Id.hash("self copy");
        overlay.node(5).storeReplica(guid, new byte[] {1});
        run(overlay, Duration.ofSeconds(2));
        PlaceResult[] out = new PlaceResult[1];
        overlay.node(4).replicateTo(overlay.node(4).self(), guid, r -> out[0] = r);
        run(overlay, Duration.ofSeconds(8));
        assertTrue(out[0].ok(), out[0].reason());
        assertTrue(overlay.node(4).replicas().contains(guid));
        overlay.node(4).retireAt(overlay.node(4).self(), guid);
        assertFalse(overlay.node(4).replicas().contains(guid));
    }

    @Test
    void aTargetWithANamedHolderInItsLocalAreaDeclinesAndOneWithoutCopies() {
        // Groups larger than a local area (16 nearest), so each node's local area is its own group.
        SimulatedOverlay overlay = OverlayFixture.settled(24, 120, GROUPS);
        Id guid = Id.hash("spread object");
        int holder = 7; // group 1
        overlay.node(holder).storeReplica(guid, new byte[] {9});
        run(overlay, Duration.ofSeconds(2));
        OverlayNode asker = overlay.node(0);
        List<NodeHandle> holders = List.of(overlay.node(holder).self());

        PlaceResult[] near = new PlaceResult[1];
        asker.replicateTo(overlay.node(13).self(), guid, holders, r -> near[0] = r); // group 1, beside the holder
        run(overlay, Duration.ofSeconds(8));
        assertNotNull(near[0]);
        assertFalse(near[0].ok());
        assertEquals(Replication.HELD_NEARBY, near[0].reason());
        assertFalse(overlay.node(13).replicas().contains(guid));

        PlaceResult[] far = new PlaceResult[1];
        asker.replicateTo(overlay.node(14).self(), guid, holders, r -> far[0] = r); // group 2: across a slow link
        run(overlay, Duration.ofSeconds(8));
        assertNotNull(far[0]);
        assertTrue(far[0].ok(), far[0].reason());
        assertTrue(overlay.node(14).replicas().contains(guid));
    }
}
