package io.riptide.core.store.disk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.riptide.core.id.Id;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The engine against a map: random put/get/remove/flush/restart/crash sequences with fixed seeds.
 *
 * <p>Roomy tiers (keys chosen so that none collide in the index and no set overflows, a log that never
 * wraps) must match the model exactly. Tight tiers (two sets, a log that wraps every few dozen records)
 * may drop records but must never return anything but a key's latest value. After a crash without a
 * flush, a key touched since the last completed flush may hold any value it had since then (or none).
 */
class DiskTierModelTest {
    private static final int SEQUENCES = Integer.getInteger("disk.seeds", 1000);
    private static final int FIRST = Integer.getInteger("disk.first", 0);
    private static final boolean TRACE = Boolean.getBoolean("disk.trace");

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(DiskPolicy.class)
    void roomyTierMatchesTheModelExactly(DiskPolicy policy) throws Exception {
        DiskTierConfig base = config(policy, dir.resolve("roomy"), 512, 1 << 20, 256);
        List<Id> keys = distinctKeys(base.sets(), 40);
        for (int seed = 0; seed < SEQUENCES; seed++) {
            run(base, keys, seed, true, 200);
        }
    }

    @ParameterizedTest
    @EnumSource(DiskPolicy.class)
    void tightTierNeverServesAWrongRecord(DiskPolicy policy) throws Exception {
        DiskTierConfig base = config(policy, dir.resolve("tight"), 16, 64 << 10, 1024);
        List<Id> keys = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            keys.add(Id.hash("tight-" + i));
        }
        for (int seed = FIRST; seed < SEQUENCES; seed++) {
            run(base, keys, 1_000_000 + seed, false, policy == DiskPolicy.LOG ? 1500 : 900);
        }
    }

    private static DiskTierConfig config(DiskPolicy policy, Path d, long entries, long logBytes, int slotBytes) {
        DiskTierConfig c = policy == DiskPolicy.LOG ? DiskTierConfig.log(d.resolve("tier.log"), entries, logBytes)
                : DiskTierConfig.setMem(d.resolve("tier.tab"), entries, slotBytes);
        return c.withSync(false).withBufferBytes(4096).withFlushInterval(Duration.ofMillis(20)).withCheckpointInterval(Duration.ofMillis(200));
    }

    /** Keys whose (set, tag) pairs are all different and that put at most 8 in a set. */
    private static List<Id> distinctKeys(long sets, int n) {
        List<Id> out = new ArrayList<>();
        Set<Long> seen = new HashSet<>();
        Map<Long, Integer> perSet = new HashMap<>();
        for (int i = 0; out.size() < n; i++) {
            Id k = Id.hash("roomy-" + i);
            long set = IdBits.set(k, sets);
            if (seen.add(set * 256 + IdBits.tag(k)) && perSet.merge(set, 1, Integer::sum) <= IdBits.WAYS) {
                out.add(k);
            }
        }
        return out;
    }

    private static void run(DiskTierConfig config, List<Id> keys, int seed, boolean exact, int maxValue) throws Exception {
        java.nio.file.Files.createDirectories(config.file().getParent());
        try (var files = java.nio.file.Files.list(config.file().getParent())) {
            for (Path p : files.toList()) {
                java.nio.file.Files.delete(p);
            }
        }
        Random rnd = new Random(seed);
        Map<Id, byte[]> model = new HashMap<>();
        // Values each key may hold after a crash: its value at the last flush and every value since.
        Map<Id, List<byte[]>> sinceFlush = new HashMap<>();
        List<Id> evicted = new ArrayList<>();
        DiskTier tier = DiskTier.open(config, evicted::add);
        int ops = 30 + rnd.nextInt(50);
        try {
            for (int op = 0; op < ops; op++) {
                Id k = keys.get(rnd.nextInt(keys.size()));
                int kind = rnd.nextInt(100);
                String where = "seed " + seed + " op " + op + " (" + config.policy() + (exact ? " roomy" : " tight") + ")";
                if (TRACE) {
                    System.out.println(where + " kind " + kind + " key " + k.toString().substring(0, 8) + " stats " + tier.stats());
                }
                if (kind < 45) {
                    byte[] v = new byte[rnd.nextInt(maxValue + 1)];
                    rnd.nextBytes(v);
                    touch(sinceFlush, model, k);
                    assertTrue(tier.put(k, v), where);
                    model.put(k, v);
                    sinceFlush.get(k).add(v);
                } else if (kind < 75) {
                    check(tier, model, k, exact, where);
                } else if (kind < 83) {
                    touch(sinceFlush, model, k);
                    boolean had = tier.remove(k);
                    if (exact) {
                        assertEquals(model.containsKey(k), had, where + " remove");
                    }
                    model.remove(k);
                    sinceFlush.get(k).add(null);
                } else if (kind < 88) {
                    tier.flush();
                    sinceFlush.clear();
                } else if (kind < 93) {
                    tier.close();
                    sinceFlush.clear();
                    tier = DiskTier.open(config, evicted::add);
                } else if (kind < 96) {
                    tier.flush();
                    sinceFlush.clear();
                    tier.simulateCrash();
                    tier = DiskTier.open(config, evicted::add);
                } else {
                    tier.simulateCrash();
                    tier = DiskTier.open(config, evicted::add);
                    // Resynchronise the model with what survived, checking it is allowed.
                    for (Map.Entry<Id, List<byte[]>> e : sinceFlush.entrySet()) {
                        byte[] got = tier.get(e.getKey()).get(5, TimeUnit.SECONDS);
                        boolean allowed = got == null && (!exact || e.getValue().contains(null));
                        for (byte[] v : e.getValue()) {
                            allowed |= got != null && v != null && java.util.Arrays.equals(v, got);
                        }
                        if (!allowed) {
                            fail(where + ": after a crash " + e.getKey() + " holds a value it never had since the last flush");
                        }
                        if (got == null) {
                            model.remove(e.getKey());
                            tier.remove(e.getKey());
                        } else {
                            model.put(e.getKey(), got);
                        }
                    }
                    tier.flush();
                    sinceFlush.clear();
                }
                if (exact) {
                    assertEquals(model.size(), tier.records(), where + " records");
                }
            }
            for (Id k : keys) {
                check(tier, model, k, exact, "seed " + seed + " final");
            }
            if (exact) {
                assertEquals(List.of(), evicted, "seed " + seed + ": nothing is evicted from a roomy tier");
                DiskStats.Snapshot s = tier.stats();
                assertEquals(0, s.corruptRefusals() + s.staleRefusals() + s.tagCollisions(), "seed " + seed + " refusals " + s);
            }
        } finally {
            tier.close();
        }
    }

    private static void touch(Map<Id, List<byte[]>> sinceFlush, Map<Id, byte[]> model, Id k) {
        sinceFlush.computeIfAbsent(k, x -> {
            List<byte[]> l = new ArrayList<>();
            l.add(model.get(k));
            return l;
        });
    }

    private static void check(DiskTier tier, Map<Id, byte[]> model, Id k, boolean exact, String where) throws Exception {
        byte[] got = tier.get(k).get(5, TimeUnit.SECONDS);
        byte[] want = model.get(k);
        if (want == null) {
            if (got != null) {
                fail(where + ": " + k + " was removed or never put, yet the tier returned " + got.length + " bytes");
            }
        } else if (exact || got != null) {
            assertArrayEquals(want, got, where + ": " + k);
        }
    }
}
