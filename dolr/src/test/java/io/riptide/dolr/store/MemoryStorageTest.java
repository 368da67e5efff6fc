package io.riptide.dolr.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import io.riptide.core.store.ContentStore;
import io.riptide.core.store.MapTier;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * A node's in-memory replica store: LRU within bytes and objects, evictions reported, the
 * master-preserving preference, and bodies stored once.
 */
class MemoryStorageTest {
    private static final Id A = Id.hash("a");
    private static final Id B = Id.hash("b");
    private static final Id C = Id.hash("c");
    private static final Id D = Id.hash("d");
    private static final Id E = Id.hash("e");

    private final List<Id> evicted = new ArrayList<>();

    private static byte[] bytes(int n, int fill) {
        byte[] b = new byte[n];
        java.util.Arrays.fill(b, (byte) fill);
        return b;
    }

    private ContentStore store(long bytes, int objects, Predicate<Id> nearby) {
        return new MemoryStorage(bytes, objects).open(null, evicted::add, nearby);
    }

    @Test
    void evictsLeastRecentlyUsedToStayWithinTheObjectCountReportingEach() {
        ContentStore store = store(1 << 20, 2, guid -> false);
        store.put(A, bytes(10, 1));
        store.put(B, bytes(10, 2));
        store.get(A).join(); // A is now more recently used than B
        store.put(C, bytes(10, 3));

        assertEquals(List.of(B), evicted);
        assertTrue(store.contains(A));
        assertNull(store.get(B).join());
        assertEquals(2, store.objects());
    }

    @Test
    void aCopyANeighbourAlsoHoldsIsEvictedBeforeAnOlderLastCopy() {
        Set<Id> nearby = new HashSet<>(List.of(C));
        ContentStore store = store(1 << 20, 3, nearby::contains);
        store.put(A, bytes(10, 1));
        store.put(B, bytes(10, 2));
        store.put(C, bytes(10, 3));
        store.put(D, bytes(10, 4)); // A and B are older, but they are the neighbourhood's last copies
        assertEquals(List.of(C), evicted);
        store.put(E, bytes(10, 5)); // only last copies left: plain LRU
        assertEquals(List.of(C, A), evicted);
        assertArrayEquals(bytes(10, 2), store.get(B).join());
    }

    @Test
    void theReplicaBeingStoredIsNeverItsOwnVictimEvenWhenANeighbourHoldsIt() {
        ContentStore store = store(1 << 20, 2, guid -> true);
        store.put(A, bytes(10, 1));
        store.put(B, bytes(10, 2));
        assertTrue(store.put(C, bytes(10, 3)));
        assertEquals(List.of(A), evicted);
        assertArrayEquals(bytes(10, 3), store.get(C).join());
    }

    @Test
    void evictsToStayWithinBytesAndRefusesAnObjectLargerThanTheStore() {
        ContentStore store = store(400, 100, guid -> false);
        assertTrue(store.put(A, bytes(150, 1)));
        assertTrue(store.put(B, bytes(150, 2)));
        assertEquals(List.of(A), evicted, "two objects and their heads exceed 400 bytes");

        evicted.clear();
        assertFalse(store.put(C, bytes(500, 3)));
        assertFalse(store.contains(C));
        assertTrue(store.contains(B), "a refused object evicts nothing");
        assertEquals(List.of(), evicted);
    }

    @Test
    void manyGuidsWithOneBodyStoreItOnceAndRemoveIsNotAnEviction() {
        ContentStore store = store(1 << 20, 100, guid -> false);
        for (int i = 0; i < 10; i++) {
            store.put(Id.hash("url " + i), bytes(1000, 7));
        }
        assertEquals(10, store.objects());
        assertEquals(1, store.bodies());
        assertEquals(1000, store.payloadBytes());

        assertTrue(store.remove(Id.hash("url 0")));
        assertFalse(store.remove(Id.hash("url 0")));
        assertEquals(List.of(), evicted);
        assertArrayEquals(bytes(1000, 7), store.get(Id.hash("url 9")).join());
    }

    @Test
    void aNewVersionFreesTheOldBodyAtOnceSoItTakesNoRoomFromLiveObjects() {
        ContentStore store = store(1 << 20, 100, guid -> false);
        store.put(A, bytes(1000, 1));
        store.put(A, bytes(1000, 2));
        assertEquals(1, store.bodies(), "the old version's body went with it");
        assertEquals(1000, store.payloadBytes());
        assertArrayEquals(bytes(1000, 2), store.get(A).join());

        store.put(B, bytes(1000, 2));
        store.put(B, bytes(1000, 3));
        assertEquals(2, store.bodies(), "a body another object still uses stays");
        assertArrayEquals(bytes(1000, 2), store.get(A).join());
    }

    @Test
    void anEvictedObjectIsHandedOverByteForByteWhicheverOfItsRecordsWentFirst() {
        Map<Id, byte[]> handed = new LinkedHashMap<>();
        ContentStore store = new MemoryStorage(1 << 20, 2).openHandingOver(null, handed::put, guid -> false);
        store.put(A, bytes(10, 7));
        store.put(B, bytes(10, 7)); // A and B share one body record
        store.get(A).join(); // now B's object record is the oldest, the shared body the newest
        List<Id> order = ((MapTier) store.tier()).keys();
        store.put(C, bytes(10, 3));
        assertEquals(List.of(B), List.copyOf(handed.keySet()), "B's object record went; the body stays for A");
        assertArrayEquals(bytes(10, 7), handed.get(B), "put together with the body still held");
        assertEquals(order.subList(1, order.size()), ((MapTier) store.tier()).keys().subList(0, order.size() - 1),
                "reading the body to hand B over did not count as a use");

        handed.clear();
        store.put(D, bytes(10, 4)); // A's object record, then the unreferenced body
        store.put(E, bytes(10, 5)); // C's body record first: C goes with it
        assertArrayEquals(bytes(10, 7), handed.get(A));
        assertArrayEquals(bytes(10, 3), handed.get(C));
        assertEquals(List.of(A, C), List.copyOf(handed.keySet()));
    }

    @Test
    void roomSparingSaysWhetherAReplicaFitsWithoutEvictingALastCopy() {
        Set<Id> nearby = new HashSet<>();
        ContentStore store = store(1 << 20, 2, nearby::contains);
        store.put(A, bytes(10, 1));
        assertTrue(store.roomSparing(bytes(10, 2)), "room to spare");
        store.put(B, bytes(10, 2));
        assertFalse(store.roomSparing(bytes(10, 3)), "full of last copies");
        assertFalse(store.roomSparing(bytes(10, 2)), "a held body still needs an object record");
        nearby.add(A);
        assertTrue(store.roomSparing(bytes(10, 3)), "A's records may go: a neighbour holds it");
        assertEquals(List.of(), evicted, "asking evicts nothing");
    }
}
