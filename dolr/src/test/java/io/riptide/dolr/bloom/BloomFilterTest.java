package io.riptide.dolr.bloom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Bloom filters over GUIDs: no false negatives, a false-positive rate near theory, merging, wire form. */
class BloomFilterTest {
    private static List<Id> randomIds(SplittableRandom r, int n) {
        List<Id> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(Id.fromWords(r.nextLong(), r.nextLong(), r.nextInt()));
        }
        return out;
    }

    @Test
    void everyInsertedGuidIsReported() {
        BloomFilter filter = new BloomFilter(2048, 4);
        List<Id> ids = randomIds(new SplittableRandom(1), 1000);
        ids.forEach(filter::add);

        for (Id id : ids) {
            assertTrue(filter.mightContain(id), id::toString);
        }
    }

    @Test
    void falsePositiveRateIsNearTheTheoreticalRate() {
        int bits = 2048;
        int hashes = 4;
        int entries = 100;
        BloomFilter filter = new BloomFilter(bits, hashes);
        SplittableRandom r = new SplittableRandom(2);
        Set<Id> members = new HashSet<>(randomIds(r, entries));
        members.forEach(filter::add);

        int absent = 100_000;
        int falsePositives = 0;
        for (Id id : randomIds(r, absent)) {
            if (!members.contains(id) && filter.mightContain(id)) {
                falsePositives++;
            }
        }
        double measured = falsePositives / (double) absent;
        double theory = Math.pow(1 - Math.exp(-(double) hashes * entries / bits), hashes); // about 0.001
        assertTrue(measured <= 2 * theory, "measured " + measured + " vs theory " + theory);
        assertTrue(measured >= theory / 4, "a filter this full must show some false positives: " + measured);
    }

    @Test
    void unionHoldsBothSetsAndLeavesTheOtherAlone() {
        SplittableRandom r = new SplittableRandom(3);
        List<Id> first = randomIds(r, 50);
        List<Id> second = randomIds(r, 50);
        BloomFilter a = new BloomFilter(4096, 3);
        BloomFilter b = new BloomFilter(4096, 3);
        first.forEach(a::add);
        second.forEach(b::add);
        long[] bBefore = b.toWords();

        a.union(b);

        for (Id id : first) {
            assertTrue(a.mightContain(id));
        }
        for (Id id : second) {
            assertTrue(a.mightContain(id));
        }
        assertArrayEquals(bBefore, b.toWords());
        assertThrows(IllegalArgumentException.class, () -> a.union(new BloomFilter(2048, 3)));
    }

    @Test
    void wordsRoundTripAndAreCopiedBothWays() {
        BloomFilter filter = new BloomFilter(1024, 4);
        List<Id> ids = randomIds(new SplittableRandom(4), 40);
        ids.forEach(filter::add);

        long[] words = filter.toWords();
        BloomFilter copy = BloomFilter.fromWords(words, 4);
        assertEquals(filter, copy);
        assertEquals(filter.hashCode(), copy.hashCode());
        assertEquals(1024, copy.bits());
        for (Id id : ids) {
            assertTrue(copy.mightContain(id));
        }

        java.util.Arrays.fill(words, 0L);
        assertEquals(filter, copy, "fromWords copied its input");
        filter.toWords()[0] = -1L;
        assertEquals(filter, copy, "toWords returned a copy");
        assertNotEquals(filter, BloomFilter.fromWords(filter.toWords(), 3), "the hash count is part of the filter");
    }

    @Test
    void refusesSizesThatAreNotWholeWords() {
        assertThrows(IllegalArgumentException.class, () -> new BloomFilter(100, 4));
        assertThrows(IllegalArgumentException.class, () -> new BloomFilter(0, 4));
        assertThrows(IllegalArgumentException.class, () -> new BloomFilter(64, 0));
    }

    @Test
    void attenuatedFilterReportsTheNearestLevelHoldingAGuid() {
        Id atOne = Id.hash("level-1");
        Id atTwoAndThree = Id.hash("level-2-and-3");
        Id atThree = Id.hash("level-3");
        Id nowhere = Id.hash("nowhere");
        BloomFilter l1 = new BloomFilter(1024, 4);
        BloomFilter l2 = new BloomFilter(1024, 4);
        BloomFilter l3 = new BloomFilter(1024, 4);
        l1.add(atOne);
        l2.add(atTwoAndThree);
        l3.add(atTwoAndThree);
        l3.add(atThree);
        AttenuatedBloomFilter filter = new AttenuatedBloomFilter(List.of(l1, l2, l3));

        assertEquals(1, filter.firstLevelHolding(atOne));
        assertEquals(2, filter.firstLevelHolding(atTwoAndThree));
        assertEquals(3, filter.firstLevelHolding(atThree));
        assertEquals(0, filter.firstLevelHolding(nowhere));
        assertEquals(3, filter.depth());
        assertEquals(l2, filter.level(2));
        assertFalse(filter.level(1).mightContain(atThree));
    }
}
