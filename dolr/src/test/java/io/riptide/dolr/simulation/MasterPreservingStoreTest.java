package io.riptide.dolr.simulation;

import static io.riptide.dolr.simulation.OverlayFixture.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.OverlayApplication;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.location.LocateResult;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The master-preserving rule in live node stores: a node that must evict gives up a copy its
 * local-area neighbour also holds before the neighbourhood's last copy of something older, so the
 * stub keeps serving every object it had.
 */
class MasterPreservingStoreTest {
    private static final int NODES = 120;
    private static final int GROUPS = 6;
    private static final int STORE_OBJECTS = 4;
    private static final int HOLDER = 12;

    private final SimulatedOverlay overlay = OverlayFixture.settled(21, NODES, GROUPS,
            DolrConfig.defaults().withStore(1 << 20, STORE_OBJECTS), v -> OverlayApplication.NONE);
    private final GroupLatency groups = new GroupLatency(GROUPS);

    @Test
    void aFullNodeEvictsACopyItsNeighbourHoldsAndTheStubStillServesEveryObject() {
        OverlayNode holder = overlay.node(HOLDER);
        OverlayNode neighbour = overlay.node(overlay.vertexOf(holder.localArea().neighbours().get(0).id()));
        assertEquals(groups.groupOf(HOLDER), groups.groupOf(overlay.vertexOf(neighbour.self().id())),
                "the nearest local-area neighbour is in the holder's stub");
        Id master = Id.hash("only copy in the stub");
        List<Id> shared = List.of(Id.hash("shared 1"), Id.hash("shared 2"), Id.hash("shared 3"));
        holder.storeReplica(master, new byte[] {1}); // the oldest replica on the holder
        run(overlay, Duration.ofSeconds(1));
        for (int i = 0; i < shared.size(); i++) {
            // Distinct bodies: identical ones would be stored once, and the bound counts records.
            neighbour.storeReplica(shared.get(i), new byte[] {2, (byte) i});
            holder.storeReplica(shared.get(i), new byte[] {2, (byte) i});
        }
        run(overlay, holder.config().bloomRefresh().multipliedBy(2)); // the neighbour's filter reaches the holder

        Id fresh = Id.hash("new object");
        holder.storeReplica(fresh, new byte[] {3}); // one over the bound: something must go
        run(overlay, Duration.ofSeconds(2));

        assertTrue(holder.replicas().contains(master), "the stub's last copy stays, though it is the oldest");
        assertFalse(holder.replicas().contains(shared.get(0)), "the oldest copy the neighbour also holds went instead");
        assertEquals(1, holder.nonMasterEvictions());

        // Every object is still served from inside the stub, from a reader next to the holder.
        int reader = neighbourInStub(HOLDER);
        for (Id guid : List.of(master, shared.get(0), shared.get(1), shared.get(2), fresh)) {
            LocateResult r = OverlayFixture.locate(overlay, reader, guid, 16, true);
            assertTrue(r.found(), "found " + guid.shortHex());
            assertEquals(groups.groupOf(HOLDER), groups.groupOf(overlay.vertexOf(r.replica().id())),
                    "served inside the stub: " + guid.shortHex());
        }
    }

    private int neighbourInStub(int vertex) {
        for (int v = 0; v < NODES; v++) {
            if (v != vertex && groups.groupOf(v) == groups.groupOf(vertex)
                    && !overlay.node(v).replicas().contains(Id.hash("shared 1"))) {
                return v;
            }
        }
        throw new AssertionError("no other node in the stub");
    }
}
