package io.riptide.cli.bench;

import io.riptide.simulator.report.Charts;
import io.riptide.simulator.report.CsvWriter;
import io.riptide.simulator.report.Progress;
import io.riptide.simulator.report.ResultJson;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Hit throughput of the browser proxy: 1 KB and 10 KB objects are first inserted into the overlay, then many
 * keep-alive connections request them through the proxy in a closed loop for a fixed time, and the rate and
 * latency percentiles of those overlay hits are reported.
 */
public final class HitThroughputBench {
    /** The object sizes measured. */
    public static final List<Integer> SIZES = List.of(1024, 10240);
    private final int connections;
    private final Duration duration;
    private final Path out;
    private final Progress progress;
    private final Supplier<? extends HitProxyUnderTest> proxy;

    /** {@code proxy} is called once; if it throws, the benchmark fails, since without it there is nothing to measure. */
    public HitThroughputBench(int connections, Duration duration, Path out, Progress progress, Supplier<? extends HitProxyUnderTest> proxy) {
        this.connections = connections;
        this.duration = duration;
        this.out = out;
        this.progress = progress;
        this.proxy = proxy;
    }

    /** Runs it and writes {@code result.json}, a CSV and a chart; returns the result as text. */
    public String run() throws Exception {
        Files.createDirectories(out);
        try (LoopbackOrigin origin = LoopbackOrigin.start(SIZES, 1); HitProxyUnderTest hits = proxy.get()) {
            Route route = new Route("proxy", hits.start(), true);
            List<URI> urls = SIZES.stream().map(s -> URI.create(route.target(origin.authority(), LoopbackOrigin.path(s)))).toList();
            hits.makeHits(urls);
            long originBefore = origin.requests();
            ClosedLoopLoad load = new ClosedLoopLoad(connections, duration);
            Map<Integer, LoadResult> results = new LinkedHashMap<>();
            progress.begin("loading the proxy with " + connections + " connections for " + duration.toSeconds() + " s per size", SIZES.size());
            for (int size : SIZES) {
                results.put(size, load.run(route.connectTo(), route.target(origin.authority(), LoopbackOrigin.path(size)),
                        origin.authority(), size));
                progress.step();
            }
            progress.finish();
            return write(results, hits.name(), origin.requests() - originBefore);
        }
    }

    private String write(Map<Integer, LoadResult> results, String proxyName, long originRequests) throws Exception {
        LoadResult k1 = results.get(1024);
        LoadResult k10 = results.get(10240);
        ResultJson json = new ResultJson().put("benchmark", "hit-throughput").put("proxy", proxyName)
                .put("connections", (long) connections).put("seconds_per_size", (double) duration.toMillis() / 1000)
                .put("rps_1k", k1.rps()).put("rps_10k", k10.rps())
                .put("p50_ms_1k", k1.latency().p50Ms()).put("p99_ms_1k", k1.latency().p99Ms())
                .put("p50_ms_10k", k10.latency().p50Ms()).put("p99_ms_10k", k10.latency().p99Ms())
                .put("responses_1k", k1.responses()).put("responses_10k", k10.responses())
                // Hits must not reach the origin; a non-zero count means the proxy was not serving from the overlay.
                .put("origin_requests_during_load", originRequests);
        json.object("machine").put("cores", (long) Runtime.getRuntime().availableProcessors())
                .put("java", System.getProperty("java.version"));
        json.write(out.resolve("result.json"));
        try (CsvWriter csv = new CsvWriter(out.resolve("hit-throughput.csv"),
                List.of("size_bytes", "connections", "seconds", "responses", "rps", "p50_ms", "p90_ms", "p99_ms", "mean_ms"))) {
            for (Map.Entry<Integer, LoadResult> e : results.entrySet()) {
                LoadResult r = e.getValue();
                csv.row(e.getKey(), connections, r.seconds(), r.responses(), r.rps(), r.latency().p50Ms(), r.latency().p90Ms(),
                        r.latency().p99Ms(), r.latency().meanMs());
            }
        }
        List<String> sizes = new ArrayList<>();
        results.keySet().forEach(s -> sizes.add(s / 1024 + " KB"));
        new Charts().bar(out.resolve("hit-throughput.png"), "Overlay hits through the proxy, " + connections + " connections",
                "object size", "responses per second", sizes,
                Map.of(proxyName, results.values().stream().mapToDouble(LoadResult::rps).toArray()));
        return String.format("hits through %s with %d connections: 1 KB %.0f req/s (p50 %.3f ms, p99 %.3f ms), "
                + "10 KB %.0f req/s (p50 %.3f ms, p99 %.3f ms); origin saw %d requests during the load", proxyName, connections,
                k1.rps(), k1.latency().p50Ms(), k1.latency().p99Ms(), k10.rps(), k10.latency().p50Ms(), k10.latency().p99Ms(),
                originRequests);
    }
}
