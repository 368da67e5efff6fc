package io.riptide.dolr.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.sim.SimNetwork;
import io.riptide.core.runtime.sim.SimStageSpec;
import io.riptide.core.runtime.sim.Simulation;
import io.riptide.core.store.MapTier;
import io.riptide.core.store.RecordTier;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.OverlayApplication;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.location.LocateResult;
import io.riptide.dolr.server.ServerSettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * In simulation a disk store's writes go through the simulated host's {@code disk} stage: they land
 * in virtual time, batch after batch, while the node (and a peer reading through it) sees them at
 * once; and the same seed gives the same run, write for write.
 */
class DiskWritesSimulationTest {
    private static final long MS = 1_000_000L;
    /** One batch of writes on the simulated disk. */
    private static final long BATCH_NANOS = 20 * MS;

    @TempDir
    Path dir;

    /** Records each record put that reaches the tier, with its virtual time. */
    private record TracingTier(MapTier inner, Simulation sim, List<String> trace) implements RecordTier {
        @Override
        public boolean put(Id key, byte[] value) {
            trace.add(sim.now() / MS + " ms put " + key.shortHex() + " " + value.length);
            return inner.put(key, value);
        }

        @Override
        public CompletableFuture<byte[]> get(Id key) {
            return inner.get(key);
        }

        @Override
        public boolean mayContain(Id key) {
            return inner.mayContain(key);
        }

        @Override
        public boolean remove(Id key) {
            trace.add(sim.now() / MS + " ms remove " + key.shortHex());
            return inner.remove(key);
        }

        @Override
        public long records() {
            return inner.records();
        }

        @Override
        public CompletableFuture<Void> scan(BiConsumer<Id, byte[]> visitor) {
            return inner.scan(visitor);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }

    private static byte[] replica(int i) {
        byte[] b = new byte[2000 + i];
        new SplittableRandom(i).nextBytes(b);
        return b;
    }

    private List<String> run(Path storeDir) {
        Simulation sim = new Simulation(7);
        SimNetwork network = new SimNetwork(sim, (a, b) -> a == b ? 0 : MS);
        network.defineStage(new SimStageSpec(ServerSettings.defaultDiskStage(), BATCH_NANOS));
        List<String> trace = new ArrayList<>();
        DiskStorage storage = DiskStorage.over(storeDir, hook -> new TracingTier(new MapTier(1L << 26, hook), sim, trace),
                DiskWrites.Limits.DEFAULT);
        OverlayNode[] nodes = new OverlayNode[2];
        network.start(Id.hash("disk node"), 0, env -> nodes[0] = new OverlayNode(env, DolrConfig.defaults(), storage,
                n -> OverlayApplication.NONE));
        network.start(Id.hash("reader"), 1, env -> nodes[1] = new OverlayNode(env, DolrConfig.defaults(),
                n -> OverlayApplication.NONE));
        OverlayNode disk = nodes[0];
        OverlayNode reader = nodes[1];
        disk.startAlone();
        reader.join(NodeAddress.simulated(0));
        sim.runFor(10_000 * MS);
        assertTrue(reader.isJoined());

        int objects = 5; // a head and a body record each
        for (int i = 0; i < objects; i++) {
            assertTrue(disk.storeReplica(Id.hash("object " + i), replica(i)));
        }
        trace.add("stored at " + sim.now() / MS + " ms, " + disk.diskWrites().orElseThrow().queued() + " writes queued");
        assertTrue(disk.diskWrites().orElseThrow().queued() >= 2 * objects - 1, "the stage was busy: " + trace);

        // The reader finds the last object while its records still wait for the disk stage.
        LocateResult[] found = new LocateResult[1];
        reader.read(Id.hash("object " + (objects - 1)), 16, r -> found[0] = r);
        sim.runFor(BATCH_NANOS / 2);
        assertTrue(found[0] != null && found[0].found(), "read before the write landed: " + found[0]);
        assertArrayEquals(replica(objects - 1), found[0].data());
        assertTrue(storage.pendingKeys() > 0, "the records were still queued when read");
        trace.add("read at " + sim.now() / MS + " ms with " + storage.pendingKeys() + " keys pending");

        sim.runFor(1_000 * MS);
        DiskWrites.Stats stats = disk.diskWrites().orElseThrow();
        assertEquals(0, stats.queued());
        assertEquals(2L * objects, stats.completed(), "every record written: " + trace);
        assertTrue(stats.batches() >= 2, "the later writes waited for the first batch's service: " + stats);
        assertEquals(0, storage.pendingKeys());
        trace.add(stats.toString());
        storage.close();
        return trace;
    }

    @Test
    void writesLandBatchByBatchInVirtualTimeAndTheSameSeedRepeatsTheRun() {
        List<String> first = run(dir.resolve("first"));
        List<String> second = run(dir.resolve("second"));
        assertEquals(first, second);
    }
}
