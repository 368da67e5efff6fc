package io.riptide.core.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.riptide.core.id.Id;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The content store against a reference model (a map from GUID to the replica's bytes), over
 * thousands of random sequences of put, get, remove, tier eviction and restart, each from a fixed
 * seed, on four tier arrangements. After every step:
 *
 * <ul>
 *   <li>the GUIDs held are exactly the model's, and each reads back byte for byte as the model has it
 *       (every replica not reported evicted is readable; nothing reported evicted is);</li>
 *   <li>each body is referenced by exactly the model's objects with that body's SHA-256, and the tier
 *       holds exactly one record per object and per distinct body (payloads stored once);</li>
 *   <li>the memory tier holds one direct buffer per record, and none once closed.</li>
 * </ul>
 *
 * The model learns of evictions only through the store's listener, so a missed or spurious report
 * fails. A restart reopens the store over the same persistent tier (the model is unchanged) or, for
 * a memory-only store, over a new empty memory tier (the model is emptied).
 *
 * <p>The sequences are fixed; Caffeine's admission is not quite (its sketch is seeded per cache and it
 * admits a small random share of warm candidates), so a memory arrangement's evictions vary slightly
 * from run to run. The checks hold for any eviction choice, so that costs only exact replay.
 */
class ContentStoreModelTest {
    private static final int SEQUENCES = 500;
    private static final int STEPS = 50;
    private static final int GUIDS = 6;
    private static final int BODIES = 5;

    enum Arrangement { MAP_UNBOUNDED, MAP_BOUNDED, MEMORY, MEMORY_OVER_MAP }

    /** The replicas a sequence draws from: signed copies of 3 URLs and opaque replicas under 3 GUIDs. */
    private static final List<Item> ITEMS = items();

    private record Item(Id guid, byte[] bytes, byte[] digest) {
    }

    private static List<Item> items() {
        byte[][] bodies = new byte[BODIES][];
        for (int b = 0; b < BODIES; b++) {
            bodies[b] = Replicas.body(b * 200, 100 + b); // 0 to 800 bytes, one of them empty
        }
        List<Item> items = new ArrayList<>();
        for (int u = 0; u < GUIDS / 2; u++) {
            for (int b = 0; b < BODIES; b++) {
                var copy = Replicas.copy(Replicas.url(u), 1 + b, bodies[b]);
                items.add(new Item(Replicas.guid(copy), copy.toBytes(), Replicas.sha256(bodies[b])));
            }
        }
        for (int o = 0; o < GUIDS / 2; o++) {
            for (int b = 0; b < BODIES; b++) {
                items.add(new Item(Id.hash("opaque " + o), bodies[b], Replicas.sha256(bodies[b])));
            }
        }
        return items;
    }

    /** One store under test, with whatever it takes to restart it. */
    private static final class Rig {
        final Arrangement arrangement;
        final List<Id> reported = new ArrayList<>();
        // The persistent tier outlives restarts, so its listener is re-pointed at each new store.
        Consumer<Id> hook = k -> { };
        final MapTier map;
        MemoryTier memory;
        ContentStore store;

        Rig(Arrangement arrangement) {
            this.arrangement = arrangement;
            this.map = switch (arrangement) {
                case MAP_UNBOUNDED -> new MapTier(k -> hook.accept(k));
                case MAP_BOUNDED, MEMORY_OVER_MAP -> new MapTier(3000, k -> hook.accept(k));
                case MEMORY -> null;
            };
            open();
        }

        void open() {
            store = ContentStore.open(h -> switch (arrangement) {
                case MAP_UNBOUNDED, MAP_BOUNDED -> {
                    hook = h;
                    yield map;
                }
                case MEMORY -> memory = new MemoryTier(2500, h);
                case MEMORY_OVER_MAP -> new TieredStore(memory = new MemoryTier(2000, k -> { }), onEvict -> {
                    hook = onEvict;
                    return map;
                }, h);
            }, reported::add);
        }

        /** Closes and reopens; returns whether the records survived. */
        boolean restart() {
            store.close();
            if (memory != null) {
                assertEquals(0, memory.liveBuffers(), "buffers left after close");
            }
            open();
            return map != null;
        }

        /** The tier that decides what the store holds. */
        long records() {
            return map != null ? map.records() : memory.records();
        }
    }

    @ParameterizedTest
    @EnumSource(Arrangement.class)
    void matchesTheModel(Arrangement arrangement) {
        long evictions = 0;
        long refused = 0;
        for (int seq = 0; seq < SEQUENCES; seq++) {
            long seed = arrangement.ordinal() * 1_000_003L + seq;
            Rig rig = new Rig(arrangement);
            Map<Id, byte[]> model = new HashMap<>();
            SplittableRandom random = new SplittableRandom(seed);
            try {
                for (int step = 0; step < STEPS; step++) {
                    String where = arrangement + " seed " + seed + " step " + step;
                    rig.reported.clear();
                    int op = random.nextInt(100);
                    if (op < 45) {
                        Item item = ITEMS.get(random.nextInt(ITEMS.size()));
                        boolean ok = rig.store.put(item.guid(), item.bytes());
                        rig.reported.forEach(model::remove);
                        if (ok) {
                            model.put(item.guid(), item.bytes());
                        } else {
                            refused++;
                        }
                        where += " put " + item.guid().shortHex() + (ok ? "" : " (refused)");
                    } else if (op < 70) {
                        Id guid = ITEMS.get(random.nextInt(ITEMS.size())).guid();
                        byte[] got = rig.store.get(guid).join();
                        rig.reported.forEach(model::remove);
                        if (!Arrays.equals(model.get(guid), got)) {
                            fail(where + ": get " + guid.shortHex() + " read " + (got == null ? "nothing" : got.length + " bytes")
                                    + ", the model has " + (model.get(guid) == null ? "nothing" : model.get(guid).length + " bytes"));
                        }
                    } else if (op < 85) {
                        Id guid = ITEMS.get(random.nextInt(ITEMS.size())).guid();
                        boolean was = rig.store.remove(guid);
                        assertEquals(model.remove(guid) != null, was, where + ": remove's answer");
                    } else if (op < 95) {
                        if (rig.map != null && rig.map.records() > 0) {
                            List<Id> keys = rig.map.keys();
                            rig.map.evict(keys.get(random.nextInt(keys.size())));
                        }
                    } else {
                        if (!rig.restart()) {
                            model.clear();
                        }
                    }
                    evictions += rig.reported.size();
                    rig.reported.forEach(model::remove);
                    check(rig, model, where);
                }
            } finally {
                rig.store.close();
            }
            if (rig.memory != null) {
                assertEquals(0, rig.memory.liveBuffers(), arrangement + " seed " + seed + ": buffers left after close");
            }
        }
        if (arrangement != Arrangement.MAP_UNBOUNDED) {
            assertTrue(evictions > 500, arrangement + ": only " + evictions + " evictions: the bound is not exercised");
        }
        System.out.println(arrangement + ": " + SEQUENCES + " sequences, " + evictions + " evictions reported, "
                + refused + " puts refused");
    }

    private static void check(Rig rig, Map<Id, byte[]> model, String where) {
        ContentStore store = rig.store;
        assertEquals(model.keySet(), new HashSet<>(store.guids()), where + ": the GUIDs held");
        Map<String, Integer> users = new HashMap<>();
        for (Map.Entry<Id, byte[]> e : model.entrySet()) {
            byte[] got = store.get(e.getKey()).join();
            if (!Arrays.equals(e.getValue(), got)) {
                fail(where + ": " + e.getKey().shortHex() + " does not read back as put");
            }
            users.merge(Arrays.toString(ReplicaHead.split(e.getValue()).head().digest()), 1, Integer::sum);
        }
        for (Item item : ITEMS) {
            int expected = users.getOrDefault(Arrays.toString(item.digest()), 0);
            assertEquals(expected, store.references(item.digest()), where + ": references of a body");
            if (expected > 0) {
                assertTrue(store.holdsBody(item.digest()), where + ": a referenced body is held");
            }
        }
        assertTrue(store.bodies() >= users.size(), where + ": bodies");
        assertEquals(store.objects() + store.bodies(), rig.records(), where + ": one record per object and per body");
        if (rig.memory != null) {
            assertEquals(rig.memory.records(), rig.memory.liveBuffers(), where + ": one direct buffer per memory record");
        }
    }
}
