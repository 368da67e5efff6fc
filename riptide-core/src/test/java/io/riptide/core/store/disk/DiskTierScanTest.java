package io.riptide.core.store.disk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@link RecordTier#scan} on the disk tiers: exactly the records the index holds, with their bytes. */
class DiskTierScanTest {
    @TempDir
    Path dir;

    private static DiskTierConfig config(DiskPolicy policy, Path d, long entries, long logBytes, int slotBytes) {
        DiskTierConfig c = policy == DiskPolicy.LOG ? DiskTierConfig.log(d.resolve("tier.log"), entries, logBytes)
                : DiskTierConfig.setMem(d.resolve("tier.tab"), entries, slotBytes);
        return c.withSync(false).withBufferBytes(4096).withFlushInterval(Duration.ofSeconds(30))
                .withCheckpointInterval(Duration.ofSeconds(30));
    }

    /** Keys whose (set, tag) pairs all differ and that put at most 8 in a set: a roomy tier keeps them all. */
    private static List<Id> distinctKeys(long sets, int n) {
        List<Id> out = new ArrayList<>();
        Set<Long> seen = new HashSet<>();
        Map<Long, Integer> perSet = new HashMap<>();
        for (int i = 0; out.size() < n; i++) {
            Id k = Id.hash("scan-" + i);
            long set = IdBits.set(k, sets);
            if (seen.add(set * 256 + IdBits.tag(k)) && perSet.merge(set, 1, Integer::sum) <= IdBits.WAYS) {
                out.add(k);
            }
        }
        return out;
    }

    private static byte[] value(SplittableRandom r, int max) {
        byte[] v = new byte[1 + r.nextInt(max)];
        r.nextBytes(v);
        return v;
    }

    /** Scans {@code tier}, failing on a key visited twice or a visit on a thread other than the read stage's. */
    private static Map<Id, byte[]> scan(DiskTier tier) throws Exception {
        Map<Id, byte[]> seen = new ConcurrentHashMap<>();
        List<String> problems = new ArrayList<>();
        tier.scan((k, v) -> {
            if (!Thread.currentThread().getName().contains("disk-read-")) {
                synchronized (problems) {
                    problems.add("visited on " + Thread.currentThread().getName());
                }
            }
            if (seen.put(k, v) != null) {
                synchronized (problems) {
                    problems.add("visited twice: " + k);
                }
            }
        }).get(10, TimeUnit.SECONDS);
        assertTrue(problems.isEmpty(), problems.toString());
        return seen;
    }

    private static void assertMatches(Map<Id, byte[]> model, Map<Id, byte[]> scanned, String where) {
        assertEquals(model.keySet(), scanned.keySet(), where + ": the keys visited");
        model.forEach((k, v) -> assertArrayEquals(v, scanned.get(k), where + ": the bytes of " + k));
    }

    @ParameterizedTest
    @EnumSource(DiskPolicy.class)
    void scanVisitsExactlyTheHeldRecordsAcrossFlushesAndRestarts(DiskPolicy policy) throws Exception {
        DiskTierConfig config = config(policy, dir, 512, 1 << 20, 1024);
        List<Id> keys = distinctKeys(config.sets(), 120);
        SplittableRandom r = new SplittableRandom(5);
        Map<Id, byte[]> model = new HashMap<>();
        DiskTier tier = DiskTier.open(config, k -> { });
        try {
            assertTrue(scan(tier).isEmpty(), "an empty tier visits nothing");
            for (int i = 0; i < 60; i++) {
                byte[] v = value(r, 900);
                assertTrue(tier.put(keys.get(i), v));
                model.put(keys.get(i), v);
            }
            assertMatches(model, scan(tier), "all buffered or partly written");
            tier.flush();
            assertMatches(model, scan(tier), "flushed");
            for (int i = 0; i < 10; i++) {
                assertTrue(tier.remove(keys.get(i)));
                model.remove(keys.get(i));
            }
            for (int i = 10; i < 20; i++) {
                byte[] v = value(r, 900);
                tier.put(keys.get(i), v);
                model.put(keys.get(i), v);
            }
            assertMatches(model, scan(tier), "removes and overwrites in the buffer over flushed records");
            tier.flush();
            for (int i = 60; i < 90; i++) {
                byte[] v = value(r, 900);
                tier.put(keys.get(i), v);
                model.put(keys.get(i), v);
            }
            assertMatches(model, scan(tier), "flushed plus buffered");
            assertEquals(model.size(), tier.records());
            tier.close();

            tier = DiskTier.open(config, k -> { });
            assertMatches(model, scan(tier), "after a clean restart");
            for (int i = 20; i < 30; i++) {
                tier.remove(keys.get(i));
                model.remove(keys.get(i));
            }
            tier.flush();
            tier.simulateCrash();

            tier = DiskTier.open(config, k -> { });
            assertMatches(model, scan(tier), "after a crash following a flush");
            assertEquals(0, tier.stats().corruptRefusals() + tier.stats().staleRefusals() + tier.stats().tagCollisions());
        } finally {
            tier.close();
        }
    }

    @ParameterizedTest
    @EnumSource(DiskPolicy.class)
    void aRecordCorruptOnDiskIsSkippedAndCounted(DiskPolicy policy) throws Exception {
        DiskTierConfig config = config(policy, dir, 512, 1 << 20, 1024);
        List<Id> keys = distinctKeys(config.sets(), 10);
        Map<Id, byte[]> model = new HashMap<>();
        DiskTier tier = DiskTier.open(config, k -> { });
        for (int i = 0; i < keys.size(); i++) {
            byte[] v = new byte[200];
            java.util.Arrays.fill(v, (byte) (i + 1));
            tier.put(keys.get(i), v);
            model.put(keys.get(i), v);
        }
        tier.close();
        // Flip a byte in the middle of key 3's value (200 bytes of 4s) on disk.
        byte[] file = Files.readAllBytes(config.file());
        int at = indexOf(file, model.get(keys.get(3)));
        file[at + 100] ^= 0x5a;
        Files.write(config.file(), file);
        model.remove(keys.get(3));

        tier = DiskTier.open(config, k -> { });
        try {
            assertTrue(tier.mayContain(keys.get(3)), "the index still points at the record");
            long before = tier.stats().corruptRefusals();
            assertMatches(model, scan(tier), "the corrupt record skipped");
            assertEquals(before + 1, tier.stats().corruptRefusals(), "counted like a corrupt read");
            assertNull(tier.get(keys.get(3)).join(), "a read refuses it too");
        } finally {
            tier.close();
        }
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("not on disk");
    }

    /** A tight tier (few sets, a log that wraps) drops records; scan must visit exactly what get still serves. */
    @ParameterizedTest
    @EnumSource(DiskPolicy.class)
    void onATightTierScanAgreesWithGet(DiskPolicy policy) throws Exception {
        DiskTierConfig config = config(policy, dir, 16, 64 << 10, 1024);
        List<Id> keys = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            keys.add(Id.hash("tight-" + i));
        }
        SplittableRandom r = new SplittableRandom(9);
        Map<Id, byte[]> latest = new HashMap<>();
        DiskTier tier = DiskTier.open(config, k -> { });
        try {
            for (int step = 0; step < 2000; step++) {
                Id k = keys.get(r.nextInt(keys.size()));
                if (r.nextInt(10) == 0) {
                    tier.remove(k);
                    latest.remove(k);
                } else {
                    byte[] v = value(r, 900);
                    tier.put(k, v);
                    latest.put(k, v);
                }
                if (step % 500 == 499) {
                    tier.flush();
                }
                if (step % 250 == 0 || step == 1999) {
                    Map<Id, byte[]> scanned = scan(tier);
                    Map<Id, byte[]> served = new HashMap<>();
                    for (Id key : keys) {
                        byte[] v = tier.get(key).join();
                        if (v != null) {
                            served.put(key, v);
                            assertArrayEquals(latest.get(key), v, "get serves the latest value");
                        }
                    }
                    assertFalse(served.isEmpty());
                    assertMatches(served, scanned, "step " + step);
                }
            }
        } finally {
            tier.close();
        }
        assertNotNull(latest);
    }
}
