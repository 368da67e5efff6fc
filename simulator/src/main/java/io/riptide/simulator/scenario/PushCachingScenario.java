package io.riptide.simulator.scenario;

import io.riptide.simulator.overlay.RandomOrder;
import io.riptide.cachemanager.CacheManagerConfig;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.http.CanonicalUrl;
import io.riptide.core.http.Headers;
import io.riptide.core.id.Id;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.object.PushMode;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.OverlayApplication;
import io.riptide.dolr.OverlayNode;
import io.riptide.gateway.Gateway;
import io.riptide.gateway.GatewayConfig;
import io.riptide.simulator.agents.Agents;
import io.riptide.simulator.agents.ClientResult;
import io.riptide.simulator.agents.ClosedLoopUser;
import io.riptide.simulator.agents.OriginDocument;
import io.riptide.simulator.agents.ProxyClient;
import io.riptide.simulator.agents.SimulatedOrigin;
import io.riptide.simulator.overlay.AgentOverlay;
import io.riptide.simulator.report.Charts;
import io.riptide.simulator.report.CsvWriter;
import io.riptide.simulator.report.Progress;
import io.riptide.simulator.report.ResultJson;
import io.riptide.simulator.report.SampleSummary;
import io.riptide.simulator.report.Samples;
import io.riptide.simulator.report.Series;
import io.riptide.simulator.topology.TopologyParams;
import io.riptide.simulator.topology.TransitStubTopology;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * Paper Figs. 23–24: a 16 KB document, stale after 5 s and changed every 30 s, on an origin behind a
 * 10 Mbit/s link ({@link io.riptide.simulator.agents.OriginLink}); users in one stub request it in a
 * closed loop. Two providers share the overlay: one whose gateway keeps the URLs in push mode (a
 * heartbeat or update down the dissemination tree every 2 s), one without push (no monitors), where
 * a user finding the stub's replica stale goes to the origin and hints the cache manager. Measured
 * per number of users: latency percentiles and requests answered per second.
 */
public final class PushCachingScenario implements Scenario {
    @Override
    public String name() {
        return "push-caching";
    }

    @Override
    public String description() {
        return "latency and throughput with and without push behind a slow origin link (--clients, --duration-s)";
    }

    @Override
    public void run(ScenarioContext context) throws Exception {
        ScenarioOptions options = context.options();
        int nodes = options.getInt("nodes", 300, 20, 200_000);
        int perStub = options.getInt("hosts-per-stub", TopologyParams.DEFAULT_HOSTS_PER_STUB, 4, 10_000);
        int[] counts = Arrays.stream(options.getString("clients", "8,16,32,64,128").split(",")).map(String::trim)
                .mapToInt(Integer::parseInt).toArray();
        int durationS = options.getInt("duration-s", 40, 1, 86_400);
        Duration think = Duration.ofMillis(options.getInt("think-ms", 10, 0, 60_000));
        int sizeBytes = options.getInt("size-kb", 16, 1, 8192) * 1024;
        int maxAge = options.getInt("max-age-s", 5, 0, 86_400);
        int changeS = options.getInt("change-s", 30, 1, 86_400);
        double linkBps = options.getDouble("link-mbps", 10, 0.001, 1e6) * 1e6;
        Duration originLatency = Duration.ofMillis(options.getInt("origin-ms", 20, 0, 10_000));
        int accessNodes = options.getInt("proxies", 8, 1, 1000);
        int replicas = options.getInt("replicas", 3, 1, 100);
        int settle = options.getInt("settle-s", 20, 0, 86_400);
        double joinRate = options.getDouble("join-rate", Math.max(50, nodes / 20.0), 0.1, 100_000);
        Progress progress = context.progress();
        SplittableRandom random = context.random();
        DolrConfig config = DolrConfig.defaults();

        TransitStubTopology topology = TransitStubTopology.generate(TopologyParams.forHosts(nodes).withHostsPerStub(perStub),
                context.seed());
        if (topology.stubCount() < 2) {
            throw new ScenarioOptionException("nodes", "needs at least two stubs (the origin's gateway and the users')");
        }
        int userStub = random.nextInt(topology.stubCount());
        int gatewayStub = (userStub + 1 + random.nextInt(topology.stubCount() - 1)) % topology.stubCount();
        List<Integer> local = RandomOrder.of(topology.hostsInStub(userStub), random);
        List<Integer> remote = RandomOrder.of(topology.hostsInStub(gatewayStub), random);
        if (local.size() < 2 + replicas + accessNodes || remote.size() < 2) {
            throw new ScenarioOptionException("hosts-per-stub", "too few hosts per stub for the agents, replicas and proxies");
        }

        List<String> pushUrls = new ArrayList<>();
        List<String> pullUrls = new ArrayList<>();
        SimulatedOrigin origin = new SimulatedOrigin(linkBps, originLatency);
        for (int n : counts) {
            // Each run has its own site behind its own link, so runs do not share a queue.
            pushUrls.add(CanonicalUrl.of("http://n" + n + ".push.example/scores.html").value());
            pullUrls.add(CanonicalUrl.of("http://n" + n + ".pull.example/scores.html").value());
        }
        for (String url : concat(pushUrls, pullUrls)) {
            origin.serve(new OriginDocument(url, sizeBytes, maxAge, Duration.ofSeconds(changeS)));
        }
        PushMode pushMode = PushMode.forPrefixes(pushUrls);
        SigningKey pushProvider = Agents.provider(context.seed(), "push");
        SigningKey pullProvider = Agents.provider(context.seed(), "no-push");
        Gateway[] gateways = new Gateway[2];
        Map<Integer, Function<OverlayNode, OverlayApplication>> agents = new HashMap<>();
        agents.put(remote.get(0), Agents.gateway(pushProvider, origin, GatewayConfig.defaults(), pushMode, g -> gateways[0] = g));
        agents.put(remote.get(1), Agents.gateway(pullProvider, origin, Agents.withoutMonitors(GatewayConfig.defaults()),
                PushMode.NONE, g -> gateways[1] = g));
        agents.put(local.get(0), Agents.cacheManager(pushProvider, CacheManagerConfig.defaults(), m -> { }));
        agents.put(local.get(1), Agents.cacheManager(pullProvider, CacheManagerConfig.defaults(), m -> { }));
        List<Integer> replicaVertices = local.subList(2, 2 + replicas);
        List<Integer> proxyVertices = local.subList(2 + replicas, 2 + replicas + accessNodes);
        AgentOverlay world = AgentOverlay.build(topology, context.seed(), config, joinRate, Duration.ofSeconds(settle), agents,
                progress);

        ResultJson result = new ResultJson()
                .put("scenario", name())
                .put("seed", context.seed())
                .put("nodes", (long) nodes)
                .put("joined", (long) world.joined())
                .put("document_bytes", (long) sizeBytes)
                .put("max_age_s", (long) maxAge)
                .put("change_every_s", (long) changeS)
                .put("link_mbit_s", linkBps / 1e6)
                .put("origin_latency_ms", (double) originLatency.toMillis())
                .put("think_ms", (double) think.toMillis())
                .put("duration_s", (long) durationS)
                .put("proxies", (long) accessNodes)
                .put("replicas_in_user_stub", (long) replicas);
        ResultJson.ObjectList rows = result.objects("rows");
        Map<String, double[]> cdfPush = new LinkedHashMap<>();
        Map<String, double[]> cdfPull = new LinkedHashMap<>();
        double[] x = new double[counts.length];
        double[] tputPush = new double[counts.length];
        double[] tputPull = new double[counts.length];
        double[] p95Push = new double[counts.length];
        double[] p95Pull = new double[counts.length];
        progress.begin("runs of " + durationS + " virtual s", 2L * counts.length);
        try (CsvWriter csv = new CsvWriter(context.output("push-caching.csv"), List.of("clients", "p50_ms_push", "p95_ms_push",
                "p50_ms_nopush", "p95_ms_nopush", "throughput_push", "throughput_nopush"))) {
            for (int i = 0; i < counts.length; i++) {
                RunResult push = runOnce(world, gateways[0], remote.get(0), pushProvider, pushMode, origin, pushUrls.get(i), counts[i], think,
                        durationS, replicaVertices, proxyVertices, random);
                progress.step();
                RunResult pull = runOnce(world, gateways[1], remote.get(1), pullProvider, PushMode.NONE, origin, pullUrls.get(i), counts[i], think,
                        durationS, replicaVertices, proxyVertices, random);
                progress.step();
                SampleSummary sp = SampleSummary.of(push.latenciesMs());
                SampleSummary sn = SampleSummary.of(pull.latenciesMs());
                rows.add().put("clients", (long) counts[i])
                        .put("p50_ms_push", sp.p50()).put("p95_ms_push", sp.p95())
                        .put("p50_ms_nopush", sn.p50()).put("p95_ms_nopush", sn.p95())
                        .put("throughput_push", push.perSecond()).put("throughput_nopush", pull.perSecond())
                        .put("overlay_share_push", push.overlayShare()).put("overlay_share_nopush", pull.overlayShare())
                        .put("origin_fetches_push", origin.fetches(pushUrls.get(i)))
                        .put("origin_fetches_nopush", origin.fetches(pullUrls.get(i)));
                csv.row((long) counts[i], sp.p50(), sp.p95(), sn.p50(), sn.p95(), push.perSecond(), pull.perSecond());
                x[i] = counts[i];
                tputPush[i] = push.perSecond();
                tputPull[i] = pull.perSecond();
                p95Push[i] = sp.p95();
                p95Pull[i] = sn.p95();
                cdfPush.put(counts[i] + " clients", Samples.thinned(push.latenciesMs(), 2000));
                cdfPull.put(counts[i] + " clients", Samples.thinned(pull.latenciesMs(), 2000));
            }
        }
        progress.finish();

        double flatness = Arrays.stream(p95Push).max().orElse(0) / Math.max(1e-9, Arrays.stream(p95Push).min().orElse(0));
        int last = counts.length - 1;
        double ratio = tputPush[last] / Math.max(1e-9, tputPull[last]);
        boolean targetMet = flatness <= 1.5 && ratio >= 10;
        result.put("p95_push_max_over_min", flatness)
                .put("throughput_ratio_at_largest", ratio);
        result.object("targets").put("p95_push_max_over_min_max", 1.5).put("throughput_ratio_at_largest_min", 10.0);
        result.put("target_met", targetMet)
                .put("gateway_monitor_polls_push", gateways[0].monitors().polls())
                .put("virtual_seconds", world.simulation().now() / 1e9)
                .put("simulated_events", world.simulation().eventsRun())
                .put("messages", world.overlay().network().messagesSent());
        result.write(context.output("result.json"));

        Charts charts = new Charts();
        charts.cdf(context.output("latency-cdf-nopush.png"), "Request latency without push (Fig. 23, left)", "latency (ms)", cdfPull);
        charts.cdf(context.output("latency-cdf-push.png"), "Request latency with push (Fig. 23, right)", "latency (ms)", cdfPush);
        charts.line(context.output("throughput.png"), "Requests answered per second (Fig. 24)", "clients", "requests / s",
                List.of(new Series("with push", x, tputPush), new Series("without push", x, tputPull)));
        charts.line(context.output("p95-latency.png"), "95th-percentile latency", "clients", "ms",
                List.of(new Series("with push", x, p95Push), new Series("without push", x, p95Pull)));
        System.out.printf("push-caching: p95 with push %s ms, without %s ms; throughput ratio %.1f at %d clients; target %s%n",
                Arrays.toString(p95Push), Arrays.toString(p95Pull), ratio, counts[last], targetMet ? "met" : "NOT met");
    }

    /** What one run (one provider, one number of users) measured. */
    private record RunResult(double[] latenciesMs, long fromOverlay, double perSecond) {
        double overlayShare() {
            return latenciesMs.length == 0 ? 0 : (double) fromOverlay / latenciesMs.length;
        }
    }

    /**
     * Inserts {@code url}, copies it to the replica nodes in the users' stub (which join its
     * dissemination tree, as a cache manager's replicas do), then lets {@code users} loop for the duration.
     */
    private static RunResult runOnce(AgentOverlay world, Gateway gateway, int gatewayVertex, SigningKey provider, PushMode pushMode,
            SimulatedOrigin origin, String url, int users, Duration think, int durationS, List<Integer> replicaVertices,
            List<Integer> proxyVertices, SplittableRandom random) {
        var overlay = world.overlay();
        Id guid = ObjectNames.objectGuid(provider.publicKey(), url, "");
        gateway.inserter().refresh(url, Headers.EMPTY, r -> { });
        world.run(Duration.ofSeconds(3));
        for (int v : replicaVertices) {
            overlay.node(gatewayVertex).replicateTo(overlay.node(v).self(), guid, r -> { });
        }
        world.run(Duration.ofSeconds(2));
        List<ProxyClient> proxies = new ArrayList<>();
        for (int v : proxyVertices) {
            proxies.add(new ProxyClient(overlay.node(v), provider.publicKey(), origin, pushMode, Duration.ofSeconds(5),
                    overlay.node(v).config().defaultTtl()));
        }
        long start = world.simulation().now();
        long end = start + Duration.ofSeconds(durationS).toNanos();
        List<Double> latencies = new ArrayList<>();
        long[] fromOverlay = new long[1];
        for (int u = 0; u < users; u++) {
            ClosedLoopUser user = new ClosedLoopUser(proxies.get(u % proxies.size()), url, think, end, (ClientResult r) -> {
                latencies.add(r.latencyNanos() / 1e6);
                if (r.fromReplica()) {
                    fromOverlay[0]++;
                }
            });
            // Staggered starts, so the users do not move in lockstep.
            user.start(Duration.ofNanos((long) (random.nextDouble() * Math.max(1, think.toNanos()))));
        }
        world.run(Duration.ofSeconds(durationS).plusSeconds(1));
        double[] ms = latencies.stream().mapToDouble(Double::doubleValue).toArray();
        return new RunResult(ms, fromOverlay[0], ms.length / (double) durationS);
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
