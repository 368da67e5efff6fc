package io.riptide.cli.bench;

import io.riptide.simulator.report.Charts;
import io.riptide.simulator.report.CsvWriter;
import io.riptide.simulator.report.Progress;
import io.riptide.simulator.report.ResultJson;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;

/**
 * The paper's Table 1 on loopback: for each object size, the latency of fetching it from a local origin
 * directly, through the browser proxy in pass-through mode and through Squid with its cache off, measured in
 * the same run over one persistent connection per route, with requests interleaved so the routes share the
 * machine's noise.
 */
public final class ProxyOverheadBench {
    /** The object sizes of the paper's Table 1. */
    public static final List<Integer> SIZES = PaperTable1.ROWS.stream().map(PaperTable1.Row::sizeBytes).toList();
    /** The target: the proxy adds at most this much at p50 ... */
    public static final double TARGET_ADDED_P50_MS = 0.25;
    /** ... for objects up to this size (and less than Squid adds at every size). */
    public static final int TARGET_UP_TO_BYTES = 10240;
    /** The large object whose figures result.json also gives on their own. */
    public static final int LARGE_OBJECT_BYTES = 409600;
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final int requests;
    private final Path out;
    private final Progress progress;
    private final PrintWriter messages;
    private final Supplier<? extends ProxyUnderTest> proxy;
    private final Supplier<? extends ProxyUnderTest> squid;

    /**
     * {@code proxy} and {@code squid} are called once each; either may throw {@link IllegalStateException} to say
     * it is unavailable here, and its figures are then null.
     */
    public ProxyOverheadBench(int requests, Path out, Progress progress, PrintWriter messages,
            Supplier<? extends ProxyUnderTest> proxy, Supplier<? extends ProxyUnderTest> squid) {
        this.requests = requests;
        this.out = out;
        this.progress = progress;
        this.messages = messages;
        this.proxy = proxy;
        this.squid = squid;
    }

    /** Runs it and writes {@code result.json}, a CSV and a bar chart; returns the result as text. */
    public String run() throws Exception {
        Files.createDirectories(out);
        try (LoopbackOrigin origin = LoopbackOrigin.start(SIZES, 1);
                ProxyUnderTest proxyUnderTest = available("proxy", proxy).orElse(null);
                ProxyUnderTest squidUnderTest = available("squid", squid).orElse(null)) {
            List<Route> routes = new ArrayList<>();
            routes.add(new Route("direct", origin.address(), false));
            String proxyName = proxyUnderTest == null ? null : proxyUnderTest.name();
            if (proxyUnderTest != null) {
                routes.add(new Route("proxy", proxyUnderTest.start(), true));
            }
            if (squidUnderTest != null) {
                routes.add(new Route("squid", squidUnderTest.start(), true));
            }
            List<OverheadRow> rows = measure(origin, routes);
            return write(rows, proxyName, squidUnderTest != null);
        }
    }

    private Optional<ProxyUnderTest> available(String role, Supplier<? extends ProxyUnderTest> source) {
        try {
            return Optional.of(source.get());
        } catch (IllegalStateException e) {
            messages.println(role + " not measured, its figures are null: " + e.getMessage());
            messages.flush();
            return Optional.empty();
        }
    }

    private List<OverheadRow> measure(LoopbackOrigin origin, List<Route> routes) throws IOException {
        int warmup = warmup(requests);
        List<HttpConnection> connections = new ArrayList<>();
        try {
            for (Route r : routes) {
                connections.add(HttpConnection.open(r.connectTo(), TIMEOUT));
            }
            progress.begin("fetching " + SIZES.size() + " sizes by " + routes.size() + " routes", (long) SIZES.size() * (2L * warmup + requests));
            // Warm every size on every route before measuring any, so the first size does not pay for the JIT.
            for (int size : SIZES) {
                for (int i = 0; i < warmup; i++) {
                    for (int j = 0; j < routes.size(); j++) {
                        fetch(connections.get(j), routes.get(j), origin, size);
                    }
                    progress.step();
                }
            }
            List<OverheadRow> rows = new ArrayList<>();
            for (int size : SIZES) {
                List<Histogram> histograms = new ArrayList<>();
                routes.forEach(r -> histograms.add(LatencyStats.newHistogram()));
                for (int i = -warmup; i < requests; i++) {
                    for (int k = 0; k < routes.size(); k++) {
                        // Rotate which route goes first so none always follows the same one.
                        int j = Math.floorMod(i + k, routes.size());
                        long nanos = fetch(connections.get(j), routes.get(j), origin, size);
                        if (i >= 0) {
                            histograms.get(j).recordValue(nanos);
                        }
                    }
                    progress.step();
                }
                rows.add(new OverheadRow(size, stats(routes, histograms, "direct"), stats(routes, histograms, "proxy"),
                        stats(routes, histograms, "squid")));
            }
            progress.finish();
            return rows;
        } finally {
            connections.forEach(HttpConnection::close);
        }
    }

    private static int warmup(int requests) {
        return Math.min(200, requests);
    }

    private static long fetch(HttpConnection connection, Route route, LoopbackOrigin origin, int size) throws IOException {
        String path = LoopbackOrigin.path(size);
        long start = System.nanoTime();
        HttpResponse response = connection.get(route.target(origin.authority(), path), origin.authority());
        long nanos = System.nanoTime() - start;
        if (response.status() != 200 || response.body().length != size) {
            throw new IOException(route.name() + " answered GET " + path + " with " + HttpWire.firstLine(response.head())
                    + " and " + response.body().length + " bytes, not 200 and " + size);
        }
        return nanos;
    }

    private static LatencyStats stats(List<Route> routes, List<Histogram> histograms, String name) {
        for (int i = 0; i < routes.size(); i++) {
            if (routes.get(i).name().equals(name)) {
                return LatencyStats.of(histograms.get(i));
            }
        }
        return LatencyStats.absent();
    }

    /** Whether the proxy met its target: ≤ 0.25 ms added at p50 up to 10 KB, and less than Squid adds at every size. */
    static boolean targetMet(List<OverheadRow> rows) {
        return !rows.isEmpty() && rows.stream().allMatch(r -> r.proxy().present() && r.squid().present()
                && (r.sizeBytes() > TARGET_UP_TO_BYTES || r.proxyAddedP50Ms() <= TARGET_ADDED_P50_MS)
                && r.proxyAddedP50Ms() < r.squidAddedP50Ms());
    }

    private String write(List<OverheadRow> rows, String proxyName, boolean squidMeasured) throws IOException {
        boolean met = targetMet(rows);
        ResultJson json = new ResultJson().put("benchmark", "proxy-overhead")
                .put("requests_per_size", (long) requests).put("warmup_per_size", (long) 2 * warmup(requests))
                .put("proxy", proxyName == null ? "unavailable" : proxyName)
                .put("squid", squidMeasured ? "cache off" : "unavailable");
        ResultJson.ObjectList jsonRows = json.objects("rows");
        for (OverheadRow r : rows) {
            jsonRows.add().put("size", (long) r.sizeBytes())
                    .put("direct_p50_ms", r.direct().p50Ms()).put("direct_p99_ms", r.direct().p99Ms())
                    .put("proxy_p50_ms", r.proxy().p50Ms()).put("proxy_p99_ms", r.proxy().p99Ms())
                    .put("squid_p50_ms", r.squid().p50Ms()).put("squid_p99_ms", r.squid().p99Ms())
                    .put("proxy_added_p50_ms", r.proxyAddedP50Ms()).put("squid_added_p50_ms", r.squidAddedP50Ms());
        }
        ResultJson.ObjectList paper = json.objects("paper_rows");
        for (PaperTable1.Row p : PaperTable1.ROWS) {
            paper.add().put("size", (long) p.sizeBytes()).put("direct_mean_ms", p.directMs()).put("proxy_mean_ms", p.proxyMs())
                    .put("proxy_added_mean_ms", p.proxyMs() - p.directMs());
        }
        json.object("target").put("proxy_added_p50_ms_at_most", TARGET_ADDED_P50_MS).put("up_to_size", (long) TARGET_UP_TO_BYTES)
                .put("and_less_than_squid_adds", true);
        json.put("target_met", met);
        // The largest object on its own (the large-object item): what each proxy adds there, same run.
        rows.stream().filter(r -> r.sizeBytes() == LARGE_OBJECT_BYTES).findFirst().ifPresent(r -> json
                .put("direct_p50_ms_400k", r.direct().p50Ms()).put("proxy_p50_ms_400k", r.proxy().p50Ms())
                .put("squid_p50_ms_400k", r.squid().p50Ms()).put("proxy_p99_ms_400k", r.proxy().p99Ms())
                .put("squid_p99_ms_400k", r.squid().p99Ms())
                .put("proxy_added_p50_ms_400k", r.proxyAddedP50Ms()).put("squid_added_p50_ms_400k", r.squidAddedP50Ms())
                .put("proxy_adds_less_than_squid_400k", r.proxy().present() && r.squid().present()
                        && r.proxyAddedP50Ms() < r.squidAddedP50Ms()));
        json.object("machine").put("cores", (long) Runtime.getRuntime().availableProcessors())
                .put("java", System.getProperty("java.version"))
                .put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
        json.write(out.resolve("result.json"));
        writeCsv(rows);
        writeChart(rows, proxyName);
        return text(rows, met);
    }

    private void writeCsv(List<OverheadRow> rows) throws IOException {
        try (CsvWriter csv = new CsvWriter(out.resolve("proxy-overhead.csv"),
                List.of("size_bytes", "route", "requests", "p50_ms", "p90_ms", "p99_ms", "mean_ms"))) {
            for (OverheadRow r : rows) {
                for (Map.Entry<String, LatencyStats> e : Map.of("direct", r.direct(), "proxy", r.proxy(), "squid", r.squid())
                        .entrySet().stream().sorted(Map.Entry.comparingByKey()).toList()) {
                    LatencyStats s = e.getValue();
                    if (s.present()) {
                        csv.row(r.sizeBytes(), e.getKey(), s.count(), s.p50Ms(), s.p90Ms(), s.p99Ms(), s.meanMs());
                    }
                }
            }
        }
    }

    private void writeChart(List<OverheadRow> rows, String proxyName) throws IOException {
        Map<String, double[]> series = new LinkedHashMap<>();
        series.put("direct", rows.stream().mapToDouble(r -> r.direct().p50Ms()).toArray());
        if (rows.get(0).proxy().present()) {
            series.put(proxyName + " (pass-through)", rows.stream().mapToDouble(r -> r.proxy().p50Ms()).toArray());
        }
        if (rows.get(0).squid().present()) {
            series.put("squid (cache off)", rows.stream().mapToDouble(r -> r.squid().p50Ms()).toArray());
        }
        List<String> sizes = rows.stream().map(r -> r.sizeBytes() / 1024 + " KB").toList();
        new Charts().bar(out.resolve("proxy-overhead.png"), "Fetch latency on loopback, p50", "object size", "milliseconds",
                sizes, series);
    }

    private static String text(List<OverheadRow> rows, boolean met) {
        StringBuilder s = new StringBuilder(String.format("%8s %10s %10s %10s %12s %12s %14s%n", "size", "direct", "proxy",
                "squid", "proxy adds", "squid adds", "paper adds"));
        for (int i = 0; i < rows.size(); i++) {
            OverheadRow r = rows.get(i);
            PaperTable1.Row p = PaperTable1.ROWS.get(i);
            s.append(String.format("%5d KB %7.3f ms %7.3f ms %7.3f ms %9.3f ms %9.3f ms %11.2f ms%n", r.sizeBytes() / 1024,
                    r.direct().p50Ms(), r.proxy().p50Ms(), r.squid().p50Ms(), r.proxyAddedP50Ms(), r.squidAddedP50Ms(),
                    p.proxyMs() - p.directMs()));
        }
        s.append("p50 latencies; target (proxy adds <= ").append(TARGET_ADDED_P50_MS).append(" ms up to 10 KB and less than squid) ")
                .append(met ? "met" : "not met");
        return s.toString();
    }
}
