package io.riptide.simulator.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PolyMixWorkloadTest {
    @Test
    void contentTypesSizesRecurrenceAndCacheabilityFollowPolyMix() {
        PolyMixWorkload w = PolyMixWorkload.standard("origin.example", 1_000_000);
        SplittableRandom random = new SplittableRandom(3);
        Map<String, long[]> byType = new HashMap<>(); // new objects: count, bytes
        Set<String> urls = new HashSet<>();
        int repeats = 0;
        int cacheable = 0;
        int n = 200_000;
        for (int i = 0; i < n; i++) {
            WebFile f = w.next(random);
            if (!urls.add(f.url())) {
                repeats++;
                continue;
            }
            cacheable += f.cacheable() ? 1 : 0;
            String type = f.url().split("/")[3];
            long[] c = byType.computeIfAbsent(type, t -> new long[2]);
            c[0]++;
            c[1] += f.sizeBytes();
        }
        int fresh = urls.size();
        assertEquals(0.55, repeats / (double) n, 0.01, "recurrence");
        assertEquals(0.80, cacheable / (double) fresh, 0.01, "cacheable share of objects");
        assertEquals(0.65, byType.get("image")[0] / (double) fresh, 0.01);
        assertEquals(0.15, byType.get("html")[0] / (double) fresh, 0.01);
        assertEquals(0.195, byType.get("other")[0] / (double) fresh, 0.01);
        assertEquals(4.5 * 1024, byType.get("image")[1] / (double) byType.get("image")[0], 4.5 * 1024 * 0.03);
        assertEquals(25 * 1024, byType.get("other")[1] / (double) byType.get("other")[0], 25 * 1024 * 0.06);
        assertTrue(byType.get("download")[0] > 0.003 * fresh, "a few downloads");
    }

    @Test
    void theSameSeedGivesTheSameStream() {
        PolyMixWorkload a = PolyMixWorkload.standard("h", 100);
        PolyMixWorkload b = PolyMixWorkload.standard("h", 100);
        SplittableRandom ra = new SplittableRandom(9);
        SplittableRandom rb = new SplittableRandom(9);
        for (int i = 0; i < 1000; i++) {
            assertEquals(a.next(ra), b.next(rb));
        }
    }
}
