package io.riptide.cachemanager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.cachemanager.replicas.PlacementPolicy;
import io.riptide.cachemanager.sim.Stub;
import io.riptide.core.hint.HintMessages.LatencyHint;
import io.riptide.core.id.Id;
import io.riptide.dolr.location.LocateResult;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Slow-hit hints make a replica near their users, with either primitive, and later reads from the stub get there sooner. */
class SlowHitTest {
    private static final int NODES = 36;
    private static final int GROUPS = 6;
    private static final int GATEWAY = 1;
    private static final int MANAGER = 0;
    private static final int FAR = 3; // group 3: as far as it gets from group 0
    private static final int CLIENT = 12; // group 0, the manager's stub

    private Stub stubWithFarObject(long seed, CacheManagerConfig config, Id guid) {
        Stub stub = new Stub(seed, NODES, GROUPS, GATEWAY, config, MANAGER);
        stub.node(FAR).storeReplica(guid, new byte[] {1, 2, 3});
        stub.run(Duration.ofSeconds(5));
        return stub;
    }

    @Test
    void localPolicyStoresTheReplicaOnTheManagersNode() {
        Id guid = Id.hash("slow object, local");
        Stub stub = stubWithFarObject(4, CacheManagerConfig.defaults().withPlacement(PlacementPolicy.LOCAL, 0), guid);
        LocateResult before = stub.read(CLIENT, guid);
        assertEquals(3, stub.groupOf(before), "first read crosses to the far stub");
        for (int i = 0; i < 5; i++) {
            stub.hint(CLIENT, new LatencyHint("http://example.com/slow", guid, before.hops(), before.elapsedNanos() / 1000));
        }
        stub.run(Duration.ofSeconds(5));
        assertTrue(stub.node(MANAGER).replicas().contains(guid));
        assertEquals(1, stub.manager(MANAGER).slowHits().replicasMade(), "five hints, one replica");
        stub.run(Duration.ofSeconds(30)); // Bloom filters carry the new replica to the neighbours
        LocateResult after = stub.read(CLIENT, guid);
        assertEquals(0, stub.groupOf(after), "the stub's own replica answers");
        assertTrue(after.elapsedNanos() < before.elapsedNanos() / 2, after.elapsedNanos() + " vs " + before.elapsedNanos());
        assertTrue(after.hops() <= before.hops(), after.hops() + " vs " + before.hops());
    }

    @Test
    void climbPolicyPlacesTheReplicaUpTheObjectsTree() {
        Stub stub = new Stub(5, NODES, GROUPS, GATEWAY, CacheManagerConfig.defaults().withPlacement(PlacementPolicy.CLIMB, 1), MANAGER);
        Id guid = Id.hash("slow object, climb");
        for (int i = 0; stub.node(MANAGER).nextHop(guid) == null || stub.overlay.trueRoot(guid) == FAR; i++) {
            guid = Id.hash("slow object, climb " + i); // one the manager is not the root of: there is a hop to climb
        }
        stub.node(FAR).storeReplica(guid, new byte[] {1, 2, 3});
        stub.run(Duration.ofSeconds(5));
        // The client that saw the slow hit reads it, not the manager: in this small overlay the far
        // node would become one of the manager's Bloom providers, and the manager's reads would not
        // show where the placement put the copy.
        LocateResult before = stub.read(CLIENT, guid);
        int up = stub.overlay.vertexOf(stub.node(MANAGER).nextHop(guid).id());
        stub.hint(CLIENT, new LatencyHint("http://example.com/slow", guid, Math.max(2, before.hops()), 90_000));
        stub.run(Duration.ofSeconds(8));
        assertEquals(1, stub.manager(MANAGER).slowHits().replicasMade());
        assertTrue(stub.node(up).replicas().contains(guid), "one hop up from the manager, toward the root");
        LocateResult after = stub.read(MANAGER, guid);
        assertEquals(stub.node(up).self().id(), after.replica().id(), "the manager's subtree is served by the placed replica");
        long farRoundTrip = 2 * stub.latency.latencyNanos(MANAGER, FAR);
        assertTrue(after.elapsedNanos() <= farRoundTrip, after.elapsedNanos() + " ns vs " + farRoundTrip + " ns to the far copy");
    }

    @Test
    void fastHitsMakeNoReplica() {
        Id guid = Id.hash("fast object");
        Stub stub = stubWithFarObject(6, CacheManagerConfig.defaults().withPlacement(PlacementPolicy.LOCAL, 0), guid);
        stub.hint(CLIENT, new LatencyHint("http://example.com/fast", guid, 1, 3_000));
        stub.run(Duration.ofSeconds(5));
        assertEquals(0, stub.manager(MANAGER).slowHits().replicasMade());
        assertTrue(!stub.node(MANAGER).replicas().contains(guid));
    }

    @Test
    void byDefaultTheReplicaGoesOneHopUpHoweverFarTheSlowReadWent() {
        // A hint from a read that went many hops must not put the replica beside the far copy: it is for this campus.
        Stub stub = new Stub(7, NODES, GROUPS, GATEWAY, CacheManagerConfig.defaults(), MANAGER);
        Id guid = Id.hash("slow object, default climb");
        // One whose tree from the manager has at least two hops, so "one hop up" and "five hops up" differ.
        for (int i = 0; stub.node(MANAGER).nextHop(guid) == null || stub.overlay.trueRoot(guid) == FAR
                || stub.node(stub.overlay.vertexOf(stub.node(MANAGER).nextHop(guid).id())).nextHop(guid) == null; i++) {
            guid = Id.hash("slow object, default climb " + i);
        }
        stub.node(FAR).storeReplica(guid, new byte[] {1, 2, 3});
        stub.run(Duration.ofSeconds(5));
        int up = stub.overlay.vertexOf(stub.node(MANAGER).nextHop(guid).id());
        stub.hint(CLIENT, new LatencyHint("http://example.com/slow", guid, 6, 90_000));
        stub.run(Duration.ofSeconds(8));
        assertEquals(1, stub.manager(MANAGER).slowHits().replicasMade());
        assertTrue(stub.node(up).replicas().contains(guid), "one hop up from the manager, not five");
    }
}
