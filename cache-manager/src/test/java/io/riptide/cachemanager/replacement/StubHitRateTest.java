package io.riptide.cachemanager.replacement;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The point of the master-preserving rule: on the same request trace, a stub that keeps its last
 * copies longer serves more requests from inside the stub than one whose caches each run plain LRU.
 */
class StubHitRateTest {
    @Test
    void masterPreservingBeatsPerNodeLruOnAZipfTrace() {
        double lru = new StubTrace(8, 50, false).run(42, 2_000, 0.8, 200_000);
        double preserving = new StubTrace(8, 50, true).run(42, 2_000, 0.8, 200_000);
        assertTrue(preserving > lru + 0.02, "stub hit rate: master-preserving " + preserving + ", LRU " + lru);
    }

    @Test
    void withRoomForEverythingBothRulesHitAlike() {
        double lru = new StubTrace(4, 500, false).run(7, 100, 0.8, 20_000);
        double preserving = new StubTrace(4, 500, true).run(7, 100, 0.8, 20_000);
        assertTrue(Math.abs(preserving - lru) < 1e-9, preserving + " vs " + lru);
    }
}
