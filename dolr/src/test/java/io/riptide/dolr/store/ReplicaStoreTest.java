package io.riptide.dolr.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The in-memory replica store: LRU eviction by bytes and count, eviction reports, and copying. */
class ReplicaStoreTest {
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

    @Test
    void evictsLeastRecentlyUsedToStayWithinBytesReportingEachInOrder() {
        ReplicaStore store = new ReplicaStore(100, 10, evicted::add);
        store.put(A, bytes(40, 1));
        store.put(B, bytes(40, 2));
        store.get(A); // A is now more recently used than B

        assertTrue(store.put(C, bytes(40, 3)));
        assertEquals(List.of(B), evicted);

        assertTrue(store.put(D, bytes(60, 4)));
        assertEquals(List.of(B, A), evicted);
        assertEquals(100, store.bytes());

        assertTrue(store.put(E, bytes(100, 5)), "one put may evict several, least recent first");
        assertEquals(List.of(B, A, C, D), evicted);
        assertEquals(List.of(E), store.guids());
        assertEquals(100, store.bytes());
        assertEquals(4, store.evictions());
    }

    @Test
    void evictsLeastRecentlyUsedToStayWithinTheObjectCount() {
        ReplicaStore store = new ReplicaStore(1000, 2, evicted::add);
        store.put(A, bytes(1, 1));
        store.put(B, bytes(1, 2));
        store.put(C, bytes(1, 3));

        assertEquals(List.of(A), evicted);
        assertEquals(List.of(B, C), store.guids());
        assertNull(store.get(A));
    }

    @Test
    void replacingAReplicaAdjustsTheBytesAndNeverEvictsItself() {
        ReplicaStore store = new ReplicaStore(100, 10, evicted::add);
        store.put(A, bytes(50, 1));
        store.put(B, bytes(30, 2));

        assertTrue(store.put(A, bytes(90, 9)));

        assertEquals(List.of(B), evicted);
        assertEquals(90, store.bytes());
        assertArrayEquals(bytes(90, 9), store.get(A));
    }

    @Test
    void anObjectLargerThanTheStoreIsRefusedAndEvictsNothing() {
        ReplicaStore store = new ReplicaStore(100, 10, evicted::add);
        store.put(A, bytes(60, 1));

        assertFalse(store.put(B, bytes(101, 2)));

        assertFalse(store.contains(B));
        assertTrue(store.contains(A));
        assertEquals(List.of(), evicted);
        assertEquals(60, store.bytes());
        assertTrue(store.put(C, bytes(40, 3)), "exactly the remaining room fits");
    }

    @Test
    void replicasAreCopiedInAndOut() {
        ReplicaStore store = new ReplicaStore(100, 10, evicted::add);
        byte[] data = bytes(10, 7);
        store.put(A, data);
        data[0] = 99;

        byte[] got = store.get(A);
        assertArrayEquals(bytes(10, 7), got, "the caller's later change does not reach the store");
        got[1] = 99;
        assertArrayEquals(bytes(10, 7), store.get(A), "nor a change to what get returned");
    }

    @Test
    void containsLeavesRecencyAloneWhileGetRefreshesIt() {
        ReplicaStore byContains = new ReplicaStore(1000, 2, evicted::add);
        byContains.put(A, bytes(1, 1));
        byContains.put(B, bytes(1, 2));
        assertTrue(byContains.contains(A));
        byContains.put(C, bytes(1, 3));
        assertEquals(List.of(A), evicted, "A stayed least recently used");

        evicted.clear();
        ReplicaStore byGet = new ReplicaStore(1000, 2, evicted::add);
        byGet.put(A, bytes(1, 1));
        byGet.put(B, bytes(1, 2));
        byGet.get(A);
        byGet.put(C, bytes(1, 3));
        assertEquals(List.of(B), evicted);
    }

    @Test
    void removeIsNotAnEviction() {
        ReplicaStore store = new ReplicaStore(100, 10, evicted::add);
        store.put(A, bytes(10, 1));

        assertTrue(store.remove(A));
        assertFalse(store.remove(A));
        assertEquals(0, store.bytes());
        assertEquals(0, store.size());
        assertEquals(List.of(), evicted);
        assertEquals(0, store.evictions());
    }

    @Test
    void aCopyANeighbourAlsoHoldsIsEvictedBeforeAnOlderLastCopy() {
        java.util.Set<Id> nearby = new java.util.HashSet<>(List.of(C));
        ReplicaStore store = new ReplicaStore(1000, 3, evicted::add, nearby::contains);
        store.put(A, bytes(10, 1));
        store.put(B, bytes(10, 2));
        store.put(C, bytes(10, 3));
        store.put(D, bytes(10, 4)); // A and B are older, but they are the neighbourhood's last copies
        assertEquals(List.of(C), evicted);
        assertEquals(1, store.nonMasterEvictions());
        store.put(E, bytes(10, 5)); // only last copies left: plain LRU
        assertEquals(List.of(C, A), evicted);
        assertEquals(1, store.nonMasterEvictions());
    }

    @Test
    void theReplicaBeingStoredIsNeverItsOwnVictimEvenWhenANeighbourHoldsIt() {
        ReplicaStore store = new ReplicaStore(1000, 2, evicted::add, guid -> true);
        store.put(A, bytes(10, 1));
        store.put(B, bytes(10, 2));
        store.put(C, bytes(10, 3));
        assertEquals(List.of(A), evicted);
        assertTrue(store.contains(C));
    }
}
