package io.riptide.cachemanager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.cachemanager.sim.Stub;
import io.riptide.core.hint.HintMessages.LatencyHint;
import io.riptide.core.hint.HintMessages.LoadReport;
import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A flash crowd for one object makes the manager spread replicas over its stub; they retire when it cools. */
class FlashCrowdTest {
    private static final int NODES = 36;
    private static final int GROUPS = 6;
    private static final int GATEWAY = 1;
    private static final int MANAGER = 0;

    @Test
    void replicasGrowWithTheCrowdAndRetireAfterIt() {
        // 5 requests/s per replica, at most 4 extra replicas.
        Stub stub = new Stub(7, NODES, GROUPS, GATEWAY, CacheManagerConfig.defaults().withHotObjects(5.0, 4), MANAGER);
        Id guid = Id.hash("flash crowd object");
        stub.node(3).storeReplica(guid, new byte[] {7});
        stub.run(Duration.ofSeconds(5));
        CacheManager manager = stub.manager(MANAGER);

        // 20 s of 40 fast hits per second from the manager's stub: no slow hit, only load.
        for (int tick = 0; tick < 400; tick++) {
            int client = GROUPS * (1 + tick % 5);
            stub.hint(client, new LatencyHint("http://example.com/hot", guid, 1, 2_000));
            stub.run(Duration.ofMillis(50));
        }
        List<NodeHandle> during = manager.hotObjects().extraReplicas(guid);
        assertEquals(4, during.size(), "40/s over 5/s per replica wants 8; capped at 4 extras");
        for (NodeHandle h : during) {
            int v = stub.overlay.vertexOf(h.id());
            assertEquals(0, stub.latency.groupOf(v), "extra replicas stay in the manager's stub");
            assertTrue(stub.node(v).replicas().contains(guid));
        }
        assertEquals(0, manager.slowHits().replicasMade());

        // The crowd is gone: the window empties and every extra retires.
        stub.run(Duration.ofSeconds(20));
        assertEquals(List.of(), manager.hotObjects().extraReplicas(guid));
        assertEquals(4, manager.hotObjects().retired());
        for (NodeHandle h : during) {
            assertTrue(!stub.node(stub.overlay.vertexOf(h.id())).replicas().contains(guid), "retired at " + h);
        }
        assertTrue(stub.node(3).replicas().contains(guid), "the original copy stays");
    }

    @Test
    void aModerateRateAddsOnlyWhatTheBoundNeeds() {
        Stub stub = new Stub(8, NODES, GROUPS, GATEWAY, CacheManagerConfig.defaults().withHotObjects(5.0, 8), MANAGER);
        Id guid = Id.hash("warm object");
        stub.node(3).storeReplica(guid, new byte[] {7});
        stub.run(Duration.ofSeconds(5));
        // Replica holders report 12 requests a second between them: three replicas carry it.
        for (int s = 0; s < 15; s++) {
            stub.hint(6, new LoadReport(guid, 12));
            stub.run(Duration.ofSeconds(1));
        }
        assertEquals(2, stub.manager(MANAGER).hotObjects().extraReplicas(guid).size());
    }
}
