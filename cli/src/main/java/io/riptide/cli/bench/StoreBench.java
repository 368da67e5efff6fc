package io.riptide.cli.bench;

import io.riptide.core.id.Id;
import io.riptide.core.store.disk.DiskPolicy;
import io.riptide.core.store.disk.DiskStats;
import io.riptide.core.store.disk.DiskTier;
import io.riptide.core.store.disk.DiskTierConfig;
import io.riptide.simulator.report.Charts;
import io.riptide.simulator.report.CsvWriter;
import io.riptide.simulator.report.Progress;
import io.riptide.simulator.report.ResultJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The disk tier on its own: inserts N objects into a tier sized for N, then measures hits, misses,
 * index size, the engine's disk counters and restart time, for each policy. The tier's files live in
 * a temporary directory ({@code riptide-store-*}) deleted afterwards.
 */
public final class StoreBench {
    /** Bits per object of the paper's Table 3 and Squid's index, for the comparison. */
    private static final double PAPER_LOG_BITS = 47;
    private static final double PAPER_SETMEM_BITS = 11;
    private static final double SQUID_BYTES_LOW = 72;
    private static final double SQUID_BYTES_HIGH = 104;
    private static final int BATCH = 256;

    private final long objects;
    private final List<DiskPolicy> policies;
    private final int objectBytes;
    private final long lookups;
    private final Path out;
    private final Progress progress;

    public StoreBench(long objects, List<DiskPolicy> policies, int objectBytes, long lookups, Path out, Progress progress) {
        this.objects = objects;
        this.policies = policies;
        this.objectBytes = objectBytes;
        this.lookups = lookups;
        this.out = out;
        this.progress = progress;
    }

    /** The measurements of one policy. */
    record Row(DiskPolicy policy, long records, long indexBytes, long indexEntries, long heapGrowth, double insertSeconds,
            double hitSeconds, long hitLookups, long hits, DiskStats.Snapshot insertStats, DiskStats.Snapshot hitStats,
            long misses, DiskStats.Snapshot missStats, double restartSeconds, double crashRestartSeconds, long fileBytes) {

        double indexBytesPerObject() {
            return (double) indexBytes / records;
        }
    }

    /** Runs it and writes {@code result.json}, a CSV and a chart; returns the result as text. */
    public String run() throws Exception {
        Files.createDirectories(out);
        List<Row> rows = new ArrayList<>();
        for (DiskPolicy p : policies) {
            rows.add(measure(p));
        }
        return write(rows);
    }

    static Id key(long i) {
        return Id.fromWords(mix(i), mix(i ^ 0x5bd1e995L), (int) mix(~i));
    }

    private static long mix(long z) {
        z += 0x9e3779b97f4a7c15L;
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    private byte[] value(long i) {
        SplittableRandom r = new SplittableRandom(i);
        byte[] v = new byte[64 + r.nextInt(Math.max(1, objectBytes - 63))];
        r.nextBytes(v);
        return v;
    }

    private static long usedHeap() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        Runtime rt = Runtime.getRuntime();
        return rt.totalMemory() - rt.freeMemory();
    }

    private DiskTierConfig config(DiskPolicy p, Path dir) {
        if (p == DiskPolicy.LOG) {
            // Room for every object (aligned records average 40 + mean body + 8 bytes) plus a tenth.
            long perRecord = 40 + (64 + objectBytes) / 2 + 16;
            return DiskTierConfig.log(dir.resolve("store.log"), objects, Math.max(64L << 20, objects * perRecord * 11 / 10));
        }
        int slot = (40 + objectBytes + 63) / 64 * 64;
        return DiskTierConfig.setMem(dir.resolve("store.tab"), objects, slot);
    }

    private Row measure(DiskPolicy p) throws Exception {
        Path dir = Files.createTempDirectory("riptide-store-");
        try {
            DiskTierConfig config = config(p, dir);
            long heapBefore = usedHeap();
            DiskTier tier = DiskTier.open(config, k -> { });
            String name = p.name().toLowerCase();
            progress.begin(name + ": inserting " + objects + " objects of 64-" + objectBytes + " bytes", objects);
            DiskStats.Snapshot s0 = tier.stats();
            long t0 = System.nanoTime();
            for (long i = 0; i < objects; i++) {
                tier.put(key(i), value(i));
                if ((i & 0xffff) == 0xffff) {
                    progress.advance(0x10000);
                }
            }
            tier.flush();
            double insertSeconds = (System.nanoTime() - t0) / 1e9;
            progress.finish();
            DiskStats.Snapshot s1 = tier.stats();
            long heapGrowth = usedHeap() - heapBefore;
            long records = tier.records();

            SplittableRandom rnd = new SplittableRandom(42);
            long n = Math.min(lookups, objects);
            progress.begin(name + ": " + n + " lookups of inserted objects", n);
            long hits = 0;
            t0 = System.nanoTime();
            for (long done = 0; done < n; done += BATCH) {
                int b = (int) Math.min(BATCH, n - done);
                long[] ids = new long[b];
                List<CompletableFuture<byte[]>> fs = new ArrayList<>(b);
                for (int j = 0; j < b; j++) {
                    ids[j] = rnd.nextLong(objects);
                    fs.add(tier.get(key(ids[j])));
                }
                for (int j = 0; j < b; j++) {
                    byte[] got = fs.get(j).get(60, TimeUnit.SECONDS);
                    if (got != null) {
                        if (!Arrays.equals(got, value(ids[j]))) {
                            throw new IllegalStateException("object " + ids[j] + " came back different");
                        }
                        hits++;
                    }
                }
                progress.advance(b);
            }
            double hitSeconds = (System.nanoTime() - t0) / 1e9;
            progress.finish();
            DiskStats.Snapshot s2 = tier.stats();

            progress.begin(name + ": " + n + " lookups of objects never inserted", n);
            for (long done = 0; done < n; done += BATCH) {
                int b = (int) Math.min(BATCH, n - done);
                List<CompletableFuture<byte[]>> fs = new ArrayList<>(b);
                for (int j = 0; j < b; j++) {
                    fs.add(tier.get(key(objects + done + j)));
                }
                for (CompletableFuture<byte[]> f : fs) {
                    if (f.get(60, TimeUnit.SECONDS) != null) {
                        throw new IllegalStateException("an object never inserted was found");
                    }
                }
                progress.advance(b);
            }
            progress.finish();
            DiskStats.Snapshot s3 = tier.stats();

            tier.close();
            t0 = System.nanoTime();
            tier = DiskTier.open(config, k -> { });
            requireServing(tier);
            double restartSeconds = (System.nanoTime() - t0) / 1e9;
            // A crash after more inserts: LOG replays the log since its checkpoint, SETMEM scans its table.
            long more = Math.min(objects, 100_000);
            for (long i = 0; i < more; i++) {
                tier.put(key(objects * 2 + i), value(objects * 2 + i));
            }
            tier.flush();
            tier.simulateCrash();
            t0 = System.nanoTime();
            tier = DiskTier.open(config, k -> { });
            requireServing(tier);
            double crashRestartSeconds = (System.nanoTime() - t0) / 1e9;
            long fileBytes = Files.size(config.file());
            Row row = new Row(p, records, tier.indexBytes(), tier.indexEntries(), heapGrowth, insertSeconds, hitSeconds, n, hits,
                    s1.minus(s0), s2.minus(s1), n, s3.minus(s2), restartSeconds, crashRestartSeconds, fileBytes);
            tier.close();
            return row;
        } finally {
            deleteTree(dir);
        }
    }

    private void requireServing(DiskTier tier) throws Exception {
        for (long i = 0; i < 1000; i++) {
            byte[] got = tier.get(key(i)).get(60, TimeUnit.SECONDS);
            if (got != null) {
                if (!Arrays.equals(got, value(i))) {
                    throw new IllegalStateException("object " + i + " came back different after a restart");
                }
                return;
            }
        }
        throw new IllegalStateException("no object of the first thousand came back after a restart");
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(f);
            }
        }
    }

    private String write(List<Row> rows) throws IOException {
        ResultJson json = new ResultJson().put("benchmark", "store").put("objects", objects)
                .put("object_bytes_min", 64L).put("object_bytes_max", (long) objectBytes).put("lookups_per_phase", lookups);
        StringBuilder text = new StringBuilder();
        for (Row r : rows) {
            ResultJson o = json.object(r.policy().name().toLowerCase());
            // Lookups of inserted objects the index had dropped (a full set) can read a colliding tag's record:
            // those reads end as misses and are counted against misses, not hits.
            DiskStats.Snapshot h = r.hitStats();
            long hitReads = h.diskReads() - h.tagCollisions() - h.staleRefusals() - h.corruptRefusals();
            o.put("index_bytes_per_object", r.indexBytesPerObject())
                    .put("index_bytes_per_entry", (double) r.indexBytes() / r.indexEntries())
                    .put("index_bytes", r.indexBytes()).put("index_entries", r.indexEntries()).put("records", r.records())
                    .put("set_occupancy", (double) r.records() / r.indexEntries())
                    .put("heap_growth_bytes_per_object", (double) r.heapGrowth() / r.records())
                    .put("disk_reads_per_hit", r.hits() == 0 ? 0 : (double) hitReads / r.hits())
                    .put("disk_reads_per_lookup_of_inserted", (double) h.diskReads() / r.hitLookups())
                    .put("continuation_reads_per_hit", r.hits() == 0 ? 0 : (double) r.hitStats().continuationReads() / r.hits())
                    .put("disk_reads_per_miss", (double) r.missStats().diskReads() / r.misses())
                    .put("random_writes_per_insert", (double) r.insertStats().randomWrites() / objects)
                    .put("inserts_per_s", objects / r.insertSeconds())
                    .put("hits_per_s", r.hits() / r.hitSeconds())
                    .put("hit_ratio_of_inserted", (double) r.hits() / r.hitLookups())
                    .put("buffer_hits", r.hitStats().bufferHits())
                    .put("write_bytes_per_insert", (double) r.insertStats().writtenBytes() / objects)
                    .put("flushes", r.insertStats().flushes())
                    .put("corrupt_refusals", r.hitStats().corruptRefusals() + r.missStats().corruptRefusals())
                    .put("tag_collisions_on_misses", r.missStats().tagCollisions())
                    .put("insert_seconds", r.insertSeconds())
                    .put("restart_seconds", r.restartSeconds())
                    .put("restart_after_crash_seconds", r.crashRestartSeconds())
                    .put("file_bytes", r.fileBytes());
            text.append(String.format("%s: %.2f index bytes/object (%.2f per entry, %.0f%% full), heap +%.1f B/object, "
                    + "%.3f reads/hit, %.4f reads/miss, %.5f random writes/insert, %.0f inserts/s, %.0f hits/s, "
                    + "restart %.1f s (after a crash %.1f s)%n", r.policy(), r.indexBytesPerObject(),
                    (double) r.indexBytes() / r.indexEntries(), 100.0 * r.records() / r.indexEntries(),
                    (double) r.heapGrowth() / r.records(), r.hits() == 0 ? 0 : (double) hitReads / r.hits(),
                    (double) r.missStats().diskReads() / r.misses(), (double) r.insertStats().randomWrites() / objects,
                    objects / r.insertSeconds(), r.hits() / r.hitSeconds(), r.restartSeconds(), r.crashRestartSeconds()));
        }
        json.object("paper_table3").put("hc_log_bits_per_object", PAPER_LOG_BITS).put("hc_setmem_bits_per_object", PAPER_SETMEM_BITS)
                .put("squid_bytes_per_object_low", SQUID_BYTES_LOW).put("squid_bytes_per_object_high", SQUID_BYTES_HIGH);
        json.object("machine").put("cores", (long) Runtime.getRuntime().availableProcessors())
                .put("java", System.getProperty("java.version")).put("max_heap_bytes", Runtime.getRuntime().maxMemory());
        json.write(out.resolve("result.json"));
        try (CsvWriter csv = new CsvWriter(out.resolve("store.csv"), List.of("policy", "records", "index_bytes_per_object",
                "disk_reads_per_hit", "disk_reads_per_miss", "random_writes_per_insert", "inserts_per_s", "hits_per_s",
                "restart_seconds", "restart_after_crash_seconds"))) {
            for (Row r : rows) {
                csv.row(r.policy().name().toLowerCase(), r.records(), r.indexBytesPerObject(),
                        r.hits() == 0 ? 0 : (double) (r.hitStats().diskReads() - r.hitStats().tagCollisions()
                                - r.hitStats().staleRefusals() - r.hitStats().corruptRefusals()) / r.hits(),
                        (double) r.missStats().diskReads() / r.misses(),
                        (double) r.insertStats().randomWrites() / objects, objects / r.insertSeconds(), r.hits() / r.hitSeconds(),
                        r.restartSeconds(), r.crashRestartSeconds());
            }
        }
        List<String> categories = new ArrayList<>();
        List<Double> measured = new ArrayList<>();
        List<Double> paper = new ArrayList<>();
        for (Row r : rows) {
            categories.add(r.policy() == DiskPolicy.LOG ? "HC-Log" : "HC-SetMem");
            measured.add(r.indexBytesPerObject());
            paper.add((r.policy() == DiskPolicy.LOG ? PAPER_LOG_BITS : PAPER_SETMEM_BITS) / 8);
        }
        categories.add("Squid");
        measured.add(0.0);
        paper.add((SQUID_BYTES_LOW + SQUID_BYTES_HIGH) / 2);
        Map<String, double[]> series = new LinkedHashMap<>();
        series.put("Riptide (measured)", measured.stream().mapToDouble(Double::doubleValue).toArray());
        series.put("paper's Table 3 / Squid FAQ", paper.stream().mapToDouble(Double::doubleValue).toArray());
        new Charts().bar(out.resolve("store-index.png"), "Index bytes per cached object, " + objects + " objects",
                "policy", "bytes per object", categories, series);
        return text.toString().trim();
    }
}
