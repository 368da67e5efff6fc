package io.riptide.core.store.disk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.crypto.SigningKey;
import io.riptide.core.http.Headers;
import io.riptide.core.id.Id;
import io.riptide.core.object.CachedCopy;
import io.riptide.core.object.ObjectCertificate;
import io.riptide.core.object.StoredResponse;
import io.riptide.core.object.WebObject;
import io.riptide.core.store.ContentStore;
import io.riptide.core.store.ReplicaHead;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** A content store over a disk tier survives close-and-reopen (and a crash after a flush): its reference counts are rebuilt by scan. */
class ContentStoreOnDiskTest {
    private static final SigningKey PROVIDER = SigningKey.fromSeed(filled(32, 7));
    private static final long REQUEST_MS = 1_700_000_000_000L;

    @TempDir
    Path dir;

    private final List<Id> evicted = new ArrayList<>();

    private static byte[] filled(int n, int b) {
        byte[] s = new byte[n];
        Arrays.fill(s, (byte) b);
        return s;
    }

    private static byte[] body(int length, long seed) {
        byte[] b = new byte[length];
        new SplittableRandom(seed).nextBytes(b);
        return b;
    }

    private static CachedCopy copy(int i, byte[] body) {
        String url = "http://example.com/page/" + i;
        StoredResponse response = new StoredResponse(200, "OK", Headers.of("Content-Type", "text/html", "ETag", "\"v1\""), body);
        ObjectCertificate cert = ObjectCertificate.sign(PROVIDER, url, "", 1, response, REQUEST_MS, REQUEST_MS + 10, 600);
        return CachedCopy.of(new WebObject(cert, response));
    }

    private static Id guid(CachedCopy c) {
        return c.object().certificate().guid();
    }

    private static byte[] sha256(byte[] b) {
        return ReplicaHead.sha256(b, 0, b.length);
    }

    private DiskTierConfig config(DiskPolicy policy) {
        DiskTierConfig c = policy == DiskPolicy.LOG ? DiskTierConfig.log(dir.resolve("store.log"), 1024, 4 << 20)
                : DiskTierConfig.setMem(dir.resolve("store.tab"), 1024, 4096);
        return c.withSync(false).withBufferBytes(64 << 10).withFlushInterval(Duration.ofSeconds(30))
                .withCheckpointInterval(Duration.ofSeconds(30));
    }

    private ContentStore open(DiskTierConfig config) {
        return ContentStore.open(hook -> DiskTier.open(config, hook), evicted::add);
    }

    @ParameterizedTest
    @EnumSource(DiskPolicy.class)
    void dedupedBodiesKeepTheirReferenceCountsAcrossARestart(DiskPolicy policy) {
        DiskTierConfig config = config(policy);
        int k = 6;
        byte[] shared = body(1500, 40);
        byte[] own = body(700, 41);
        List<CachedCopy> copies = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            copies.add(copy(i, shared));
        }
        CachedCopy other = copy(k, own);

        ContentStore store = open(config);
        copies.forEach(c -> assertTrue(store.put(guid(c), c.toBytes())));
        assertTrue(store.put(guid(other), other.toBytes()));
        assertEquals(2, store.bodyWrites(), "the shared body was written once, the other once");
        store.close();

        ContentStore reopened = open(config);
        try {
            assertEquals(k + 1, reopened.objects());
            assertEquals(2, reopened.bodies());
            assertEquals(k, reopened.references(sha256(shared)), "the shared body's count was rebuilt");
            assertEquals(1, reopened.references(sha256(own)));
            assertEquals(shared.length + own.length, reopened.payloadBytes());
            assertEquals(k + 3, reopened.tier().records(), "K+1 object records and two body records");
            for (CachedCopy c : copies) {
                assertArrayEquals(c.toBytes(), reopened.get(guid(c)).join(), "reassembled byte for byte");
            }
            for (int i = 0; i < k - 1; i++) {
                assertTrue(reopened.remove(guid(copies.get(i))));
            }
            assertTrue(reopened.holdsBody(sha256(shared)), "the last user keeps the body");
            assertEquals(1, reopened.references(sha256(shared)));
            assertArrayEquals(copies.get(k - 1).toBytes(), reopened.get(guid(copies.get(k - 1))).join());
            assertTrue(reopened.remove(guid(copies.get(k - 1))));
            assertFalse(reopened.holdsBody(sha256(shared)), "dropped at zero");
            assertNull(reopened.get(guid(copies.get(k - 1))).join());
            assertEquals(2, reopened.tier().records(), "the other object and its body");
        } finally {
            reopened.close();
        }

        // The removals are durable: a second restart sees only the other object.
        ContentStore third = open(config);
        try {
            assertEquals(1, third.objects());
            assertEquals(1, third.bodies());
            assertFalse(third.holdsBody(sha256(shared)));
            assertEquals(1, third.references(sha256(own)));
            assertArrayEquals(other.toBytes(), third.get(guid(other)).join());
        } finally {
            third.close();
        }
        assertTrue(evicted.isEmpty(), "nothing was evicted: " + evicted);
    }

    @ParameterizedTest
    @EnumSource(DiskPolicy.class)
    void aCrashAfterAFlushRebuildsTheCountsToo(DiskPolicy policy) {
        DiskTierConfig config = config(policy);
        int k = 4;
        byte[] shared = body(2000, 50);
        List<CachedCopy> copies = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            copies.add(copy(i, shared));
        }
        ContentStore store = open(config);
        copies.forEach(c -> store.put(guid(c), c.toBytes()));
        store.flush();
        ((DiskTier) store.tier()).simulateCrash();

        ContentStore reopened = open(config);
        try {
            assertEquals(k, reopened.objects());
            assertEquals(1, reopened.bodies());
            assertEquals(k, reopened.references(sha256(shared)));
            for (int i = 0; i < k - 1; i++) {
                reopened.remove(guid(copies.get(i)));
            }
            assertTrue(reopened.holdsBody(sha256(shared)));
            assertArrayEquals(copies.get(k - 1).toBytes(), reopened.get(guid(copies.get(k - 1))).join());
            reopened.remove(guid(copies.get(k - 1)));
            assertFalse(reopened.holdsBody(sha256(shared)));
            assertEquals(0, reopened.tier().records());
        } finally {
            reopened.close();
        }
    }
}
