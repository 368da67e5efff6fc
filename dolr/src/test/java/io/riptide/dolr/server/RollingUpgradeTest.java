package io.riptide.dolr.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.riptide.core.crypto.SigningKey;
import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.store.disk.DiskPolicy;
import io.riptide.core.wire.Frames;
import io.riptide.dolr.client.ObjectRead;
import io.riptide.dolr.client.OverlayClient;
import io.riptide.dolr.store.StoreSettings;
import io.riptide.dolr.transport.NettyLogWatch;
import io.riptide.dolr.transport.TransportConfig;
import io.riptide.dolr.transport.WireVersions;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rolling upgrade under load: an overlay of nodes speaking wire version 8 alone (as the previous
 * release does, byte for byte) is upgraded node by node, each stopped and started again over its
 * own disk store and port, speaking every version, while a client reads continuously through the
 * overlay (three reads at a time). Every read succeeds, and the links run at the version a peer would see: 8 between two
 * old nodes and between an old and a new one, the newest between two new ones.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class RollingUpgradeTest {
    private static final String HOST = "127.0.0.1";
    private static final int NODES = 4;
    private static final int OBJECTS = 24;
    /** Clients' reads at once: each reader waits for its read before the next. */
    private static final int READERS = 3;
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Duration READ_DEADLINE = Duration.ofSeconds(10);
    private static final TransportConfig OLD = TransportConfig.defaults().withWireVersions(WireVersions.only(Frames.OLDEST_VERSION));
    private static final TransportConfig NEW = TransportConfig.defaults();

    @TempDir
    Path dir;

    private final NettyLogWatch netty = new NettyLogWatch();
    private final OverlayServer[] nodes = new OverlayServer[NODES];
    private final boolean[] upgraded = new boolean[NODES];
    private OverlayClient client;

    @AfterEach
    void tearDown() throws InterruptedException {
        try {
            if (client != null) {
                client.close();
            }
            for (OverlayServer node : nodes) {
                if (node != null) {
                    node.close();
                }
            }
            netty.assertClean();
        } finally {
            netty.close();
        }
    }

    @Test
    void anOverlayUpgradedNodeByNodeUnderLoadFailsNoRead() throws Exception {
        nodes[0] = start(0, 0, OLD, null);
        for (int i = 1; i < NODES; i++) {
            nodes[i] = start(i, 0, OLD, nodes[0].address());
        }
        for (OverlayServer node : nodes) {
            assertTrue(node.awaitJoined(WAIT));
        }
        // Each object on two nodes, so that one stays while the other restarts.
        List<Id> guids = new ArrayList<>();
        List<byte[]> bodies = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(18);
        for (int k = 0; k < OBJECTS; k++) {
            byte[] body = new byte[1 + random.nextInt(8_000)];
            random.nextBytes(body);
            Id guid = Id.hash("rolling upgrade object " + k);
            guids.add(guid);
            bodies.add(body);
            for (int copy = 0; copy < 2; copy++) {
                assertTrue(nodes[(k + copy) % NODES].storeReplica(guid, body).get(WAIT.toSeconds(), TimeUnit.SECONDS));
            }
        }
        List<NodeAddress> seeds = Arrays.stream(nodes).map(OverlayServer::address).toList();
        client = OverlayClient.start(key(99), seeds, READ_DEADLINE);
        for (int k = 0; k < OBJECTS; k++) {
            awaitReadable(guids.get(k), bodies.get(k));
        }
        awaitLinkVersions();

        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger reads = new AtomicInteger();
        List<String> failures = new CopyOnWriteArrayList<>();
        List<Thread> readers = new ArrayList<>();
        for (int t = 0; t < READERS; t++) {
            int first = t * OBJECTS / READERS;
            readers.add(new Thread(() -> {
                for (int i = first; !stop.get(); i++) {
                    int k = i % OBJECTS;
                    try {
                        ObjectRead r = client.read(guids.get(k), 16).get(2 * READ_DEADLINE.toSeconds(), TimeUnit.SECONDS);
                        if (!r.found() || !Arrays.equals(bodies.get(k), r.data())) {
                            failures.add("read " + i + " of object " + k + ": " + r.failure());
                        }
                    } catch (Exception e) {
                        failures.add("read " + i + " of object " + k + ": " + e);
                    }
                    reads.incrementAndGet();
                }
            }, "rolling-upgrade-reader-" + t));
        }
        readers.forEach(Thread::start);
        try {
            for (int i = 0; i < NODES; i++) {
                // Reads must go on while the node is down and after it is back (awaitReads fails if they stall).
                int before = reads.get();
                NodeAddress at = nodes[i].address();
                nodes[i].close();
                awaitReads(reads, before + OBJECTS / 4, "reads while node " + i + " is down");
                nodes[i] = start(i, at.port(), NEW, nodes[(i + 1) % NODES].address());
                upgraded[i] = true;
                assertTrue(nodes[i].awaitJoined(WAIT), "node " + i + " joined again");
                awaitLinkVersions();
                awaitReads(reads, reads.get() + OBJECTS, "reads after node " + i + " was upgraded");
            }
        } finally {
            stop.set(true);
            for (Thread reader : readers) {
                reader.join(TimeUnit.SECONDS.toMillis(3 * READ_DEADLINE.toSeconds()));
            }
        }
        assertEquals(List.of(), failures, "every read of " + reads.get() + " succeeded");
        for (OverlayServer node : nodes) {
            assertEquals(0, node.transportMetrics().handshakesVersionRefused(), "no peer refused for its version");
        }
    }

    /** Waits until every node has a link to every other, at the version both speak at their best. */
    private void awaitLinkVersions() throws InterruptedException {
        long end = System.nanoTime() + WAIT.toNanos();
        while (true) {
            List<String> wrong = new ArrayList<>();
            for (int a = 0; a < NODES; a++) {
                for (int b = 0; b < NODES; b++) {
                    if (a == b) {
                        continue;
                    }
                    int expected = upgraded[a] && upgraded[b] ? Frames.VERSION : Frames.OLDEST_VERSION;
                    OptionalInt version = nodes[a].linkVersion(nodes[b].address());
                    if (version.isEmpty() || version.getAsInt() != expected) {
                        wrong.add(a + "→" + b + ": " + version + ", expected " + expected);
                    }
                }
            }
            if (wrong.isEmpty()) {
                return;
            }
            if (System.nanoTime() > end) {
                fail("links not at the expected versions after " + WAIT + ": " + wrong);
            }
            Thread.sleep(50);
        }
    }

    private void awaitReadable(Id guid, byte[] body) throws Exception {
        long end = System.nanoTime() + WAIT.toNanos();
        while (true) {
            ObjectRead r = client.read(guid, 16).get(2 * READ_DEADLINE.toSeconds(), TimeUnit.SECONDS);
            if (r.found() && Arrays.equals(body, r.data())) {
                return;
            }
            if (System.nanoTime() > end) {
                fail("object " + guid.shortHex() + " never readable before the upgrade: " + r.failure());
            }
            Thread.sleep(50);
        }
    }

    private static void awaitReads(AtomicInteger reads, int atLeast, String what) throws InterruptedException {
        long end = System.nanoTime() + WAIT.toNanos();
        while (reads.get() < atLeast) {
            if (System.nanoTime() > end) {
                fail(what + ": only " + reads.get() + " of " + atLeast + " after " + WAIT);
            }
            Thread.sleep(10);
        }
    }

    private OverlayServer start(int i, int port, TransportConfig transport, NodeAddress bootstrap) {
        StoreSettings store = new StoreSettings(dir.resolve("node-" + i), 64L << 20, 2L << 20, DiskPolicy.values()[0]);
        ServerSettings settings = ServerSettings.of(key(i), new NodeAddress(HOST, port)).withStore(store).withTransport(transport);
        if (bootstrap != null) {
            settings = settings.joining(bootstrap);
        }
        // A port just closed is free again at its I/O loop's next select: retry for a bounded moment.
        for (int attempt = 0; ; attempt++) {
            try {
                return OverlayServer.start(settings);
            } catch (UncheckedIOException | IllegalStateException e) {
                if (port == 0 || attempt >= 50) {
                    throw e;
                }
                sleep(20);
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static SigningKey key(int n) {
        byte[] seed = new byte[32];
        seed[0] = (byte) n;
        seed[1] = 18;
        return SigningKey.fromSeed(seed);
    }
}
