package io.riptide.dolr.location;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.dolr.location.PointerStore.Pointer;
import java.util.List;
import java.util.Set;
import java.util.HashSet;
import org.junit.jupiter.api.Test;

/** Soft-state object pointers: refresh, the count bound, expiry, failed nodes and lookup order. */
class PointerStoreTest {
    private static final Id G1 = Id.hash("guid-1");
    private static final Id G2 = Id.hash("guid-2");
    private static final NodeHandle R1 = replica(1);
    private static final NodeHandle R2 = replica(2);
    private static final NodeHandle R3 = replica(3);

    private static NodeHandle replica(int n) {
        return new NodeHandle(Id.hash("replica-" + n), NodeAddress.simulated(n));
    }

    @Test
    void refreshKeepsTheShortestDistanceAndTheLatestExpiry() {
        PointerStore store = new PointerStore(10);
        assertTrue(store.put(G1, R1, 50, 1000));

        assertTrue(store.put(G1, R1, 70, 900));
        assertEquals(List.of(new Pointer(R1, 50, 1000)), store.lookup(G1, 0));

        assertTrue(store.put(G1, R1, 30, 2000));
        assertEquals(List.of(new Pointer(R1, 30, 2000)), store.lookup(G1, 0));
        assertEquals(1, store.size(), "refreshed, not added");

        NodeHandle moved = new NodeHandle(R1.id(), NodeAddress.simulated(77));
        assertTrue(store.put(G1, moved, 40, 1500));
        assertEquals(List.of(new Pointer(moved, 30, 2000)), store.lookup(G1, 0), "the replica's new address is kept");
    }

    @Test
    void aFullStoreRefusesNewPointersAndCountsThemButStillRefreshes() {
        PointerStore store = new PointerStore(2);
        assertTrue(store.put(G1, R1, 10, 100));
        assertTrue(store.put(G1, R2, 10, 100));

        assertFalse(store.put(G2, R3, 10, 100));
        assertFalse(store.put(G1, R3, 10, 100));
        assertEquals(2, store.refused());
        assertEquals(2, store.size());
        assertEquals(List.of(), store.lookup(G2, 0));

        assertTrue(store.put(G1, R2, 5, 200), "a refresh needs no room");
        assertEquals(2, store.refused());

        store.remove(G1, R1.id());
        assertEquals(1, store.size());
        assertTrue(store.put(G2, R3, 10, 100), "room again");
    }

    @Test
    void expireDropsPointersDueByNow() {
        PointerStore store = new PointerStore(10);
        store.put(G1, R1, 10, 100);
        store.put(G1, R2, 10, 200);
        store.put(G2, R3, 10, 100);

        store.expire(100);

        assertEquals(1, store.size());
        assertEquals(List.of(G1), store.guids(), "a GUID with no pointers left is forgotten");
        assertEquals(List.of(new Pointer(R2, 10, 200)), store.lookup(G1, 0));
        store.expire(1000);
        assertEquals(0, store.size());
        assertEquals(List.of(), store.guids());
    }

    @Test
    void removeNodeDropsEveryPointerToIt() {
        PointerStore store = new PointerStore(10);
        store.put(G1, R1, 10, 100);
        store.put(G1, R2, 20, 100);
        store.put(G2, R1, 10, 100);

        store.removeNode(R1.id());

        assertEquals(1, store.size());
        assertEquals(List.of(new Pointer(R2, 20, 100)), store.lookup(G1, 0));
        assertEquals(List.of(), store.lookup(G2, 0));
        assertEquals(Set.of(G1), new HashSet<>(store.guids()));
    }

    @Test
    void lookupIsNearestFirstAndSkipsExpiredPointers() {
        PointerStore store = new PointerStore(10);
        NodeHandle r4 = replica(4);
        store.put(G1, R1, 30, 500);
        store.put(G1, R2, 10, 500);
        store.put(G1, R3, 20, 500);
        store.put(G1, r4, 5, 100);

        assertEquals(List.of(new Pointer(r4, 5, 100), new Pointer(R2, 10, 500), new Pointer(R3, 20, 500), new Pointer(R1, 30, 500)),
                store.lookup(G1, 99));
        assertEquals(List.of(new Pointer(R2, 10, 500), new Pointer(R3, 20, 500), new Pointer(R1, 30, 500)),
                store.lookup(G1, 100), "expired at its expiry time");
        assertEquals(4, store.size(), "lookup does not remove; expire does");
    }
}
