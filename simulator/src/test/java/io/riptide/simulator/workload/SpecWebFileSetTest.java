package io.riptide.simulator.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SpecWebFileSetTest {
    private final SpecWebFileSet set = new SpecWebFileSet("site.example", 10, 0.8, 1);

    @Test
    void thirtySixFilesPerDirectoryInFourSizeClasses() {
        assertEquals(360, set.files().size());
        assertEquals(102, set.files().get(0).sizeBytes());
        assertEquals(9 * 100 * 1024, set.files().get(35).sizeBytes());
        assertEquals("http://site.example/dir0/class3_9", set.files().get(35).url());
        long cacheable = set.files().stream().filter(WebFile::cacheable).count();
        assertTrue(cacheable > 0.7 * 360 && cacheable < 0.9 * 360, "about 80% cacheable: " + cacheable);
    }

    @Test
    void theMixFollowsTheClassSharesAndFavoursTheFirstDirectories() {
        SplittableRandom random = new SplittableRandom(2);
        Map<Integer, Integer> byClass = new HashMap<>();
        int firstDir = 0;
        int lastDir = 0;
        int n = 100_000;
        for (int i = 0; i < n; i++) {
            WebFile f = set.next(random);
            int c = f.url().charAt(f.url().indexOf("class") + 5) - '0';
            byClass.merge(c, 1, Integer::sum);
            firstDir += f.url().contains("/dir0/") ? 1 : 0;
            lastDir += f.url().contains("/dir9/") ? 1 : 0;
        }
        assertEquals(0.35, byClass.get(0) / (double) n, 0.01);
        assertEquals(0.50, byClass.get(1) / (double) n, 0.01);
        assertEquals(0.14, byClass.get(2) / (double) n, 0.01);
        assertEquals(0.01, byClass.get(3) / (double) n, 0.003);
        assertTrue(firstDir > 8 * lastDir, "Zipf over directories: " + firstDir + " vs " + lastDir);
    }
}
