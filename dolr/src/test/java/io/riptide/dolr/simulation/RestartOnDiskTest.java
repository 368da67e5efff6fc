package io.riptide.dolr.simulation;

import static io.riptide.dolr.simulation.OverlayFixture.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.sim.Simulation;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.location.LocateResult;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A simulated node that crashes and starts again on its disk keeps its ID and its replicas; a slow disk slows its reads. */
class RestartOnDiskTest {
    private static final int NODES = 40;
    private static final int HOLDER = 7;
    private static final int READER = 31;

    private static SimulatedOverlay overlay(long seed) {
        Simulation sim = new Simulation(seed);
        GroupLatency latency = new GroupLatency(4);
        SimulatedOverlay overlay = new SimulatedOverlay(sim, latency, DolrConfig.defaults(), latency::groupOf);
        overlay.keepReplicasOnDisks();
        List<Integer> vertices = new ArrayList<>();
        for (int v = 0; v < NODES; v++) {
            vertices.add(v);
        }
        overlay.addAll(vertices, Duration.ofMillis(50), Duration.ofSeconds(60), () -> { });
        sim.runFor(Duration.ofSeconds(20).toNanos());
        return overlay;
    }

    private static LocateResult read(SimulatedOverlay overlay, Id guid, long[] tookNanos) {
        LocateResult[] out = new LocateResult[1];
        long start = overlay.simulation().now();
        overlay.node(READER).read(guid, 32, r -> {
            out[0] = r;
            tookNanos[0] = overlay.simulation().now() - start;
        });
        run(overlay, Duration.ofSeconds(8));
        return out[0];
    }

    @Test
    void aRestartedNodeKeepsItsIdAndServesWhatItsDiskHeld() {
        SimulatedOverlay overlay = overlay(21);
        Id guid = Id.hash("restart/object");
        byte[] data = "kept across a crash".getBytes(StandardCharsets.UTF_8);
        OverlayNode before = overlay.node(HOLDER);
        assertTrue(before.storeReplica(guid, data));
        run(overlay, Duration.ofSeconds(5));
        long[] took = new long[1];
        assertTrue(read(overlay, guid, took).found());

        overlay.kill(HOLDER);
        assertThrows(IllegalStateException.class, () -> overlay.restart(READER), "a running node is not restarted");
        run(overlay, Duration.ofSeconds(20));
        assertFalse(read(overlay, guid, took).found(), "its only replica is down with it");

        OverlayNode after = overlay.restart(HOLDER);
        assertEquals(before.self(), after.self(), "the same ID and address");
        assertTrue(after.replicas().contains(guid), "the disk's replica is back before the node has joined");
        run(overlay, Duration.ofSeconds(15));
        assertTrue(after.isJoined());
        LocateResult found = read(overlay, guid, took);
        assertTrue(found.found(), "published again once joined: " + found);
        assertArrayEquals(data, found.data());
    }

    @Test
    void aNodeRestartedBeforeItsPeersNoticedTheCrashStillJoins() {
        // Back within 2 s, long before failure detection (7 s): its peers still hold it as a live
        // node nearest its own ID. Its join used to be routed to it, and end there unanswered,
        // every 5 s for good (found by the fault suite: `simulate faults --seed 40`).
        SimulatedOverlay overlay = overlay(23);
        Id guid = Id.hash("quick-restart/object");
        overlay.node(HOLDER).storeReplica(guid, new byte[] {4, 5, 6});
        run(overlay, Duration.ofSeconds(5));
        overlay.kill(HOLDER);
        run(overlay, Duration.ofMillis(1500));
        OverlayNode after = overlay.restart(HOLDER);
        run(overlay, Duration.ofSeconds(10));
        assertTrue(after.isJoined(), "joined through the nearest other node");
        long[] took = new long[1];
        assertTrue(read(overlay, guid, took).found(), "and serving what its disk held");
    }

    @Test
    void aSlowDiskDelaysEachRecordReadAndNothingElse() {
        SimulatedOverlay overlay = overlay(22);
        Id guid = Id.hash("slow-disk/object");
        overlay.node(HOLDER).storeReplica(guid, new byte[] {1, 2, 3});
        run(overlay, Duration.ofSeconds(5));
        long[] fast = new long[1];
        assertTrue(read(overlay, guid, fast).found());
        SimulatedDisk disk = overlay.disk(HOLDER);
        disk.setReadDelay(Duration.ofMillis(400));
        long[] slow = new long[1];
        LocateResult r = read(overlay, guid, slow);
        assertTrue(r.found(), "slow, not gone: " + r);
        // A replica is read as its head record, then its body record: two delayed reads.
        assertTrue(slow[0] - fast[0] >= Duration.ofMillis(800).toNanos() - Duration.ofMillis(50).toNanos(),
                "fast " + fast[0] + " ns, slow " + slow[0] + " ns");
        assertTrue(disk.slowReads() >= 2);
        assertNull(overlay.disk(HOLDER + 100), "no node, no disk");
    }
}
