package io.riptide.dolr.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.DefaultEventLoopGroup;
import io.netty.channel.EventLoop;
import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.runtime.real.RealEnv;
import io.riptide.core.runtime.real.Transport;
import io.riptide.core.stage.Stages;
import io.riptide.core.store.MapTier;
import io.riptide.core.store.RecordTier;
import io.riptide.core.wire.WireMessage;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.OverlayApplication;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.membership.MembershipMessages.Ping;
import io.riptide.dolr.membership.MembershipMessages.Pong;
import io.riptide.dolr.server.ServerSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node whose disk is slow (every put of its tier sleeps) keeps handling messages on its loop at
 * once: its writes run on the node's disk stage, a read of a key whose write is queued sees the
 * write, a full queue refuses the replica put (counted) instead of blocking, and closing runs what
 * is still queued.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SlowDiskTest {
    /** What one record put costs the slow disk. */
    private static final Duration PUT = Duration.ofMillis(250);
    /** A loop that is not blocked answers well within this, even on a loaded machine. */
    private static final Duration PROMPT = Duration.ofMillis(150);
    private static final NodeAddress PEER = new NodeAddress("127.0.0.1", 9);

    @TempDir
    Path dir;

    private final DefaultEventLoopGroup loops = new DefaultEventLoopGroup(1);
    private final EventLoop loop = loops.next();
    private final Stages stages = Stages.start(ServerSettings.defaultDiskStage());
    private final Map<Long, Long> pongNanos = new ConcurrentHashMap<>();
    private final Set<String> putThreads = ConcurrentHashMap.newKeySet();
    private DiskStorage storage;
    private OverlayNode node;

    @AfterEach
    void tearDown() {
        if (storage != null) {
            storage.close();
        }
        stages.close();
        loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** A tier whose every put (and remove) sleeps first: a disk far slower than the loop. */
    private final class SlowTier implements RecordTier {
        private final MapTier inner;

        SlowTier(Consumer<Id> evicted) {
            this.inner = new MapTier(1L << 30, evicted);
        }

        @Override
        public boolean put(Id key, byte[] value) {
            putThreads.add(Thread.currentThread().getName());
            LockSupport.parkNanos(PUT.toNanos()); // the slow disk itself
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
            LockSupport.parkNanos(PUT.toNanos());
            return inner.remove(key);
        }

        @Override
        public long records() {
            return inner.records();
        }

        @Override
        public CompletableFuture<Void> scan(java.util.function.BiConsumer<Id, byte[]> visitor) {
            return inner.scan(visitor);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }

    private void start(DiskWrites.Limits limits) throws Exception {
        storage = DiskStorage.over(dir, SlowTier::new, limits);
        NodeHandle self = new NodeHandle(Id.hash("slow disk node"), new NodeAddress("127.0.0.1", 1));
        Transport transport = new Transport() {
            @Override
            public void send(NodeAddress to, WireMessage message) {
                if (message instanceof Pong pong) {
                    pongNanos.put(pong.nonce(), System.nanoTime());
                }
            }

            @Override
            public void close() {
            }
        };
        RealEnv env = new RealEnv(loop, self, transport, stages, new SplittableRandom(1));
        node = onLoop(() -> {
            OverlayNode n = new OverlayNode(env, DolrConfig.defaults(), storage, x -> OverlayApplication.NONE);
            n.startAlone();
            return n;
        });
    }

    private <T> T onLoop(Callable<T> task) throws Exception {
        return loop.submit(task).get(10, TimeUnit.SECONDS);
    }

    private static byte[] replica(int i) {
        byte[] b = new byte[1000 + i];
        new SplittableRandom(i).nextBytes(b);
        return b;
    }

    /** Delivers a ping to the node and returns how long its pong took to go out. */
    private long pingNanos(long nonce) throws Exception {
        long sent = System.nanoTime();
        loop.execute(() -> node.onMessage(new NodeHandle(Id.hash("peer"), PEER), new Ping(nonce, false)));
        long deadline = sent + Duration.ofSeconds(10).toNanos();
        while (!pongNanos.containsKey(nonce)) {
            assertTrue(System.nanoTime() < deadline, "no pong for ping " + nonce);
            LockSupport.parkNanos(1_000_000); // polling interval only
        }
        return pongNanos.get(nonce) - sent;
    }

    private void awaitWrites(long completed) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (storage.writeStats().completed() < completed) {
            assertTrue(System.nanoTime() < deadline, "the disk writes never finished: " + storage.writeStats());
            LockSupport.parkNanos(10_000_000); // polling interval only
        }
    }

    @Test
    void aSlowDiskDelaysNoMessageAndReadsSeeTheQueuedWrites() throws Exception {
        start(DiskWrites.Limits.DEFAULT);
        int objects = 4; // a head and a body record each: 8 puts, 2 s of disk
        long began = System.nanoTime();
        for (int i = 0; i < objects; i++) {
            int n = i;
            assertTrue(onLoop(() -> node.storeReplica(Id.hash("object " + n), replica(n))));
        }
        long storing = System.nanoTime() - began;
        assertTrue(storing < PROMPT.toNanos() * objects,
                "storing took " + storing / 1_000_000 + " ms on the loop; one put alone sleeps " + PUT.toMillis() + " ms");

        // While the disk works through its backlog, the loop answers every ping at once.
        List<Long> latencies = new ArrayList<>();
        for (long nonce = 1; nonce <= 5; nonce++) {
            latencies.add(pingNanos(nonce));
            LockSupport.parkNanos(50_000_000); // spacing only
        }
        DiskWrites.Stats during = storage.writeStats();
        assertTrue(during.completed() < 2L * objects, "the pings overlapped the disk's work: " + during);
        for (long l : latencies) {
            assertTrue(l < PROMPT.toNanos(), "a ping waited " + l / 1_000_000 + " ms for the loop: " + latencies);
        }

        // Read-your-writes: a queued replica is served from memory, at once, byte for byte.
        for (int i = 0; i < objects; i++) {
            Id guid = Id.hash("object " + i);
            CompletableFuture<byte[]> read = onLoop(() -> node.replicas().get(guid));
            if (storage.pendingKeys() > 0) {
                assertTrue(read.isDone(), "a queued write is read from memory");
            }
            assertArrayEquals(replica(i), read.get(10, TimeUnit.SECONDS));
        }

        awaitWrites(2L * objects);
        assertEquals(0, storage.pendingKeys());
        assertEquals(0, storage.writeStats().refused());
        assertFalse(putThreads.isEmpty());
        for (String thread : putThreads) {
            assertTrue(thread.startsWith("stage-" + ServerSettings.DISK_STAGE), "a put ran on " + thread);
        }
        for (int i = 0; i < objects; i++) {
            Id guid = Id.hash("object " + i);
            byte[] read = onLoop(() -> node.replicas().get(guid)).get(10, TimeUnit.SECONDS);
            assertArrayEquals(replica(i), read, "from the tier once written");
        }
        assertTrue(pingNanos(99) < PROMPT.toNanos());
    }

    @Test
    void aFullQueueRefusesTheReplicaAndCountsItWithoutBlockingTheLoop() throws Exception {
        start(new DiskWrites.Limits(4, 1L << 20));
        // Two replicas fill the queue (four records); the third is refused at once.
        assertTrue(onLoop(() -> node.storeReplica(Id.hash("a"), replica(1))));
        assertTrue(onLoop(() -> node.storeReplica(Id.hash("b"), replica(2))));
        long began = System.nanoTime();
        boolean third = onLoop(() -> node.storeReplica(Id.hash("c"), replica(3)));
        long took = System.nanoTime() - began;
        assertFalse(third, "the write queue was full");
        assertTrue(took < PROMPT.toNanos(), "refusing took " + took / 1_000_000 + " ms");
        assertFalse(onLoop(() -> node.replicas().contains(Id.hash("c"))));
        assertEquals(1, storage.writeStats().refused());
        assertEquals(1, node.diskWrites().orElseThrow().refused());
        assertTrue(pingNanos(1) < PROMPT.toNanos());

        awaitWrites(4);
        assertTrue(onLoop(() -> node.replicas().contains(Id.hash("a"))));
        assertArrayEquals(replica(2), onLoop(() -> node.replicas().get(Id.hash("b"))).get(10, TimeUnit.SECONDS));
        // Room again: the replica refused before is taken now.
        assertTrue(onLoop(() -> node.storeReplica(Id.hash("c"), replica(3))));
    }

    @Test
    void closingRunsWhatIsStillQueued() throws Exception {
        start(DiskWrites.Limits.DEFAULT);
        for (int i = 0; i < 3; i++) {
            int n = i;
            assertTrue(onLoop(() -> node.storeReplica(Id.hash("object " + n), replica(n))));
        }
        onLoop(() -> {
            node.dropReplica(Id.hash("object 2")); // a remove queued behind its own puts
            return null;
        });
        assertTrue(storage.writeStats().queued() > 0, "writes still queued: " + storage.writeStats());
        onLoop(() -> null); // nothing of the node runs on the loop any more: it is idle
        storage.close();
        DiskWrites.Stats after = storage.writeStats();
        assertEquals(0, after.queued());
        assertEquals(after.accepted(), after.completed(), "every write ran: " + after);
        assertEquals(0, after.failed());
        storage = null;
    }

    @Test
    void theVersionFloorPersistsBesideTheStore() throws Exception {
        start(DiskWrites.Limits.DEFAULT);
        Id guid = Id.hash("floored");
        onLoop(() -> {
            node.versionFloor().raise(guid, 3);
            return null;
        });
        storage.close();
        storage = DiskStorage.over(dir, SlowTier::new, DiskWrites.Limits.DEFAULT);
        assertEquals(3, storage.versionFloor().orElseThrow().floor(guid));
        assertNotNull(storage.store());
    }
}
