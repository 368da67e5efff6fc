package io.riptide.dolr.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.crypto.SigningKey;
import io.riptide.core.http.Headers;
import io.riptide.core.id.Id;
import io.riptide.core.object.CachedCopy;
import io.riptide.core.object.KeyRecords;
import io.riptide.core.object.KeyRevocation;
import io.riptide.core.object.ObjectCertificate;
import io.riptide.core.object.RejectReason;
import io.riptide.core.object.StoredResponse;
import io.riptide.core.object.WebObject;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.store.disk.DiskPolicy;
import io.riptide.dolr.admin.PrometheusText;
import io.riptide.dolr.store.StoreSettings;
import io.riptide.dolr.transport.NettyLogWatch;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node with a disk store keeps the provider key revocations it learned across a restart: the
 * revoked key's replica gave way to the revocation before the restart, the restarted node still
 * refuses the key's versions, and a copy of that key's object stored while the node was down (here:
 * put in the store before the node starts) gives way once the node has joined.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class KeyRevocationRestartTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final NodeAddress ANY_PORT = new NodeAddress("127.0.0.1", 0);
    private static final SigningKey PROVIDER = key(9);

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

    private static byte[] copy(String url) {
        byte[] body = ("signed by a key that will be revoked: " + url).getBytes();
        StoredResponse response = new StoredResponse(200, "OK", Headers.of("Content-Type", "text/html"), body);
        return CachedCopy.of(new WebObject(ObjectCertificate.sign(PROVIDER, url, "", 1, response, 1_700_000_000_000L,
                1_700_000_000_100L, 600), response)).toBytes();
    }

    private static Id guid(byte[] copy) throws Exception {
        return CachedCopy.fromBytes(copy, 1 << 20).object().certificate().guid();
    }

    private static <T> T get(CompletableFuture<T> f) throws Exception {
        return f.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    @Test
    void aRestartedNodeStillRefusesTheRevokedKeyAndDropsWhatItSigned() throws Exception {
        StoreSettings store = new StoreSettings(dir.resolve("store"), 64L << 20, 2L << 20, DiskPolicy.LOG);
        byte[] first = copy("http://example.com/a.html");
        byte[] second = copy("http://example.com/b.html");
        Id firstGuid = guid(first);
        Id secondGuid = guid(second);
        KeyRecords revocation = new KeyRecords(List.of(), List.of(KeyRevocation.sign(PROVIDER, PROVIDER.publicKey(), 5)));
        try (OverlayServer node = OverlayServer.start(ServerSettings.of(key(1), ANY_PORT).withStore(store))) {
            assertTrue(node.awaitJoined(WAIT));
            boolean stored = get(node.call(n -> n.storeReplica(firstGuid, first)));
            assertTrue(stored);
            get(node.call(n -> {
                n.learnKeyRecords(revocation);
                return null;
            }));
            Thread.sleep(500); // the sweep reads the store, then replaces on the loop
            byte[] held = get(node.call(n -> n.replicas().get(firstGuid))).get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertArrayEquals(revocation.toBytes(), held, "the replica gave way to the revocation");
        }
        assertTrue(Files.exists(dir.resolve("store").resolve("key-records")), "the revocation was kept beside the store");

        // While the node is down, a copy the revoked key signed lands in its store.
        try (io.riptide.dolr.store.DiskStorage offline = io.riptide.dolr.store.DiskStorage.open(store)) {
            assertTrue(offline.store().put(secondGuid, second));
        }

        try (OverlayServer again = OverlayServer.start(ServerSettings.of(key(1), ANY_PORT).withStore(store))) {
            assertTrue(again.awaitJoined(WAIT));
            boolean remembered = get(again.call(n -> n.revokedKeys().isRevoked(PROVIDER.publicKey())));
            assertTrue(remembered, "remembered");
            Thread.sleep(500); // the sweep after joining reads the store, then replaces on the loop
            byte[] held = get(again.call(n -> n.replicas().get(secondGuid))).get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertTrue(KeyRecords.isKeyRecords(held), "the copy stored while the node was down gave way once it joined");
            boolean admitted = get(again.call(n -> n.updateCheck().admits(secondGuid, second)));
            assertFalse(admitted);
            assertEquals(RejectReason.REVOKED_KEY, get(again.call(n -> n.updateCheck().lastRefusal().orElseThrow()
                    .rejectReason().orElseThrow())));
            String metrics = PrometheusText.render(get(NodeReport.of(again).report()).metrics());
            assertTrue(metrics.contains("riptide_node_revoked_keys 1"), metrics);
            assertTrue(metrics.contains("riptide_node_revoked_versions_refused_total 1"), metrics);
            assertTrue(metrics.contains("riptide_node_revoked_replicas_dropped_total 1"), metrics);
        }
    }

    private static SigningKey key(int n) {
        byte[] seed = new byte[32];
        seed[0] = (byte) n;
        seed[1] = 23;
        return SigningKey.fromSeed(seed);
    }
}
