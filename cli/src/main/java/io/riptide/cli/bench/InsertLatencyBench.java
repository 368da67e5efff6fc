package io.riptide.cli.bench;

import com.sun.net.httpserver.HttpServer;
import io.netty.channel.nio.NioEventLoopGroup;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.gateway.GatewayMessages.InsertReply;
import io.riptide.core.gateway.GatewayMessages.Outcome;
import io.riptide.core.http.Headers;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.dolr.DolrCodec;
import io.riptide.dolr.server.OverlayServer;
import io.riptide.dolr.server.ServerSettings;
import io.riptide.gateway.Gateway;
import io.riptide.gateway.GatewayConfig;
import io.riptide.gateway.Origin;
import io.riptide.gateway.client.GatewayClient;
import io.riptide.gateway.origin.OriginFetcher;
import io.riptide.gateway.origin.OriginFetcherConfig;
import io.riptide.gateway.origin.OriginTls;
import io.riptide.simulator.report.Charts;
import io.riptide.simulator.report.CsvWriter;
import io.riptide.simulator.report.Progress;
import io.riptide.simulator.report.ResultJson;
import io.riptide.simulator.report.SampleSummary;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * End-to-end insert latency on loopback: a client node asks the nearest gateway (by anycast) to
 * insert a new URL; the gateway fetches it from a local origin, signs it, stores and publishes it and
 * answers. The origin fetch is timed at the gateway and subtracted, so what remains is Riptide's own
 * cost.
 */
public final class InsertLatencyBench {
    private final int objects;
    private final int sizeBytes;
    private final Path out;
    private final Progress progress;

    public InsertLatencyBench(int objects, int sizeBytes, Path out, Progress progress) {
        this.objects = objects;
        this.sizeBytes = sizeBytes;
        this.out = out;
        this.progress = progress;
    }

    /** Runs it and writes {@code result.json}, a CSV of every sample and a CDF chart; returns the result text. */
    public String run() throws Exception {
        Files.createDirectories(out);
        byte[] body = new byte[sizeBytes];
        new SecureRandom().nextBytes(body);
        // Without TCP_NODELAY the JDK server and delayed ACKs add about 40 ms to every fetch on loopback.
        System.setProperty("sun.net.httpserver.nodelay", "true");
        HttpServer origin = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        origin.createContext("/", exchange -> {
            exchange.getResponseHeaders().add("Cache-Control", "max-age=3600");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        origin.start();
        NioEventLoopGroup group = new NioEventLoopGroup(2);
        // The benchmark's origin is on loopback, which a real gateway refuses (see PublicAddresses): allowed here.
        OriginFetcher fetcher = new OriginFetcher(group, OriginFetcherConfig.defaults().withRate(100_000, 100_000)
                .withPrivateOrigins(true),
                OriginTls.systemDefault(), Clock.systemUTC());
        Map<String, Long> fetchNanos = new ConcurrentHashMap<>();
        Origin timed = request -> {
            long start = System.nanoTime();
            return fetcher.fetch(request).whenComplete((r, e) -> fetchNanos.put(request.url().toString(), System.nanoTime() - start));
        };
        SigningKey provider = SigningKey.generate(new SecureRandom());
        List<OverlayServer> nodes = new ArrayList<>();
        GatewayClient[] client = new GatewayClient[1];
        try {
            OverlayServer first = OverlayServer.start(settings(null), group);
            nodes.add(first);
            first.awaitJoined(Duration.ofSeconds(10));
            for (int i = 0; i < 3; i++) {
                nodes.add(OverlayServer.start(settings(first.address()), group));
            }
            nodes.add(OverlayServer.start(settings(first.address())
                    .withApplication(Gateway.factory(provider, timed, GatewayConfig.defaults()), DolrCodec.create()), group));
            OverlayServer clientNode = OverlayServer.start(settings(first.address()).withApplication(n -> {
                client[0] = new GatewayClient(n, provider.publicKey(), Duration.ofSeconds(20));
                return client[0];
            }, DolrCodec.create()), group);
            nodes.add(clientNode);
            for (OverlayServer n : nodes) {
                n.awaitJoined(Duration.ofSeconds(20));
            }
            Thread.sleep(2000); // leaf sets settle and the gateway's service pointers land
            String base = "http://127.0.0.1:" + origin.getAddress().getPort() + "/object-";
            int warmup = Math.min(50, objects);
            progress.begin("inserting " + (warmup + objects) + " objects of " + sizeBytes + " bytes", warmup + objects);
            double[] total = new double[objects];
            double[] fetch = new double[objects];
            double[] excluded = new double[objects];
            for (int i = -warmup; i < objects; i++) {
                String url = base + i;
                CompletableFuture<InsertReply> reply = new CompletableFuture<>();
                long start = System.nanoTime();
                clientNode.call(n -> {
                    client[0].insert(url, Headers.EMPTY, false, reply::complete);
                    return null;
                });
                InsertReply r = reply.get(30, TimeUnit.SECONDS);
                long elapsed = System.nanoTime() - start;
                if (r.outcome() != Outcome.INSERTED) {
                    throw new IllegalStateException("insert of " + url + " came back " + r.outcome() + ": " + r.reason());
                }
                if (i >= 0) {
                    total[i] = elapsed / 1e6;
                    fetch[i] = fetchNanos.getOrDefault(url, 0L) / 1e6;
                    excluded[i] = total[i] - fetch[i];
                }
                progress.step();
            }
            progress.finish();
            return write(total, fetch, excluded);
        } finally {
            for (OverlayServer n : nodes) {
                n.close();
            }
            fetcher.close();
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
            origin.stop(0);
        }
    }

    private static ServerSettings settings(NodeAddress join) {
        return ServerSettings.of(SigningKey.generate(new SecureRandom()), new NodeAddress("127.0.0.1", 0)).joining(join);
    }

    private String write(double[] total, double[] fetch, double[] excluded) throws Exception {
        SampleSummary t = SampleSummary.of(total);
        SampleSummary f = SampleSummary.of(fetch);
        SampleSummary x = SampleSummary.of(excluded);
        ResultJson json = new ResultJson().put("benchmark", "insert").put("objects", (long) objects).put("size_bytes", (long) sizeBytes)
                .put("insert_p50_ms", t.p50()).put("insert_p90_ms", t.p90()).put("insert_p99_ms", t.p99()).put("insert_mean_ms", t.mean())
                .put("origin_fetch_p50_ms", f.p50()).put("origin_fetch_mean_ms", f.mean())
                .put("insert_excluding_fetch_p50_ms", x.p50()).put("insert_excluding_fetch_p90_ms", x.p90())
                .put("insert_excluding_fetch_p99_ms", x.p99()).put("insert_excluding_fetch_mean_ms", x.mean())
                .put("machine_cores", (long) Runtime.getRuntime().availableProcessors())
                .put("java", System.getProperty("java.version"));
        json.write(out.resolve("result.json"));
        try (CsvWriter csv = new CsvWriter(out.resolve("insert-latency.csv"), List.of("insert_ms", "origin_fetch_ms", "excluding_fetch_ms"))) {
            for (int i = 0; i < total.length; i++) {
                csv.row(total[i], fetch[i], excluded[i]);
            }
        }
        Map<String, double[]> cdf = new LinkedHashMap<>();
        cdf.put("insert (end to end)", total);
        cdf.put("origin fetch", fetch);
        cdf.put("insert without the origin fetch", excluded);
        new Charts().cdf(out.resolve("insert-latency-cdf.png"), "Insert latency on loopback, " + sizeBytes / 1024 + " KB objects",
                "milliseconds", cdf);
        return String.format("insert of %d KB: p50 %.2f ms end to end, origin fetch p50 %.2f ms, without it p50 %.2f ms (p90 %.2f ms)",
                sizeBytes / 1024, t.p50(), f.p50(), x.p50(), x.p90());
    }
}
