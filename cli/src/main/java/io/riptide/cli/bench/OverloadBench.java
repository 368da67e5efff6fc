package io.riptide.cli.bench;

import io.riptide.simulator.report.Charts;
import io.riptide.simulator.report.CsvWriter;
import io.riptide.simulator.report.Progress;
import io.riptide.simulator.report.ResultJson;
import io.riptide.simulator.report.Series;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The browser proxy under open-loop overload, as SEDA promises to handle it: the proxy in a JVM of its own in front of
 * a loopback origin that answers as a distant one does (after {@code originDelay}, {@code no-store}, so every request
 * reaches it). After a discarded warm-up, a short ramp finds the proxy's capacity (the highest rate it served: requests
 * doubling every step until it no longer keeps up, and once more), a light load at a tenth of it gives the unloaded
 * latency, then {@code factor} times the capacity is offered for {@code duration}. Measured: offered and served rates second by second, the latency of the
 * requests served (from their scheduled times), the requests shed (503 with {@code Retry-After}), the proxy's RSS
 * throughout, and its stage figures from {@code /metrics}.
 */
public final class OverloadBench {
    /** The object served: a typical small page resource. */
    public static final int SIZE = 10 * 1024;
    /** Load at the ramp's first rate before it, discarded: the proxy's JVM compiles its hot paths, the pools fill. */
    static final Duration WARMUP = Duration.ofSeconds(5);
    /** The ramp's first rate, per second; each step doubles it. */
    static final double RAMP_START = 50;
    /** Each ramp step's length. */
    static final Duration RAMP_STEP = Duration.ofSeconds(3);
    /** At most this many ramp steps (50 × 2^13 ≈ 400,000 per second): the ramp ends even against a proxy that never saturates. */
    static final int RAMP_STEPS = 14;
    /** A step is saturated when it served less than this share of what it offered (or requests queued in the generator). */
    static final double KEPT_UP = 0.9;
    /** The unloaded rate as a share of the capacity. */
    static final double UNLOADED_FRACTION = 0.1;
    /** Long enough for a p99 of some thousand requests at a tenth of a few hundred per second. */
    static final Duration UNLOADED = Duration.ofSeconds(15);
    /** The generator's connections: it opens up to this many, one request in flight on each. */
    static final int INITIAL_CONNECTIONS = 16;
    static final int MAX_CONNECTIONS = 4096;
    /** How often the proxy's RSS is read. */
    static final Duration RSS_EVERY = Duration.ofMillis(250);
    private static final Pattern STAGE_SAMPLE = Pattern.compile("^(riptide_stage_[a-z_]+)\\{stage=\"([^\"]+)\"\\} (\\S+)$",
            Pattern.MULTILINE);

    /**
     * How the benchmark runs.
     *
     * @param duration    the overload's length
     * @param factor      the overload as a multiple of the measured capacity
     * @param originDelay how long the origin takes over each answer
     */
    public record Settings(Duration duration, double factor, Duration originDelay) {
    }

    /** One ramp step's figures. */
    record Step(double offered, double served, long shed, long errors, double p99Ms, boolean saturated) {
    }

    private final Settings settings;
    private final Path out;
    private final Progress progress;
    private final PrintWriter messages;

    public OverloadBench(Settings settings, Path out, Progress progress, PrintWriter messages) {
        this.settings = settings;
        this.out = out;
        this.progress = progress;
        this.messages = messages;
    }

    /** Runs it and writes {@code result.json}, {@code overload.csv} and two charts; returns the result as text. */
    public String run() throws Exception {
        Files.createDirectories(out);
        Path gcLog = out.resolve("proxy-gc.log");
        Files.deleteIfExists(gcLog);
        try (LoopbackOrigin origin = LoopbackOrigin.remote(List.of(SIZE), 1, settings.originDelay());
                ProxyProcess proxy = ProxyProcess.start("g1", gcLog, List.of("--host", "127.0.0.1", "--port", "0"),
                        out.resolve("proxy.out"))) {
            say("the proxy runs in its own JVM (pid " + proxy.pid() + ", G1, default heap) in front of a loopback origin that "
                    + "answers " + SIZE / 1024 + " KB after " + settings.originDelay().toMillis() + " ms, no-store");
            Sampler sampler = new Sampler(proxy);
            sampler.start();
            try {
                String target = "http://" + origin.authority() + LoopbackOrigin.path(SIZE);
                phase(proxy.address(), target, origin, RAMP_START, WARMUP,
                        String.format(Locale.ROOT, "warm-up: %,.0f req/s, discarded", RAMP_START), sampler);
                List<Step> ramp = ramp(proxy.address(), target, origin, sampler);
                double peak = ramp.stream().mapToDouble(Step::served).max().orElse(0);
                if (!(peak > 0)) {
                    throw new IllegalStateException("the proxy served nothing during the ramp: " + proxy.outputTail());
                }
                double unloadedRate = Math.max(1, Math.round(UNLOADED_FRACTION * peak));
                OpenLoopLoad.Result unloaded = phase(proxy.address(), target, origin, unloadedRate, UNLOADED,
                        String.format(Locale.ROOT, "unloaded: %,.0f req/s (a tenth of the capacity)", unloadedRate), sampler);
                double overloadRate = Math.round(settings.factor() * peak);
                long gcOffset = GcPauses.length(gcLog);
                long overloadStart = sampler.sinceStartMillis();
                OpenLoopLoad.Result overload = phase(proxy.address(), target, origin, overloadRate, settings.duration(),
                        String.format(Locale.ROOT, "overload: %,.0f req/s (%.0f × the capacity of %,.0f)", overloadRate,
                                settings.factor(), peak), sampler);
                long overloadEnd = sampler.sinceStartMillis();
                String metrics = scrape(proxy.address());
                Thread.sleep(200); // the JVM's log writer catches up
                Gc gc = new Gc(GcPauses.since(gcLog, gcOffset), heapAfterGcMb(gcLog, gcOffset));
                return write(ramp, peak, unloaded, overload, sampler, overloadStart, overloadEnd, metrics, gc);
            } finally {
                sampler.stop();
            }
        }
    }

    /**
     * Doubles the rate from {@link #RAMP_START} until a step does not keep up, and one step more (or {@link #RAMP_STEPS}
     * steps): the capacity is the most served at any rate, and a step offered just about the capacity may serve less
     * than one offered well over it, because a queue that keeps almost draining sheds some of what it could have served.
     */
    private List<Step> ramp(InetSocketAddress proxy, String target, LoopbackOrigin origin, Sampler sampler) throws Exception {
        List<Step> steps = new ArrayList<>();
        double rate = RAMP_START;
        boolean pastSaturation = false;
        for (int i = 0; i < RAMP_STEPS; i++, rate *= 2) {
            OpenLoopLoad.Result r = phase(proxy, target, origin, rate, RAMP_STEP,
                    String.format(Locale.ROOT, "ramp step %d: %,.0f req/s", i + 1, rate), sampler);
            double served = r.servedRateDuringSchedule();
            // Not kept up: served too little, or requests queued in the generator. A few shed in a step that served
            // nearly all is a stall the admission control rode out (a GC pause, a busy machine), not saturation.
            boolean saturated = served < KEPT_UP * rate || r.saturated();
            steps.add(new Step(rate, served, r.shed(), r.errors(), r.p99Ms(), saturated));
            if (pastSaturation) {
                break;
            }
            pastSaturation = saturated;
        }
        return steps;
    }

    /** One open-loop run with progress each second; its figures go to the terminal. */
    private OpenLoopLoad.Result phase(InetSocketAddress proxy, String target, LoopbackOrigin origin, double rate, Duration length,
            String label, Sampler sampler) throws Exception {
        progress.begin(label, length.toSeconds());
        sampler.ticking(progress);
        OpenLoopLoad.Result r;
        try {
            r = new OpenLoopLoad(rate, length, INITIAL_CONNECTIONS, MAX_CONNECTIONS).run(proxy, target, origin.authority(), SIZE);
        } finally {
            sampler.ticking(null);
        }
        progress.finish();
        say(String.format(Locale.ROOT, "  offered %,.0f/s, served %,.0f/s, shed %,d, failed %,d; served p50 %.1f ms, p99 %.1f ms%s; "
                        + "proxy RSS %.0f MB", rate, r.servedRateDuringSchedule(), r.shed(), r.errors(), r.p50Ms(), r.p99Ms(),
                r.saturated() ? String.format(Locale.ROOT, "; %,d requests waited in the generator for a connection", r.queued()) : "",
                sampler.lastRssMb()));
        return r;
    }

    /** The collections during the overload: their pauses, and the most heap any left in use (the live set's bound). */
    record Gc(GcPauses pauses, double heapAfterMaxMb) {
    }

    private static final Pattern HEAP_AFTER = Pattern.compile("\\bPause\\b.*?->(\\d+)M\\(");

    /** The largest heap in use after a collection logged from byte {@code offset} of {@code log}, in MB; NaN if none. */
    static double heapAfterGcMb(Path log, long offset) throws IOException {
        if (!Files.exists(log)) {
            return Double.NaN;
        }
        String text = Files.readString(log, StandardCharsets.ISO_8859_1);
        double max = Double.NaN;
        Matcher m = HEAP_AFTER.matcher(text.substring((int) Math.min(offset, text.length())));
        while (m.find()) {
            max = max(max, Double.parseDouble(m.group(1)));
        }
        return max;
    }

    /** The proxy's {@code /metrics} now, or an empty text if it did not answer. */
    private static String scrape(InetSocketAddress proxy) {
        try (HttpConnection c = HttpConnection.open(proxy, Duration.ofSeconds(10))) {
            HttpResponse r = c.get("/metrics", proxy.getHostString() + ":" + proxy.getPort());
            return r.status() == 200 ? new String(r.body(), StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            return "";
        }
    }

    /** The {@code riptide_stage_*} samples of a scrape, by metric and stage. */
    static Map<String, Map<String, Double>> stageFigures(String metrics) {
        Map<String, Map<String, Double>> out = new LinkedHashMap<>();
        Matcher m = STAGE_SAMPLE.matcher(metrics);
        while (m.find()) {
            out.computeIfAbsent(m.group(1), k -> new LinkedHashMap<>()).put(m.group(2), parse(m.group(3)));
        }
        return out;
    }

    private static double parse(String v) {
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    private String write(List<Step> ramp, double peak, OpenLoopLoad.Result unloaded, OpenLoopLoad.Result overload, Sampler sampler,
            long overloadStart, long overloadEnd, String metrics, Gc gc) throws IOException {
        double goodput = overload.servedRateDuringSchedule() / peak;
        double p99Ratio = overload.p99Ms() / unloaded.p99Ms();
        List<double[]> rss = sampler.rss();
        double rssBefore = Double.NaN;
        double firstHalfMax = Double.NaN;
        double secondHalfMax = Double.NaN;
        long middle = (overloadStart + overloadEnd) / 2;
        for (double[] s : rss) {
            if (s[0] <= overloadStart) {
                rssBefore = s[1];
            } else if (s[0] <= middle) {
                firstHalfMax = max(firstHalfMax, s[1]);
            } else if (s[0] <= overloadEnd) {
                secondHalfMax = max(secondHalfMax, s[1]);
            }
        }
        long answered = overload.completed() + overload.shed();
        Map<String, Boolean> targets = new LinkedHashMap<>();
        targets.put("goodput_ge_80pct_of_peak", goodput >= 0.8);
        targets.put("p99_le_10x_unloaded_p99", p99Ratio <= 10);
        // Bounded: the second half of the overload needs no more memory than the first did, give or take a tenth.
        targets.put("rss_bounded", secondHalfMax <= 1.1 * firstHalfMax);
        targets.put("excess_shed_with_retry_after", answered >= 0.999 * overload.scheduled());

        ResultJson json = new ResultJson().put("benchmark", "overload")
                .put("origin_delay_ms", (double) settings.originDelay().toMillis())
                .put("object_bytes", (long) SIZE)
                .put("factor", settings.factor())
                .put("overload_seconds", (double) settings.duration().toMillis() / 1000)
                .put("proxy_jvm_options", String.join(" ", ProxyProcess.jvmOptions("g1", out.resolve("proxy-gc.log"))));
        ResultJson.ObjectList steps = json.objects("ramp");
        for (Step s : ramp) {
            steps.add().put("offered_rps", s.offered()).put("served_rps", s.served()).put("shed", s.shed()).put("errors", s.errors())
                    .put("p99_ms", s.p99Ms()).put("saturated", s.saturated());
        }
        json.put("peak_rps", peak)
                .put("unloaded_rps", unloaded.rate())
                .put("unloaded_p50_ms", unloaded.p50Ms())
                .put("unloaded_p99_ms", unloaded.p99Ms())
                .put("offered_rps", overload.rate())
                .put("served_rps", overload.servedRateDuringSchedule())
                .put("served_rps_with_drain", overload.achievedRate())
                .put("goodput_ratio", goodput)
                .put("p50_ms", overload.p50Ms())
                .put("p99_ms", overload.p99Ms())
                .put("p999_ms", overload.p999Ms())
                .put("max_ms", overload.maxMs())
                .put("p99_ratio", p99Ratio)
                .put("requests", overload.scheduled())
                .put("served", overload.completed())
                .put("shed", overload.shed())
                .put("shed_rps", overload.shedRate())
                .put("shed_p99_ms", overload.shedLatencyNanos().getTotalCount() == 0 ? Double.NaN
                        : overload.shedLatencyNanos().getValueAtPercentile(99) / 1e6)
                .put("errors", overload.errors())
                .put("generator_queued", overload.queued())
                .put("generator_connections", (long) overload.connectionsUsed())
                .put("offered_per_second", overload.perSecond().offered())
                .put("served_per_second", overload.perSecond().completed())
                .put("shed_per_second", overload.perSecond().shed())
                .put("failed_per_second", overload.perSecond().failed())
                .put("rss_seconds", rss.stream().mapToDouble(s -> s[0] / 1000.0).toArray())
                .put("rss_mb", rss.stream().mapToDouble(s -> s[1]).toArray())
                .put("overload_from_second", overloadStart / 1000.0)
                .put("overload_to_second", overloadEnd / 1000.0)
                .put("rss_before_overload_mb", rssBefore)
                .put("rss_first_half_max_mb", firstHalfMax)
                .put("rss_second_half_max_mb", secondHalfMax)
                .put("heap_after_gc_max_mb", gc.heapAfterMaxMb())
                .put("gc_pauses", (long) gc.pauses().count())
                .put("gc_max_pause_ms", gc.pauses().count() == 0 ? 0 : gc.pauses().maxMs());
        ResultJson stages = json.object("stages_after");
        stageFigures(metrics).forEach((metric, byStage) -> {
            ResultJson m = stages.object(metric);
            byStage.forEach(m::put);
        });
        ResultJson t = json.object("targets");
        targets.forEach(t::put);
        t.put("all_met", targets.values().stream().allMatch(b -> b));
        json.object("machine").put("cores", (long) Runtime.getRuntime().availableProcessors())
                .put("java", System.getProperty("java.version"))
                .put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
        json.write(out.resolve("result.json"));
        writeCsv(overload);
        writeCharts(overload, peak, rss, overloadStart, overloadEnd);
        return text(ramp, peak, unloaded, overload, goodput, p99Ratio, rssBefore, firstHalfMax, secondHalfMax, gc, targets);
    }

    private static double max(double a, double b) {
        return Double.isNaN(a) ? b : Math.max(a, b);
    }

    private void writeCsv(OpenLoopLoad.Result r) throws IOException {
        OpenLoopLoad.PerSecond s = r.perSecond();
        try (CsvWriter csv = new CsvWriter(out.resolve("overload.csv"), List.of("second", "offered", "served", "shed", "failed"))) {
            for (int i = 0; i < s.offered().length; i++) {
                csv.row(i, s.offered()[i], s.completed()[i], s.shed()[i], s.failed()[i]);
            }
        }
    }

    private void writeCharts(OpenLoopLoad.Result r, double peak, List<double[]> rss, long overloadStart, long overloadEnd)
            throws IOException {
        OpenLoopLoad.PerSecond s = r.perSecond();
        // The schedule, and the drain only as far as answers still came.
        int n = Math.min(s.offered().length, (int) settings.duration().toSeconds());
        for (int i = n; i < s.offered().length; i++) {
            if (s.completed()[i] + s.shed()[i] + s.failed()[i] > 0) {
                n = i + 1;
            }
        }
        double[] x = new double[n];
        double[] peakLine = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = i;
            peakLine[i] = peak;
        }
        Charts charts = new Charts();
        charts.line(out.resolve("overload.png"), String.format(Locale.ROOT, "%.0f × capacity offered, open loop", settings.factor()),
                "second of the overload", "requests per second", List.of(
                        new Series("offered", x, toDouble(s.offered(), n)),
                        new Series("served (200)", x, toDouble(s.completed(), n)),
                        new Series("shed (503, Retry-After)", x, toDouble(s.shed(), n)),
                        new Series("failed", x, toDouble(s.failed(), n)),
                        new Series("capacity (ramp's peak)", x, peakLine)));
        double[] rx = rss.stream().mapToDouble(p -> p[0] / 1000.0).toArray();
        double[] ry = rss.stream().mapToDouble(p -> p[1]).toArray();
        double top = ry.length == 0 ? 1 : java.util.Arrays.stream(ry).max().orElse(1);
        charts.line(out.resolve("overload-rss.png"), "Proxy RSS (the overload between the marks)", "second of the run", "MB", List.of(
                new Series("RSS", rx, ry),
                new Series("overload starts", new double[] {overloadStart / 1000.0, overloadStart / 1000.0}, new double[] {0, top}),
                new Series("overload ends", new double[] {overloadEnd / 1000.0, overloadEnd / 1000.0}, new double[] {0, top})));
    }

    /** The first {@code n} values as doubles. */
    private static double[] toDouble(long[] v, int n) {
        double[] out = new double[n];
        for (int i = 0; i < n; i++) {
            out[i] = v[i];
        }
        return out;
    }

    private String text(List<Step> ramp, double peak, OpenLoopLoad.Result unloaded, OpenLoopLoad.Result overload, double goodput,
            double p99Ratio, double rssBefore, double firstHalfMax, double secondHalfMax, Gc gc, Map<String, Boolean> targets) {
        StringBuilder s = new StringBuilder("ramp: offered → served req/s");
        for (Step step : ramp) {
            s.append(String.format(Locale.ROOT, "  %,.0f → %,.0f%s", step.offered(), step.served(), step.saturated() ? " (saturated)" : ""));
        }
        s.append(String.format(Locale.ROOT, "%ncapacity (peak served) %,.0f req/s; unloaded at %,.0f req/s: p99 %.2f ms%n", peak,
                unloaded.rate(), unloaded.p99Ms()));
        s.append(String.format(Locale.ROOT, "overload: offered %,.0f req/s for %d s, served %,.0f req/s (goodput %.2f of the peak), "
                        + "shed %,d (%,.0f/s), failed %,d; served p50 %.2f ms, p99 %.2f ms (%.1f × unloaded)%n", overload.rate(),
                settings.duration().toSeconds(), overload.servedRateDuringSchedule(), goodput, overload.shed(), overload.shedRate(),
                overload.errors(), overload.p50Ms(), overload.p99Ms(), p99Ratio));
        s.append(String.format(Locale.ROOT, "proxy RSS: %.0f MB before, at most %.0f MB in the first half, %.0f MB in the second; "
                        + "heap in use after each of %d collections at most %.0f MB (longest pause %.1f ms)%n", rssBefore, firstHalfMax,
                secondHalfMax, gc.pauses().count(), gc.heapAfterMaxMb(), gc.pauses().count() == 0 ? 0 : gc.pauses().maxMs()));
        long met = targets.values().stream().filter(b -> b).count();
        s.append("targets met: ").append(met).append(" of ").append(targets.size());
        List<String> missed = targets.entrySet().stream().filter(e -> !e.getValue()).map(Map.Entry::getKey).toList();
        if (!missed.isEmpty()) {
            s.append(" (not: ").append(String.join(", ", missed)).append(")");
        }
        return s.toString();
    }

    private void say(String line) {
        messages.println(line);
        messages.flush();
    }

    /**
     * A daemon thread that reads the proxy's RSS every {@link #RSS_EVERY} and, while a phase runs, steps its progress
     * once a second (the progress is touched by this thread alone meanwhile).
     */
    private static final class Sampler {
        private final ProxyProcess proxy;
        private final long start = System.nanoTime();
        private final List<double[]> rss = new ArrayList<>();
        private Progress ticking;
        private volatile boolean running = true;
        private Thread thread;

        Sampler(ProxyProcess proxy) {
            this.proxy = proxy;
        }

        void start() {
            thread = new Thread(this::loop, "overload-sampler");
            thread.setDaemon(true);
            thread.start();
        }

        /** Starts ({@code p}) or stops (null) stepping a progress; once this returns, no step is under way. */
        synchronized void ticking(Progress p) {
            ticking = p;
        }

        long sinceStartMillis() {
            return (System.nanoTime() - start) / 1_000_000;
        }

        synchronized List<double[]> rss() {
            return new ArrayList<>(rss);
        }

        synchronized double lastRssMb() {
            return rss.isEmpty() ? Double.NaN : rss.get(rss.size() - 1)[1];
        }

        void stop() throws InterruptedException {
            running = false;
            thread.interrupt();
            thread.join(5000);
        }

        private void loop() {
            long nextTick = System.nanoTime() + 1_000_000_000L;
            Path status = Path.of("/proc", Long.toString(proxy.pid()), "status");
            // Bounded by stop(), which the benchmark calls in a finally.
            while (running) {
                double mb = readRssMb(status);
                if (!Double.isNaN(mb)) {
                    synchronized (this) {
                        rss.add(new double[] {sinceStartMillis(), mb});
                    }
                }
                if (System.nanoTime() >= nextTick) {
                    nextTick += 1_000_000_000L;
                    synchronized (this) {
                        if (ticking != null) {
                            ticking.step();
                        }
                    }
                }
                try {
                    Thread.sleep(RSS_EVERY.toMillis());
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        /** VmRSS from /proc, in MB; NaN where there is no /proc (not Linux) or the process is gone. */
        private static double readRssMb(Path status) {
            try {
                for (String line : Files.readAllLines(status, StandardCharsets.ISO_8859_1)) {
                    if (line.startsWith("VmRSS:")) {
                        return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
                    }
                }
            } catch (IOException | NumberFormatException e) {
                // not measured
            }
            return Double.NaN;
        }
    }
}
