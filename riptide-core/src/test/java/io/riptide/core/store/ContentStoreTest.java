package io.riptide.core.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import io.riptide.core.object.CachedCopy;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Duplicate storage avoidance, digests computed locally, evictions and restart of the content store. */
class ContentStoreTest {
    private final List<Id> evicted = new ArrayList<>();
    private MapTier mapTier;

    private ContentStore overMap() {
        return ContentStore.open(hook -> mapTier = new MapTier(hook), evicted::add);
    }

    private static byte[] read(ContentStore store, Id guid) {
        return store.get(guid).join();
    }

    @Test
    void kUrlsWithOneBodyStoreTheBodyOnce() {
        ContentStore store = overMap();
        byte[] body = Replicas.body(4096, 1);
        int k = 20;
        List<CachedCopy> copies = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            CachedCopy copy = Replicas.copy(Replicas.url(i), 1, body);
            copies.add(copy);
            assertTrue(store.put(Replicas.guid(copy), copy.toBytes()));
        }
        assertEquals(k, store.objects());
        assertEquals(1, store.bodies());
        assertEquals(1, store.bodyWrites(), "the body was written once");
        assertEquals(k - 1, store.bodiesShared());
        assertEquals(body.length, store.payloadBytes());
        assertEquals(k + 1, mapTier.records(), "K object records and one body record");
        assertTrue(mapTier.bytes() < body.length + k * 1024L, "the tier holds the body once: " + mapTier.bytes());
        assertEquals(k, store.references(Replicas.sha256(body)));
        for (CachedCopy copy : copies) {
            assertArrayEquals(copy.toBytes(), read(store, Replicas.guid(copy)), "reassembled byte for byte");
        }
        // The split found the web object's body: the head is the certificate and formats, not 4 KiB.
        ReplicaHead head = store.head(Replicas.guid(copies.get(0))).join();
        assertEquals(body.length, head.bodyLength());
        assertArrayEquals(Replicas.sha256(body), head.digest());

        for (int i = 0; i < k - 1; i++) {
            assertTrue(store.remove(Replicas.guid(copies.get(i))));
        }
        assertEquals(1, store.bodies(), "the last user keeps the body");
        assertArrayEquals(copies.get(k - 1).toBytes(), read(store, Replicas.guid(copies.get(k - 1))));
        assertTrue(store.remove(Replicas.guid(copies.get(k - 1))));
        assertEquals(0, store.bodies(), "dropped at zero");
        assertEquals(0, mapTier.records());
        assertEquals(0, store.payloadBytes());
        assertTrue(evicted.isEmpty(), "removals are not reported as evictions");
    }

    @Test
    void peekReadsAReplicaWithoutCountingAUse() {
        ContentStore store = ContentStore.open(hook -> new MapTier(3 * 4200, hook), evicted::add);
        CachedCopy first = Replicas.copy(Replicas.url(1), 1, Replicas.body(4096, 1));
        CachedCopy second = Replicas.copy(Replicas.url(2), 1, Replicas.body(4096, 2));
        assertTrue(store.put(Replicas.guid(first), first.toBytes()));
        assertTrue(store.put(Replicas.guid(second), second.toBytes()));
        assertArrayEquals(first.toBytes(), store.peek(Replicas.guid(first)), "byte for byte, as get");
        assertNull(store.peek(Id.hash("not held")));
        // Peeked, not used: the first stays the least recently used, so a third object evicts it.
        CachedCopy third = Replicas.copy(Replicas.url(3), 1, Replicas.body(4096, 3));
        assertTrue(store.put(Replicas.guid(third), third.toBytes()));
        assertEquals(List.of(Replicas.guid(first)), evicted);
        assertNotNull(store.peek(Replicas.guid(second)));
    }

    @Test
    void replacementCountsASharedBodyOnce() {
        List<MemoryTier> tiers = new ArrayList<>();
        ContentStore store = ContentStore.open(hook -> {
            MemoryTier t = new MemoryTier(64 * 1024, hook);
            tiers.add(t);
            return t;
        }, evicted::add);
        byte[] body = Replicas.body(16 * 1024, 2);
        int k = 50; // 50 copies of a 16 KiB body: 800 KiB if stored per URL, in a 64 KiB tier
        List<CachedCopy> copies = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            CachedCopy copy = Replicas.copy(Replicas.url(i), 1, body);
            copies.add(copy);
            assertTrue(store.put(Replicas.guid(copy), copy.toBytes()), "copy " + i);
        }
        assertTrue(evicted.isEmpty(), "nothing evicted: " + evicted.size());
        assertEquals(k, store.objects());
        assertEquals(1, store.bodies());
        assertTrue(tiers.get(0).weightedBytes() <= 64 * 1024);
        for (CachedCopy copy : copies) {
            assertArrayEquals(copy.toBytes(), read(store, Replicas.guid(copy)));
        }
        store.close();
        assertEquals(0, tiers.get(0).liveBuffers(), "every direct buffer released");
    }

    @Test
    void aUrlRotatingAmongThreeBodiesKeepsThree() {
        ContentStore store = overMap();
        byte[][] bodies = {Replicas.body(3000, 10), Replicas.body(3000, 11), Replicas.body(3000, 12)};
        String url = Replicas.url(0);
        CachedCopy last = null;
        for (int version = 1; version <= 12; version++) {
            last = Replicas.copy(url, version, bodies[(version - 1) % 3]);
            assertTrue(store.put(Replicas.guid(last), last.toBytes()));
        }
        assertEquals(1, store.objects());
        assertEquals(3, store.bodies(), "one copy of each body the URL rotated among");
        assertEquals(3, store.bodyWrites(), "a body seen before is not written again");
        assertEquals(3L * 3000, store.payloadBytes());
        assertEquals(4, mapTier.records());
        for (byte[] b : bodies) {
            assertTrue(store.holdsBody(Replicas.sha256(b)));
        }
        assertEquals(1, store.references(Replicas.sha256(bodies[2])), "the current version's body");
        assertEquals(0, store.references(Replicas.sha256(bodies[0])), "kept unreferenced, for the next rotation");
        assertArrayEquals(last.toBytes(), read(store, Replicas.guid(last)));
    }

    @Test
    void aDigestAnnouncedButNotMatchingTheBodyIsNeverIndexed() {
        ContentStore store = overMap();
        byte[] real = Replicas.body(2048, 20);
        byte[] claimed = Replicas.body(2048, 21);
        byte[] claimedDigest = Replicas.sha256(claimed);

        // A certificate announcing another body's digest: indexed under the digest of what it carries.
        CachedCopy lying = Replicas.lying(Replicas.url(1), claimedDigest, real);
        assertTrue(store.put(Replicas.guid(lying), lying.toBytes()));
        assertFalse(store.holdsBody(claimedDigest), "the announced digest is not indexed");
        assertTrue(store.holdsBody(Replicas.sha256(real)));
        assertArrayEquals(Replicas.sha256(real), store.head(Replicas.guid(lying)).join().digest());

        // A transfer whose head announces one digest and whose body has another: nothing stored.
        CachedCopy honest = Replicas.copy(Replicas.url(2), 1, claimed);
        ReplicaHead head = ReplicaHead.split(honest.toBytes()).head();
        long records = mapTier.records();
        assertFalse(store.putTransferred(Replicas.guid(honest), head, Replicas.body(2048, 22)));
        assertFalse(store.putTransferred(Replicas.guid(honest), head, real), "a body held under another digest either");
        assertFalse(store.holdsBody(claimedDigest));
        assertFalse(store.contains(Replicas.guid(honest)));
        assertEquals(records, mapTier.records());

        // Head only (digest-first skip) while the announced body is not held: refused.
        assertFalse(store.putHead(Replicas.guid(honest), head));
        assertFalse(store.contains(Replicas.guid(honest)));

        // The honest transfer, then a head-only copy of another URL with the same body.
        assertTrue(store.putTransferred(Replicas.guid(honest), head, claimed));
        assertArrayEquals(honest.toBytes(), read(store, Replicas.guid(honest)));
        CachedCopy alias = Replicas.copy(Replicas.url(3), 1, claimed);
        long writes = store.bodyWrites();
        assertTrue(store.putHead(Replicas.guid(alias), ReplicaHead.split(alias.toBytes()).head()));
        assertEquals(writes, store.bodyWrites(), "the body was not transferred or written again");
        assertArrayEquals(alias.toBytes(), read(store, Replicas.guid(alias)));
    }

    @Test
    void opaqueReplicasAreAllBodyAndStillStoredOnce() {
        ContentStore store = overMap();
        byte[] data = {1, 2, 3, 4, 5};
        for (int i = 0; i < 5; i++) {
            assertTrue(store.put(Id.hash("object " + i), data));
        }
        assertEquals(1, store.bodies());
        assertEquals(5, store.objects());
        assertArrayEquals(data, read(store, Id.hash("object 3")));
        assertTrue(store.put(Id.hash("empty"), new byte[0]));
        assertArrayEquals(new byte[0], read(store, Id.hash("empty")));
        assertNull(read(store, Id.hash("never stored")));
    }

    @Test
    void tierEvictionsKeepTheStoreConsistentAndAreReported() {
        ContentStore store = overMap();
        byte[] shared = Replicas.body(1000, 30);
        List<Id> guids = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            CachedCopy copy = Replicas.copy(Replicas.url(i), 1, shared);
            guids.add(Replicas.guid(copy));
            store.put(Replicas.guid(copy), copy.toBytes());
        }
        CachedCopy other = Replicas.copy(Replicas.url(9), 1, Replicas.body(1000, 31));
        store.put(Replicas.guid(other), other.toBytes());

        // An object record evicted: that object goes, its body stays for the others.
        assertTrue(mapTier.evict(guids.get(0)));
        assertEquals(List.of(guids.get(0)), evicted);
        assertEquals(3, store.references(Replicas.sha256(shared)));
        assertNull(read(store, guids.get(0)));

        // The shared body evicted: every object using it goes, and is reported.
        evicted.clear();
        assertTrue(mapTier.evict(ReplicaHead.bodyKey(Replicas.sha256(shared))));
        assertEquals(new HashSet<>(guids.subList(1, 4)), new HashSet<>(evicted));
        assertEquals(1, store.objects());
        assertEquals(1, store.bodies());
        assertEquals(2, mapTier.records(), "the evicted body's object records were removed from the tier");
        assertNotNull(read(store, Replicas.guid(other)));
    }

    @Test
    void aRestartRebuildsTheReferenceCountsFromTheObjectRecords() {
        ContentStore store = overMap();
        byte[] shared = Replicas.body(1500, 40);
        List<CachedCopy> copies = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            copies.add(Replicas.copy(Replicas.url(i), 1, shared));
        }
        copies.add(Replicas.copy(Replicas.url(5), 1, Replicas.body(700, 41)));
        copies.forEach(c -> store.put(Replicas.guid(c), c.toBytes()));
        MapTier tier = mapTier;
        // A crash could leave an object record without its body, and junk.
        Id orphan = Id.hash("orphan");
        tier.put(orphan, ReplicaHead.split(Replicas.copy(Replicas.url(7), 1, Replicas.body(10, 42)).toBytes()).head().toBytes());
        Id junk = Id.hash("junk");
        tier.put(junk, new byte[] {9, 9, 9});

        ContentStore reopened = ContentStore.open(hook -> tier, evicted::add);
        assertEquals(6, reopened.objects());
        assertEquals(2, reopened.bodies());
        assertEquals(5, reopened.references(Replicas.sha256(shared)));
        assertFalse(tier.mayContain(orphan), "an object whose body is missing is removed");
        assertFalse(tier.mayContain(junk));
        for (CachedCopy c : copies) {
            assertArrayEquals(c.toBytes(), read(reopened, Replicas.guid(c)));
        }
        for (int i = 0; i < 4; i++) {
            reopened.remove(Replicas.guid(copies.get(i)));
        }
        assertTrue(reopened.holdsBody(Replicas.sha256(shared)), "one user left after the restart");
        reopened.remove(Replicas.guid(copies.get(4)));
        assertFalse(reopened.holdsBody(Replicas.sha256(shared)));
        assertEquals(2, tier.records());
    }

    @Test
    void aTieredStoreServesFromMemoryAndReportsOnlyBackingEvictions() {
        List<TieredStore> made = new ArrayList<>();
        MemoryTier memory = new MemoryTier(64 * 1024, key -> { });
        ContentStore store = ContentStore.open(hook -> {
            TieredStore t = new TieredStore(memory, onEvict -> mapTier = new MapTier(onEvict), hook);
            made.add(t);
            return t;
        }, evicted::add);
        CachedCopy copy = Replicas.copy(Replicas.url(1), 1, Replicas.body(5000, 50));
        Id guid = Replicas.guid(copy);
        assertTrue(store.put(guid, copy.toBytes()));
        assertEquals(2, memory.records(), "written through");
        memory.remove(guid);
        assertArrayEquals(copy.toBytes(), read(store, guid), "read from the backing tier");
        assertTrue(memory.mayContain(guid), "and admitted to memory again");
        mapTier.evict(guid);
        assertEquals(List.of(guid), evicted);
        assertFalse(memory.mayContain(guid), "a backing eviction removes the memory copy");
        store.close();
        assertEquals(0, memory.liveBuffers());
    }

    @Test
    void aValueTheMemoryTierRefusesLeavesNoStaleCopyThere() throws Exception {
        MemoryTier memory = new MemoryTier(1024, key -> { });
        TieredStore tiered = new TieredStore(memory, MapTier::new, key -> { });
        Id key = Id.hash("record");
        byte[] small = new byte[100];
        byte[] large = new byte[4096];
        java.util.Arrays.fill(large, (byte) 7);
        assertTrue(tiered.put(key, small));
        assertTrue(memory.mayContain(key), "the small value is in memory");
        assertTrue(tiered.put(key, large), "the backing tier takes the larger value");
        assertArrayEquals(large, tiered.get(key).get(), "reads see the new value, not the old memory copy");
        tiered.close();
        assertEquals(0, memory.liveBuffers());
    }
}
