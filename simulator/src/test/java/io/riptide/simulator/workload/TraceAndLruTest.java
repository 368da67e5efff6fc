package io.riptide.simulator.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceAndLruTest {
    @TempDir
    Path dir;

    @Test
    void readsTheBuFormatAndNamesTheLineOfABadOne() throws IOException {
        Path trace = dir.resolve("t.tsv");
        Files.writeString(trace, "#ts_sec\tts_usec\tuser_id\tmachine\tsession_start\tgroup\tmonth_dir\turl\tbytes\tretrieval_s\n"
                + "785433179\t434793\t8\tcs17\t785433174\t272\tNov94\thttp://cs-www.bu.edu/\t1934\t0.53\n"
                + "785433180\t93836\t9\tcs18\t785433174\tb19\tNov94\thttp://a.example/x\t1803\t0.67\n"
                + "785433181\tnot-a-number\t8\tcs17\t785433174\t272\tNov94\thttp://b.example/\t715\t0.42\n");
        List<TraceRequest> two = TraceReader.read(trace, 2);
        assertEquals(new TraceRequest(785433179434793L, "8", "272", "http://cs-www.bu.edu/", 1934), two.get(0));
        assertEquals("b19", two.get(1).group());
        IOException e = assertThrows(IOException.class, () -> TraceReader.read(trace, 10));
        assertTrue(e.getMessage().contains("t.tsv:4"), e.getMessage());
    }

    @Test
    void lruHitsOnlyAtTheSameSizeAndEvictsTheLeastRecentlyUsed() {
        LruByteCache cache = new LruByteCache(100);
        assertFalse(cache.request("a", 40));
        assertFalse(cache.request("b", 40));
        assertTrue(cache.request("a", 40));
        assertFalse(cache.request("c", 40)); // b is the least recently used
        assertFalse(cache.request("b", 40));
        assertTrue(cache.request("c", 40));
        assertFalse(cache.request("c", 41), "a new size is a new version");
        assertTrue(cache.request("c", 41));
        assertFalse(cache.request("huge", 101));
        assertFalse(cache.request("huge", 101), "larger than the cache: never stored");
        assertTrue(cache.used() <= 100);
    }
}
