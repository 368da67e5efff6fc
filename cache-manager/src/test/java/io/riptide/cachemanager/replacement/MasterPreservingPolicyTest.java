package io.riptide.cachemanager.replacement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The CCM master-preserving rule: which replica goes, in which order, and where a last copy is forwarded. */
class MasterPreservingPolicyTest {
    private final MasterPreservingPolicy policy = new MasterPreservingPolicy();

    private static CachedReplica copy(String name, long lastUsed, boolean master) {
        return new CachedReplica(Id.hash(name), lastUsed, master);
    }

    @Test
    void theOldestNonMasterGoesEvenWhenAMasterIsOlder() {
        List<CachedReplica> held = List.of(copy("m-old", 1, true), copy("n-mid", 5, false), copy("n-old", 3, false),
                copy("m-new", 9, true));
        Eviction<String> e = policy.evict(held, Map.of("peer", 0L));
        assertEquals(Id.hash("n-old"), e.victim().guid());
        assertFalse(e.forwards(), "non-masters are simply dropped: the stub still has the object");
    }

    @Test
    void evictionOrderIsNonMastersByAgeThenMastersByAge() {
        List<CachedReplica> held = new ArrayList<>(List.of(copy("m1", 2, true), copy("n1", 7, false), copy("m2", 1, true),
                copy("n2", 4, false), copy("m3", 8, true), copy("n3", 3, false)));
        List<String> order = new ArrayList<>();
        Map<String, String> names = new LinkedHashMap<>();
        for (String n : List.of("m1", "n1", "m2", "n2", "m3", "n3")) {
            names.put(Id.hash(n).toString(), n);
        }
        while (!held.isEmpty()) {
            CachedReplica victim = policy.<String>evict(held, Map.of()).victim();
            order.add(names.get(victim.guid().toString()));
            held.remove(victim);
        }
        assertEquals(List.of("n3", "n2", "n1", "m2", "m1", "m3"), order);
    }

    @Test
    void aMasterIsForwardedToThePeerWithTheOldestReplicaWhenOneIsOlder() {
        List<CachedReplica> held = List.of(copy("m1", 10, true), copy("m2", 20, true));
        Map<String, Long> peers = new LinkedHashMap<>();
        peers.put("a", 8L);
        peers.put("b", 3L);
        peers.put("c", 12L);
        Eviction<String> e = policy.evict(held, peers);
        assertEquals(Id.hash("m1"), e.victim().guid());
        assertEquals("b", e.forwardTo());
    }

    @Test
    void theStubsOldestMasterIsDropped() {
        Eviction<String> e = policy.evict(List.of(copy("m1", 2, true)), Map.of("a", 2L, "b", 5L));
        assertNull(e.forwardTo(), "no peer holds anything older: global LRU drops it");
    }

    @Test
    void aForwardedMasterIsKeptOnlyIfTheReceiverHoldsSomethingOlder() {
        CachedReplica forwarded = copy("m", 5, true);
        assertTrue(policy.acceptsForwarded(forwarded, List.of(copy("x", 4, false), copy("y", 9, true))));
        assertFalse(policy.acceptsForwarded(forwarded, List.of(copy("x", 6, false), copy("y", 9, true))));
    }

    @Test
    void lruIgnoresMastership() {
        assertEquals(Id.hash("m"), policy.lru(List.of(copy("m", 1, true), copy("n", 2, false))).victim().guid());
        assertThrows(IllegalArgumentException.class, () -> policy.evict(List.of(), Map.of()));
    }
}
