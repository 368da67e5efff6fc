package io.riptide.cli.bench;

import io.riptide.simulator.report.Charts;
import io.riptide.simulator.report.CsvWriter;
import io.riptide.simulator.report.Progress;
import io.riptide.simulator.report.ResultJson;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Hit throughput side by side, in one run: 1, 10 and 100 KB objects served as hits by Riptide's browser proxy from
 * its memory tier and (tier off) from the overlay, by Squid from its memory cache, and by nginx straight from disk
 * (the machine's practical limit), all loaded by the same external closed-loop generator, wrk, after a warm-up. The
 * proxy runs in a JVM of its own; the overlay, gateway and origin stay in this one. Then the proxy's GC pauses are
 * read from its GC log while it serves memory hits at half its measured maximum rate under open-loop load.
 */
public final class HitThroughputBench {
    /** The object sizes measured. */
    public static final List<Integer> SIZES = List.of(1024, 10240, 102400);
    /** The open-loop rate as a fraction of the proxy's measured maximum (memory hits of 1 KB). */
    public static final double OPEN_LOOP_FRACTION = 0.5;
    /** The most connections the open-loop generator may open. */
    public static final int OPEN_LOOP_MAX_CONNECTIONS = 1024;
    /** The systems, in the order measured, with their keys in result.json and their labels. */
    public static final List<SystemRow> SYSTEMS = List.of(
            new SystemRow("riptide_memory", "Riptide memory hits"),
            new SystemRow("riptide_overlay", "Riptide overlay hits"),
            new SystemRow("squid", "Squid memory hits"),
            new SystemRow("nginx", "nginx from disk"));

    /** One system measured: its key in result.json's field names and its label in charts and text. */
    public record SystemRow(String key, String label) {
    }

    /**
     * How the benchmark runs.
     *
     * @param connections wrk's keep-alive connections (and the open-loop generator's to begin with)
     * @param wrkThreads  wrk's threads
     * @param duration    measured load per system and size (whole seconds)
     * @param warmup      load before each measurement, discarded (whole seconds; zero for none)
     * @param memoryMb    the proxy's memory tier in the memory row, and Squid's memory cache
     * @param gc          the proxy JVM's collector, a key of {@link ProxyProcess#COLLECTORS}
     * @param openLoop    the open-loop GC measurement's length; zero skips it
     */
    public record Settings(int connections, int wrkThreads, Duration duration, Duration warmup, int memoryMb, String gc,
            Duration openLoop) {
    }

    /**
     * The external programs: wrk (without it nothing is measured), and the sources of Squid and nginx (empty: not
     * installed, and their rows are null).
     */
    public record Tools(Optional<Path> wrk, Function<Integer, Optional<SquidProxy>> squid, Supplier<Optional<NginxServer>> nginx) {
        /** Whatever is installed on this machine. */
        public static Tools installed() {
            return new Tools(Wrk.binary(), SquidProxy::withMemoryCache, NginxServer::find);
        }
    }

    private final Settings settings;
    private final Path out;
    private final Progress progress;
    private final PrintWriter messages;
    private final Function<HitProxySetup, ? extends HitProxyUnderTest> riptide;
    private final Tools tools;
    private final Map<String, Map<Integer, Wrk.Result>> results = new LinkedHashMap<>();
    private final Map<String, String> notMeasured = new LinkedHashMap<>();
    private final Map<String, String> versions = new LinkedHashMap<>();
    private long originRequestsDuringLoad;
    private String proxyName = "unavailable";
    private OpenLoopLoad.Result openLoop;
    /** The offered rate of the equal-rate comparison, once Squid's maximum is known; 0 before (or without Squid). */
    private double equalRate;
    private final Map<String, OpenLoopLoad.Result> atEqualRate = new LinkedHashMap<>();
    private GcPauses gcPauses;

    /**
     * {@code riptide} makes the Riptide proxy for each Riptide row (memory tier on, then off); if it or its hits
     * fail, the benchmark fails, since without them there is nothing to compare.
     */
    public HitThroughputBench(Settings settings, Path out, Progress progress, PrintWriter messages,
            Function<HitProxySetup, ? extends HitProxyUnderTest> riptide, Tools tools) {
        this.settings = settings;
        this.out = out;
        this.progress = progress;
        this.messages = messages;
        this.riptide = riptide;
        this.tools = tools;
    }

    /** Runs it and writes {@code result.json}, a CSV and two charts; returns the result as text. */
    public String run() throws Exception {
        Files.createDirectories(out);
        try (LoopbackOrigin origin = LoopbackOrigin.start(SIZES, 1)) {
            if (tools.wrk().isEmpty()) {
                SYSTEMS.forEach(s -> notMeasured.put(s.key(), "wrk is not installed (apt-get install wrk)"));
                say("wrk is not installed, so nothing is measured and every figure is null: apt-get install wrk");
            } else {
                Wrk wrk = new Wrk(tools.wrk().get(), Math.min(settings.wrkThreads(), settings.connections()), settings.connections());
                versions.put("wrk", wrk.version());
                List<URI> urls = SIZES.stream().map(s -> URI.create("http://" + origin.authority() + LoopbackOrigin.path(s))).toList();
                // Squid first: its rate sets the equal-rate comparison the Riptide memory row then repeats.
                squidRow(SYSTEMS.get(2), origin, urls, wrk);
                riptideRow(SYSTEMS.get(0), true, origin, urls, wrk);
                riptideRow(SYSTEMS.get(1), false, origin, urls, wrk);
                nginxRow(SYSTEMS.get(3), origin, wrk);
            }
        }
        return write();
    }

    private void riptideRow(SystemRow row, boolean memoryTier, LoopbackOrigin origin, List<URI> urls, Wrk wrk) throws Exception {
        String tag = memoryTier ? "memory" : "overlay";
        HitProxySetup setup = new HitProxySetup(memoryTier ? settings.memoryMb() : 0, settings.gc(),
                out.resolve(memoryTier ? "proxy-gc.log" : "proxy-overlay-gc.log"), out.resolve("proxy-" + tag + ".out"));
        // A log of an earlier run in the same directory would otherwise be read as this one's.
        Files.deleteIfExists(setup.gcLog());
        say(row.label() + ": starting a loopback overlay and the proxy in its own JVM (--memory-mb " + setup.memoryMb()
                + ", " + settings.gc() + ")");
        try (HitProxyUnderTest proxy = riptide.apply(setup)) {
            InetSocketAddress address = proxy.start();
            if (memoryTier) {
                proxyName = proxy.name();
            }
            proxy.makeHits(urls);
            checkServes(row, address, origin, true);
            measure(row, address, origin, true, wrk);
            if (memoryTier) {
                equalRate(row, address, origin);
                openLoop(address, origin, setup.gcLog());
            }
        }
    }

    private void squidRow(SystemRow row, LoopbackOrigin origin, List<URI> urls, Wrk wrk) throws Exception {
        Optional<SquidProxy> found = tools.squid().apply(settings.memoryMb());
        if (found.isEmpty()) {
            notInstalled(row, "squid");
            return;
        }
        try (SquidProxy squid = found.get()) {
            versions.put("squid", squid.version());
            say(row.label() + ": starting squid with a " + settings.memoryMb() + " MB memory cache");
            InetSocketAddress address = squid.start();
            try (HttpConnection c = HttpConnection.open(address, Duration.ofSeconds(30))) {
                for (URI url : urls) {
                    awaitSquidHit(c, url);
                }
            }
            checkServes(row, address, origin, true);
            measure(row, address, origin, true, wrk);
            double squidMax = results.get(row.key()).get(SIZES.get(0)).rps();
            if (!settings.openLoop().isZero() && squidMax > 0) {
                equalRate = Math.max(1, Math.floor(OPEN_LOOP_FRACTION * squidMax));
                equalRate(row, address, origin);
            }
        }
    }

    /**
     * 1 KB hits at the same offered rate for Squid and for Riptide's memory tier (half of Squid's closed-loop
     * maximum), open loop: a latency comparison at equal load, which the closed-loop p99s (each system at its own
     * saturation, Riptide at about twice Squid's rate) are not.
     */
    private void equalRate(SystemRow row, InetSocketAddress address, LoopbackOrigin origin) throws Exception {
        if (equalRate > 0) {
            OpenLoopLoad.Result r = openLoopAt(address, origin, equalRate, row.label() + " at the equal rate");
            atEqualRate.put(row.key(), r);
            say(String.format(Locale.ROOT, "  %s at %,.0f req/s open loop: p50 %.3f ms, p99 %.3f ms, p99.9 %.3f ms%s", row.label(),
                    equalRate, r.p50Ms(), r.p99Ms(), r.p999Ms(), r.saturated() ? " (saturated)" : ""));
        }
    }

    /** An open-loop run of 1 KB hits at {@code rate} after a discarded warm-up; its origin requests are counted. */
    private OpenLoopLoad.Result openLoopAt(InetSocketAddress address, LoopbackOrigin origin, double rate, String what)
            throws Exception {
        progress.begin(String.format(Locale.ROOT, "open-loop 1 KB, %s: %,.0f req/s, %d s warm-up + %d s", what, rate,
                settings.warmup().toSeconds(), settings.openLoop().toSeconds()), 1);
        long before = origin.requests();
        String target = "http://" + origin.authority() + LoopbackOrigin.path(SIZES.get(0));
        if (!settings.warmup().isZero()) {
            // Discarded: the generator's own code is cold, and a cold generator falls behind its schedule, which its
            // latencies (measured from the schedule) would charge to the system measured.
            new OpenLoopLoad(rate, settings.warmup(), settings.connections(), OPEN_LOOP_MAX_CONNECTIONS)
                    .run(address, target, origin.authority(), SIZES.get(0));
        }
        OpenLoopLoad.Result r = new OpenLoopLoad(rate, settings.openLoop(), settings.connections(), OPEN_LOOP_MAX_CONNECTIONS)
                .run(address, target, origin.authority(), SIZES.get(0));
        originRequestsDuringLoad += origin.requests() - before;
        progress.step();
        progress.finish();
        return r;
    }

    /** Requests {@code url} until Squid says it answered from its cache (a memory hit: it has no disk cache). */
    private static void awaitSquidHit(HttpConnection c, URI url) throws Exception {
        String said = "";
        for (int attempt = 0; attempt < 10; attempt++) {
            HttpResponse r = c.get(url.toString(), url.getAuthority());
            if (r.status() != 200) {
                throw new IllegalStateException("squid answered GET " + url + " with " + HttpWire.firstLine(r.head()));
            }
            said = HttpWire.header(r.head(), "X-Cache").orElse("") + " " + HttpWire.header(r.head(), "Cache-Status").orElse("");
            if (attempt > 0 && (said.toUpperCase(Locale.ROOT).contains("HIT") && !said.toUpperCase(Locale.ROOT).contains("MISS"))) {
                return;
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("squid did not answer " + url + " from its memory cache after 10 requests (X-Cache / Cache-Status: '"
                + said.strip() + "')");
    }

    private void nginxRow(SystemRow row, LoopbackOrigin origin, Wrk wrk) throws Exception {
        Optional<NginxServer> found = tools.nginx().get();
        if (found.isEmpty()) {
            notInstalled(row, "nginx");
            return;
        }
        try (NginxServer nginx = found.get()) {
            versions.put("nginx", nginx.version());
            Map<String, byte[]> files = new LinkedHashMap<>();
            for (int size : SIZES) {
                files.put(LoopbackOrigin.path(size).substring(1), origin.body(size));
            }
            say(row.label() + ": starting nginx with the origin's objects as files");
            InetSocketAddress address = nginx.start(files);
            try (HttpConnection c = HttpConnection.open(address, Duration.ofSeconds(30))) {
                for (int size : SIZES) {
                    HttpResponse r = c.get(LoopbackOrigin.path(size), authority(address));
                    if (r.status() != 200 || !Arrays.equals(r.body(), origin.body(size))) {
                        throw new IllegalStateException("nginx answered GET " + LoopbackOrigin.path(size) + " with "
                                + HttpWire.firstLine(r.head()) + " and " + r.body().length + " bytes, not the origin's " + size);
                    }
                }
            }
            measure(row, address, origin, false, wrk);
        }
    }

    private void notInstalled(SystemRow row, String program) {
        String why = program + " is not installed (apt-get install " + program + ")";
        notMeasured.put(row.key(), why);
        say(row.label() + " not measured, its figures are null: " + why);
    }

    /** Every object, requested once more as the load will request it, is a 200 with the origin's bytes. */
    private static void checkServes(SystemRow row, InetSocketAddress address, LoopbackOrigin origin, boolean viaProxy) throws Exception {
        try (HttpConnection c = HttpConnection.open(address, Duration.ofSeconds(30))) {
            for (int size : SIZES) {
                String path = LoopbackOrigin.path(size);
                HttpResponse r = c.get(viaProxy ? "http://" + origin.authority() + path : path, origin.authority());
                if (r.status() != 200 || !Arrays.equals(r.body(), origin.body(size))) {
                    throw new IllegalStateException(row.label() + ": GET " + path + " answered " + HttpWire.firstLine(r.head())
                            + " with " + r.body().length + " bytes, not the origin's " + size);
                }
            }
        }
    }

    /** Warms up and measures each size with wrk; through a proxy, counts what reached the origin meanwhile. */
    private void measure(SystemRow row, InetSocketAddress address, LoopbackOrigin origin, boolean viaProxy, Wrk wrk) throws Exception {
        progress.begin(row.label() + ": wrk -t" + Math.min(settings.wrkThreads(), settings.connections()) + " -c"
                + settings.connections() + ", " + settings.warmup().toSeconds() + " s warm-up + " + settings.duration().toSeconds()
                + " s per size", SIZES.size());
        Map<Integer, Wrk.Result> bySize = new LinkedHashMap<>();
        List<String> lines = new ArrayList<>();
        for (int size : SIZES) {
            String path = LoopbackOrigin.path(size);
            String target = viaProxy ? "http://" + origin.authority() + path : path;
            String host = viaProxy ? origin.authority() : authority(address);
            long before = origin.requests();
            if (!settings.warmup().isZero()) {
                wrk.run(address, target, host, settings.warmup(), out);
            }
            Wrk.Result r = wrk.run(address, target, host, settings.duration(), out);
            if (viaProxy) {
                originRequestsDuringLoad += origin.requests() - before;
            }
            bySize.put(size, r);
            lines.add(String.format(Locale.ROOT, "  %s %3d KB: %,.0f req/s, p50 %.3f ms, p99 %.3f ms, p99.9 %.3f ms%s", row.label(),
                    size / 1024, r.rps(), r.p50Ms(), r.p99Ms(), r.p999Ms(), r.errors() == 0 ? "" : ", " + r.errors() + " errors"));
            if (r.bytesPerRequest() < size) {
                lines.add("  warning: " + String.format(Locale.ROOT, "%.0f", r.bytesPerRequest()) + " bytes per response, less than the "
                        + size + "-byte object: not every answer was the object");
            }
            progress.step();
        }
        progress.finish();
        lines.forEach(this::say);
        results.put(row.key(), bySize);
    }

    /** Open-loop memory hits of 1 KB at half the measured maximum, and the proxy JVM's GC pauses meanwhile. */
    private void openLoop(InetSocketAddress address, LoopbackOrigin origin, Path gcLog) throws Exception {
        double max = results.get(SYSTEMS.get(0).key()).get(SIZES.get(0)).rps();
        if (settings.openLoop().isZero() || !(max > 0)) {
            return;
        }
        double rate = Math.max(1, Math.floor(OPEN_LOOP_FRACTION * max));
        long offset = GcPauses.length(gcLog);
        openLoop = openLoopAt(address, origin, rate, "memory hits at half their maximum (the proxy's GC pauses)");
        Thread.sleep(200); // the JVM's log writer catches up
        gcPauses = Files.exists(gcLog) ? GcPauses.since(gcLog, offset) : null;
        if (openLoop.saturated()) {
            say(String.format(Locale.ROOT, "  warning: the proxy and this generator, sharing the cores, did not keep up with %,.0f req/s: "
                    + "%,d requests waited for one of the %d connections, so the open-loop latencies measure that backlog", rate,
                    openLoop.queued(), OPEN_LOOP_MAX_CONNECTIONS));
        }
        say(String.format(Locale.ROOT, "  open loop: %,d of %,d answered, p50 %.3f ms, p99 %.3f ms, p99.9 %.3f ms; %s", openLoop.completed(),
                openLoop.scheduled(), openLoop.p50Ms(), openLoop.p99Ms(), openLoop.p999Ms(), gcPauses == null ? "no GC log"
                        : String.format(Locale.ROOT, "%d GC pauses, p99.9 %.3f ms, max %.3f ms", gcPauses.count(), gcP999Ms(),
                                gcPauses.maxMs())));
    }

    /** The 99.9th percentile pause; 0 when the proxy did not pause at all, NaN when there was no GC log to read. */
    private double gcP999Ms() {
        if (gcPauses == null) {
            return Double.NaN;
        }
        return gcPauses.count() == 0 ? 0 : gcPauses.percentileMs(99.9);
    }

    private void say(String line) {
        messages.println(line);
        messages.flush();
    }

    private static String authority(InetSocketAddress address) {
        return address.getHostString() + ":" + address.getPort();
    }

    private static String suffix(int size) {
        return "_" + size / 1024 + "k";
    }

    private Optional<Wrk.Result> result(String system, int size) {
        return Optional.ofNullable(results.getOrDefault(system, Map.of()).get(size));
    }

    private double figure(String system, int size, Function<Wrk.Result, Double> f) {
        return result(system, size).map(f).orElse(Double.NaN);
    }

    private String write() throws IOException {
        ResultJson json = new ResultJson().put("benchmark", "hit-throughput").put("proxy", proxyName)
                .put("load_generator", "wrk")
                .put("wrk_threads", (long) Math.min(settings.wrkThreads(), settings.connections()))
                .put("connections", (long) settings.connections())
                .put("seconds_per_size", (double) settings.duration().toMillis() / 1000)
                .put("warmup_seconds", (double) settings.warmup().toMillis() / 1000)
                .put("sizes", SIZES.stream().mapToLong(Integer::longValue).toArray())
                .put("proxy_memory_mb", (long) settings.memoryMb())
                .put("squid_memory_mb", (long) settings.memoryMb());
        for (SystemRow s : SYSTEMS) {
            for (int size : SIZES) {
                String sfx = suffix(size);
                json.put(s.key() + "_rps" + sfx, figure(s.key(), size, Wrk.Result::rps))
                        .put(s.key() + "_p50_ms" + sfx, figure(s.key(), size, Wrk.Result::p50Ms))
                        .put(s.key() + "_p99_ms" + sfx, figure(s.key(), size, Wrk.Result::p99Ms))
                        .put(s.key() + "_p999_ms" + sfx, figure(s.key(), size, Wrk.Result::p999Ms));
                count(json, s.key() + "_requests" + sfx, result(s.key(), size).map(Wrk.Result::requests).orElse(null));
                count(json, s.key() + "_errors" + sfx, result(s.key(), size).map(Wrk.Result::errors).orElse(null));
            }
        }
        // The fields of the earlier, Riptide-only version of this benchmark: now its memory-tier figures.
        String memory = SYSTEMS.get(0).key();
        for (int size : List.of(1024, 10240)) {
            String sfx = suffix(size);
            json.put("rps" + sfx, figure(memory, size, Wrk.Result::rps));
        }
        for (int size : List.of(1024, 10240)) {
            String sfx = suffix(size);
            json.put("p50_ms" + sfx, figure(memory, size, Wrk.Result::p50Ms)).put("p99_ms" + sfx, figure(memory, size, Wrk.Result::p99Ms));
        }
        for (int size : List.of(1024, 10240)) {
            count(json, "responses" + suffix(size), result(memory, size).map(Wrk.Result::requests).orElse(null));
        }
        boolean proxyMeasured = results.containsKey(memory) || results.containsKey(SYSTEMS.get(1).key()) || results.containsKey("squid");
        // Hits must not reach the origin; a non-zero count means a proxy was not serving them from its cache.
        count(json, "origin_requests_during_load", proxyMeasured ? originRequestsDuringLoad : null);
        double gcP999 = gcP999Ms();
        json.put("gc_collector", settings.gc())
                .put("proxy_jvm_options", String.join(" ", ProxyProcess.jvmOptions(settings.gc(), out.resolve("proxy-gc.log"))))
                .put("gc_p999_ms", gcP999)
                .put("gc_max_ms", gcPauses == null ? Double.NaN : gcPauses.count() == 0 ? 0 : gcPauses.maxMs())
                .put("gc_total_ms", gcPauses == null ? Double.NaN : gcPauses.totalMs());
        count(json, "gc_pauses", gcPauses == null ? null : (long) gcPauses.count());
        json.put("open_loop_rate", openLoop == null ? Double.NaN : openLoop.rate())
                .put("open_loop_seconds", openLoop == null ? Double.NaN : openLoop.seconds())
                .put("open_loop_p50_ms", openLoop == null ? Double.NaN : openLoop.p50Ms())
                .put("open_loop_p99_ms", openLoop == null ? Double.NaN : openLoop.p99Ms())
                .put("open_loop_p999_ms", openLoop == null ? Double.NaN : openLoop.p999Ms())
                .put("open_loop_max_ms", openLoop == null ? Double.NaN : openLoop.maxMs());
        count(json, "open_loop_requests", openLoop == null ? null : openLoop.scheduled());
        count(json, "open_loop_errors", openLoop == null ? null : openLoop.errors());
        count(json, "open_loop_connections", openLoop == null ? null : (long) openLoop.connectionsUsed());
        count(json, "open_loop_queued", openLoop == null ? null : openLoop.queued());
        // True when the proxy (sharing the cores with the generator) fell behind the schedule: its latencies then
        // measure the backlog, not the proxy at half load.
        if (openLoop != null) {
            json.put("open_loop_saturated", openLoop.saturated());
        } else {
            json.put("open_loop_saturated", Double.NaN);
        }
        json.put("equal_rate", equalRate > 0 ? equalRate : Double.NaN);
        for (String key : List.of(SYSTEMS.get(0).key(), SYSTEMS.get(2).key())) {
            OpenLoopLoad.Result r = atEqualRate.get(key);
            json.put(key + "_equal_rate_p50_ms", r == null ? Double.NaN : r.p50Ms())
                    .put(key + "_equal_rate_p99_ms", r == null ? Double.NaN : r.p99Ms())
                    .put(key + "_equal_rate_p999_ms", r == null ? Double.NaN : r.p999Ms());
        }
        Map<String, Boolean> targets = targets(gcP999);
        ResultJson t = json.object("targets");
        targets.forEach(t::put);
        t.put("all_met", targets.values().stream().allMatch(b -> b));
        ResultJson skipped = json.object("not_measured");
        notMeasured.forEach(skipped::put);
        ResultJson v = json.object("versions");
        versions.forEach(v::put);
        json.object("machine").put("cores", (long) Runtime.getRuntime().availableProcessors())
                .put("java", System.getProperty("java.version"))
                .put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
        json.write(out.resolve("result.json"));
        writeCsv();
        writeCharts();
        return text(targets, gcP999);
    }

    /** A count, or null (NaN) when it was not measured. */
    private static void count(ResultJson json, String key, Long value) {
        if (value == null) {
            json.put(key, Double.NaN);
        } else {
            json.put(key, value.longValue());
        }
    }

    /** The checks, each true or false; a check whose figures were not measured is false. */
    private Map<String, Boolean> targets(double gcP999) {
        Map<String, Boolean> t = new LinkedHashMap<>();
        for (int size : SIZES) {
            String sfx = suffix(size);
            double memory = figure("riptide_memory", size, Wrk.Result::rps);
            t.put("memory_rps_ge_80pct_nginx" + sfx, memory >= 0.8 * figure("nginx", size, Wrk.Result::rps));
            t.put("memory_rps_gt_squid" + sfx, memory > figure("squid", size, Wrk.Result::rps));
            t.put("overlay_rps_ge_50pct_squid" + sfx, figure("riptide_overlay", size, Wrk.Result::rps)
                    >= 0.5 * figure("squid", size, Wrk.Result::rps));
            t.put("memory_p99_le_squid_p99" + sfx, figure("riptide_memory", size, Wrk.Result::p99Ms)
                    <= figure("squid", size, Wrk.Result::p99Ms));
        }
        boolean proxiesMeasured = results.containsKey("riptide_memory") && results.containsKey("riptide_overlay") && results.containsKey("squid");
        t.put("origin_requests_zero", proxiesMeasured && originRequestsDuringLoad == 0);
        t.put("gc_p999_le_5ms", gcP999 <= 5);
        return t;
    }

    private void writeCsv() throws IOException {
        try (CsvWriter csv = new CsvWriter(out.resolve("hit-throughput.csv"), List.of("system", "size_bytes", "wrk_threads", "connections",
                "seconds", "requests", "rps", "p50_ms", "p99_ms", "p999_ms", "mean_ms", "errors"))) {
            for (SystemRow s : SYSTEMS) {
                for (Map.Entry<Integer, Wrk.Result> e : results.getOrDefault(s.key(), Map.of()).entrySet()) {
                    Wrk.Result r = e.getValue();
                    csv.row(s.key(), e.getKey(), Math.min(settings.wrkThreads(), settings.connections()), settings.connections(),
                            r.seconds(), r.requests(), r.rps(), r.p50Ms(), r.p99Ms(), r.p999Ms(), r.meanMs(), r.errors());
                }
            }
        }
    }

    private void writeCharts() throws IOException {
        List<String> sizes = SIZES.stream().map(s -> s / 1024 + " KB").toList();
        Map<String, double[]> rps = new LinkedHashMap<>();
        Map<String, double[]> p99 = new LinkedHashMap<>();
        for (SystemRow s : SYSTEMS) {
            if (!results.containsKey(s.key())) {
                continue;
            }
            // A size not measured shows as no bar: XChart draws no NaN.
            rps.put(s.label(), SIZES.stream().mapToDouble(size -> zeroIfAbsent(figure(s.key(), size, Wrk.Result::rps))).toArray());
            p99.put(s.label(), SIZES.stream().mapToDouble(size -> zeroIfAbsent(figure(s.key(), size, Wrk.Result::p99Ms))).toArray());
        }
        if (rps.isEmpty()) {
            return;
        }
        String load = "wrk -t" + Math.min(settings.wrkThreads(), settings.connections()) + " -c" + settings.connections();
        Charts charts = new Charts();
        charts.bar(out.resolve("hit-throughput.png"), "Hits per second, " + load, "object size", "responses per second", sizes, rps);
        charts.bar(out.resolve("hit-throughput-p99.png"), "Hit latency p99, " + load, "object size", "milliseconds", sizes, p99);
    }

    private static double zeroIfAbsent(double v) {
        return Double.isFinite(v) ? v : 0;
    }

    private String text(Map<String, Boolean> targets, double gcP999) {
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "hits with wrk -t%d -c%d, %d s per size after %d s warm-up: req/s (p99 ms)%n",
                Math.min(settings.wrkThreads(), settings.connections()), settings.connections(), settings.duration().toSeconds(),
                settings.warmup().toSeconds()));
        s.append(String.format(Locale.ROOT, "%-22s", "system"));
        SIZES.forEach(size -> s.append(String.format(Locale.ROOT, "%22s", size / 1024 + " KB")));
        s.append(String.format("%n"));
        for (SystemRow row : SYSTEMS) {
            s.append(String.format(Locale.ROOT, "%-22s", row.label()));
            for (int size : SIZES) {
                Optional<Wrk.Result> r = result(row.key(), size);
                s.append(String.format(Locale.ROOT, "%22s", r.map(x -> String.format(Locale.ROOT, "%,.0f (%.2f)", x.rps(), x.p99Ms()))
                        .orElse("not measured")));
            }
            s.append(String.format("%n"));
        }
        s.append("origin requests during the load: ").append(originRequestsDuringLoad).append(String.format("%n"));
        if (openLoop != null) {
            s.append(String.format(Locale.ROOT, "GC (%s) of the proxy's JVM at %,.0f req/s open loop%s: %s; hit latency p50 %.3f ms, p99 %.3f ms, "
                    + "p99.9 %.3f ms%n", settings.gc(), openLoop.rate(), openLoop.saturated() ? " (saturated: requests queued)" : "", gcPauses == null ? "no GC log" : String.format(Locale.ROOT,
                            "%d pauses, p99.9 %.3f ms, max %.3f ms", gcPauses.count(), gcP999, gcPauses.count() == 0 ? 0 : gcPauses.maxMs()),
                    openLoop.p50Ms(), openLoop.p99Ms(), openLoop.p999Ms()));
        }
        for (Map.Entry<String, OpenLoopLoad.Result> e : atEqualRate.entrySet()) {
            OpenLoopLoad.Result r = e.getValue();
            s.append(String.format(Locale.ROOT, "%s at the equal rate, %,.0f req/s open loop: p50 %.3f ms, p99 %.3f ms, p99.9 %.3f ms%s%n",
                    e.getKey(), equalRate, r.p50Ms(), r.p99Ms(), r.p999Ms(), r.saturated() ? " (saturated)" : ""));
        }
        long met = targets.values().stream().filter(b -> b).count();
        s.append("targets met: ").append(met).append(" of ").append(targets.size());
        List<String> missed = targets.entrySet().stream().filter(e -> !e.getValue()).map(Map.Entry::getKey).toList();
        if (!missed.isEmpty()) {
            s.append(" (not: ").append(String.join(", ", missed)).append(")");
        }
        return s.toString();
    }
}
