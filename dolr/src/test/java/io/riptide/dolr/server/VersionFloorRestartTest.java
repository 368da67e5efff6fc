package io.riptide.dolr.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.crypto.SigningKey;
import io.riptide.core.http.Headers;
import io.riptide.core.id.Id;
import io.riptide.core.object.ObjectCertificate;
import io.riptide.core.object.ObjectVerifier;
import io.riptide.core.object.RejectReason;
import io.riptide.core.object.StoredResponse;
import io.riptide.core.object.Verification;
import io.riptide.core.object.WebObject;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.store.disk.DiskPolicy;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.admin.PrometheusText;
import io.riptide.dolr.store.StoreSettings;
import io.riptide.dolr.store.VersionFloorFile;
import io.riptide.dolr.transport.NettyLogWatch;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node with a disk store keeps its version floor across a restart: having accepted version 3 of an
 * object, the node restarted over the same directory refuses version 2 (a replay) and counts it,
 * as it did before the restart; a node without the store's directory forgets, as before.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class VersionFloorRestartTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final NodeAddress ANY_PORT = new NodeAddress("127.0.0.1", 0);
    private static final SigningKey PROVIDER = key(9);
    private static final String URL = "http://example.com/floor.html";

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

    private static WebObject version(long v) {
        byte[] body = ("version " + v).getBytes();
        StoredResponse response = new StoredResponse(200, "OK", Headers.of("Content-Type", "text/html"), body);
        return new WebObject(ObjectCertificate.sign(PROVIDER, URL, "", v, response, 1_700_000_000_000L, 1_700_000_000_100L, 600),
                response);
    }

    /** What an agent on the node does with a copy it is offered: verify it against the node's floor. */
    private static Verification offer(OverlayNode node, WebObject object) {
        return new ObjectVerifier(Set.of(PROVIDER.publicKey()), node.versionFloor(), 1 << 20)
                .verify(object, object.certificate().guid());
    }

    private static <T> T get(java.util.concurrent.CompletableFuture<T> f) throws Exception {
        return f.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    @Test
    void aRestartedNodeStillRefusesAVersionOlderThanOneItAccepted() throws Exception {
        StoreSettings store = new StoreSettings(dir.resolve("store"), 64L << 20, 2L << 20, DiskPolicy.LOG);
        Id guid = version(3).certificate().guid();
        try (OverlayServer first = OverlayServer.start(ServerSettings.of(key(1), ANY_PORT).withStore(store))) {
            assertTrue(first.awaitJoined(WAIT));
            assertTrue(get(first.call(n -> offer(n, version(3)))).ok());
            Verification replay = get(first.call(n -> offer(n, version(2))));
            assertEquals(RejectReason.STALE_VERSION, replay.rejectReason().orElseThrow(), replay.message());
            assertEquals(1L, (long) get(first.call(n -> n.versionFloor().refused())));
        }
        assertTrue(Files.size(dir.resolve("store").resolve(VersionFloorFile.NAME)) > 8, "the floor was written");

        try (OverlayServer again = OverlayServer.start(ServerSettings.of(key(1), ANY_PORT).withStore(store))) {
            assertTrue(again.awaitJoined(WAIT));
            assertEquals(3L, (long) get(again.call(n -> n.versionFloor().floor(guid))));
            Verification replay = get(again.call(n -> offer(n, version(2))));
            assertEquals(RejectReason.STALE_VERSION, replay.rejectReason().orElseThrow(), replay.message());
            assertEquals(1L, (long) get(again.call(n -> n.versionFloor().refused())), "counted (the count itself starts afresh)");
            assertTrue(get(again.call(n -> offer(n, version(3)))).ok(), "the accepted version is still current");
            String metrics = PrometheusText.render(get(NodeReport.of(again).report()).metrics());
            assertTrue(metrics.contains("riptide_node_version_floor_refused_total 1"), metrics);
            assertTrue(metrics.contains("riptide_node_version_floor_guids 1"), metrics);
        }

        // Without the store, the node keeps no floor across restarts: the replay passes, as before.
        try (OverlayServer inMemory = OverlayServer.start(ServerSettings.of(key(1), ANY_PORT))) {
            assertTrue(inMemory.awaitJoined(WAIT));
            assertTrue(get(inMemory.call(n -> offer(n, version(2)))).ok());
        }
    }

    private static SigningKey key(int n) {
        byte[] seed = new byte[32];
        seed[0] = (byte) n;
        seed[1] = 17;
        return SigningKey.fromSeed(seed);
    }
}
