package io.riptide.core.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The Caffeine memory tier: byte bound, frequency-aware admission, off-heap buffers released once. */
class MemoryTierTest {
    private static final int VALUE = 1000;

    private static byte[] value(int i) {
        return Replicas.body(VALUE, i);
    }

    @Test
    void staysWithinItsByteBoundAndReportsEveryEviction() {
        List<Id> evicted = new ArrayList<>();
        long max = 20L * (VALUE + MemoryTier.ENTRY_OVERHEAD);
        MemoryTier tier = new MemoryTier(max, evicted::add);
        for (int i = 0; i < 200; i++) {
            assertTrue(tier.put(Id.hash("k" + i), value(i)));
            assertTrue(tier.weightedBytes() <= max, "over the bound after put " + i);
            assertEquals(tier.records(), tier.liveBuffers(), "one live buffer per record");
        }
        assertEquals(200, tier.records() + evicted.size(), "every record is held or was reported");
        assertEquals(evicted.size(), new HashSet<>(evicted).size());
        for (Id gone : evicted) {
            assertFalse(tier.mayContain(gone));
        }
        assertFalse(tier.put(Id.hash("huge"), new byte[(int) max]), "a record that can never fit");
        tier.close();
        assertEquals(0, tier.liveBuffers());
        assertNull(tier.get(Id.hash("k199")).join());
    }

    @Test
    void replaceAndRemoveReleaseTheOldBuffer() {
        MemoryTier tier = new MemoryTier(1 << 20, k -> { });
        Id key = Id.hash("key");
        tier.put(key, value(1));
        tier.put(key, value(2));
        assertEquals(1, tier.liveBuffers());
        assertArrayEquals(value(2), tier.get(key).join());
        assertTrue(tier.remove(key));
        assertFalse(tier.remove(key));
        assertEquals(0, tier.liveBuffers());
        tier.close();
    }

    @Test
    void hotRecordsSurviveAScanOfColdOnes() {
        long max = 50L * (VALUE + MemoryTier.ENTRY_OVERHEAD);
        MemoryTier tier = new MemoryTier(max, k -> { });
        MapTier lru = new MapTier(50L * VALUE, k -> { }); // the same room, least-recently-used replacement
        List<Id> hot = new ArrayList<>();
        try {
            for (int i = 0; i < 20; i++) {
                hot.add(Id.hash("hot" + i));
                tier.put(hot.get(i), value(i));
                lru.put(hot.get(i), value(i));
            }
            // Caffeine counts reads once the tier is half full: fill it that far, then read the hot ones.
            for (int i = 0; i < 10; i++) {
                tier.put(Id.hash("filler" + i), value(500 + i));
                lru.put(Id.hash("filler" + i), value(500 + i));
            }
            for (int round = 0; round < 3; round++) {
                hot.forEach(k -> tier.get(k).join());
                hot.forEach(k -> lru.get(k).join());
            }
            // A one-pass scan of 2000 cold records, each put once and never read, while the hot ones
            // are read every 40 puts: more than LRU's 30 free places between two reads.
            for (int i = 0; i < 2000; i++) {
                Id cold = Id.hash("cold" + i);
                tier.put(cold, value(1000 + i));
                lru.put(cold, value(1000 + i));
                if (i % 40 == 0) {
                    hot.forEach(k -> tier.get(k).join());
                    hot.forEach(k -> lru.get(k).join());
                }
            }
            long kept = hot.stream().filter(tier::mayContain).count();
            long keptByLru = hot.stream().filter(lru::mayContain).count();
            assertTrue(kept >= 18, "W-TinyLFU kept only " + kept + " of 20 hot records");
            assertTrue(keptByLru < kept, "LRU kept " + keptByLru);
        } finally {
            tier.close();
        }
        assertEquals(0, tier.liveBuffers());
    }
}
