package io.riptide.dolr.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.crypto.SigningKey;
import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.store.disk.DiskPolicy;
import io.riptide.dolr.location.LocateResult;
import io.riptide.dolr.store.StoreSettings;
import io.riptide.dolr.transport.NettyLogWatch;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A node with a disk store keeps its replicas across a clean restart: after it stops and starts again
 * over the same directory it still holds them, publishes them, and a node that never knew the old
 * incarnation reads each one back byte for byte.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class DiskStoreRestartTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final NodeAddress ANY_PORT = new NodeAddress("127.0.0.1", 0);
    private static final int OBJECTS = 40;

    @TempDir
    Path dir;

    private final NettyLogWatch netty = new NettyLogWatch();

    @AfterEach
    void tearDown() throws InterruptedException {
        try {
            netty.assertClean();
        } finally {
            netty.close();
        }
    }

    @ParameterizedTest
    @EnumSource(DiskPolicy.class)
    void aRestartedNodeServesAndRepublishesWhatItStoredBefore(DiskPolicy policy) throws Exception {
        StoreSettings store = new StoreSettings(dir.resolve("store"), 64L << 20, 2L << 20, policy);
        Map<Id, byte[]> objects = new LinkedHashMap<>();
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < OBJECTS; i++) {
            byte[] data = new byte[1 + random.nextInt(20_000)];
            random.nextBytes(data);
            objects.put(Id.hash("object " + i), data);
        }
        objects.put(Id.hash("same body, other url"), objects.get(Id.hash("object 0")));

        try (OverlayServer first = OverlayServer.start(ServerSettings.of(key(1), ANY_PORT).withStore(store))) {
            assertTrue(first.awaitJoined(WAIT));
            for (Map.Entry<Id, byte[]> e : objects.entrySet()) {
                assertTrue(first.storeReplica(e.getKey(), e.getValue()).get(WAIT.toSeconds(), TimeUnit.SECONDS));
            }
        }

        try (OverlayServer again = OverlayServer.start(ServerSettings.of(key(1), ANY_PORT).withStore(store))) {
            assertTrue(again.awaitJoined(WAIT));
            assertEquals(objects.size(), again.call(n -> n.replicas().objects()).get(WAIT.toSeconds(), TimeUnit.SECONDS),
                    "every replica is back");
            assertEquals(OBJECTS, again.call(n -> n.replicas().bodies()).get(WAIT.toSeconds(), TimeUnit.SECONDS),
                    "the shared body is still stored once");
            try (OverlayServer reader = OverlayServer.start(ServerSettings.of(key(2), ANY_PORT).joining(again.address()))) {
                assertTrue(reader.awaitJoined(WAIT));
                // The restarted node hands its pointers over just after the join; a read before
                // that could reach a root without them.
                long deadline = System.nanoTime() + WAIT.toNanos();
                while (reader.call(n -> n.pointers().size()).get(WAIT.toSeconds(), TimeUnit.SECONDS) < objects.size()) {
                    assertTrue(System.nanoTime() < deadline, "the reader got no pointers for the restarted node's objects");
                    java.util.concurrent.locks.LockSupport.parkNanos(50_000_000); // polling interval only
                }
                for (Map.Entry<Id, byte[]> e : objects.entrySet()) {
                    LocateResult r = read(reader, e.getKey());
                    assertTrue(r.found(), "found " + e.getKey().shortHex() + ": " + r);
                    assertEquals(again.self().id(), r.replica().id());
                    assertArrayEquals(e.getValue(), r.data(), "byte for byte: " + e.getKey().shortHex());
                }
            }
        }
    }

    private static LocateResult read(OverlayServer server, Id guid) throws Exception {
        CompletableFuture<LocateResult> result = new CompletableFuture<>();
        server.call(n -> {
            n.read(guid, 16, result::complete);
            return null;
        }).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        return result.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    private static SigningKey key(int n) {
        byte[] seed = new byte[32];
        seed[0] = (byte) n;
        seed[1] = 42;
        return SigningKey.fromSeed(seed);
    }
}
