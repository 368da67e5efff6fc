package io.riptide.simulator.scenario;

import io.riptide.simulator.overlay.RandomOrder;
import io.riptide.cachemanager.CacheManagerConfig;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.http.CanonicalUrl;
import io.riptide.core.http.Headers;
import io.riptide.core.id.Id;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.object.PushMode;
import io.riptide.core.runtime.sim.SimNetwork;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.OverlayApplication;
import io.riptide.dolr.OverlayNode;
import io.riptide.gateway.Gateway;
import io.riptide.gateway.GatewayConfig;
import io.riptide.simulator.agents.Agents;
import io.riptide.simulator.agents.ClientResult;
import io.riptide.simulator.agents.ClosedLoopUser;
import io.riptide.simulator.agents.OriginDocument;
import io.riptide.simulator.agents.SimulatedProxies;
import io.riptide.simulator.agents.SimulatedProxy;
import io.riptide.simulator.agents.RequestPath;
import io.riptide.simulator.agents.SimulatedOrigin;
import io.riptide.simulator.agents.UncachedProxy;
import io.riptide.simulator.overlay.AgentOverlay;
import io.riptide.simulator.report.Charts;
import io.riptide.simulator.report.CsvWriter;
import io.riptide.simulator.report.Progress;
import io.riptide.simulator.report.ResultJson;
import io.riptide.simulator.report.SampleSummary;
import io.riptide.simulator.report.Samples;
import io.riptide.simulator.report.Series;
import io.riptide.simulator.stages.HostStages;
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
 * closed loop. Three systems, each URL on its own host and link: with push, a provider whose gateway
 * keeps the URLs in push mode (a heartbeat or update down the dissemination tree every 2 s); without
 * push, the paper's base configuration, proxies that cache nothing so every request crosses the
 * origin link ({@code nopush}); and, beyond the paper, the overlay without push (no monitors), where
 * a user finding the stub's replica stale goes to the origin and hints the cache manager, which has
 * the gateway re-check ({@code recheck}). Overlay messages between stubs (inserts, pushes, hints) queue
 * on the stubs' 1.5 Mb/s uplinks unless {@code --links false}; the users' and the gateway's origin
 * fetches queue on the origin's own link only (the origin sits outside the simulated topology, as the
 * paper's bandwidth-restricted web server did). Every host runs its stages on 2 cores
 * ({@link HostStages}): a request costs its proxy's host the front's, the access node's and the
 * verification's measured service times, so a host's CPU bounds what its proxy serves ({@code cpu_model}
 * in result.json says how each was calibrated). Measured per number of users: latency percentiles and
 * requests answered per second (mean and standard deviation over one-second bins, as Fig. 24), and the
 * busiest user-stub host's share of its cores.
 */
public final class PushCachingScenario implements Scenario {
    @Override
    public String name() {
        return "push-caching";
    }

    @Override
    public String description() {
        return "latency and throughput with and without push behind a slow origin link (--clients, --duration-s, --cores)";
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
        // Overlay messages between stubs queue on the 1.5 Mb/s stub uplinks unless --links false (the
        // figures before link queueing). The origin link is the scenario's own OriginLink either way.
        boolean links = options.getBoolean("links", true);
        // Cores per host that the stages share: the 2 of the machines the service times were measured on.
        int coresPerHost = options.getInt("cores", SimNetwork.DEFAULT_CORES, 1, 1024);
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
        List<String> uncachedUrls = new ArrayList<>();
        SimulatedOrigin origin = new SimulatedOrigin(linkBps, originLatency);
        for (int n : counts) {
            // Each run has its own site behind its own link, so runs do not share a queue.
            pushUrls.add(CanonicalUrl.of("http://n" + n + ".push.example/scores.html").value());
            pullUrls.add(CanonicalUrl.of("http://n" + n + ".pull.example/scores.html").value());
            uncachedUrls.add(CanonicalUrl.of("http://n" + n + ".nocache.example/scores.html").value());
        }
        for (String url : concat(concat(pushUrls, pullUrls), uncachedUrls)) {
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
                links, progress);

        // Before any user-stub host has used a stage (each takes its cores at its first event).
        world.overlay().network().setCores(coresPerHost);
        HostStages.define(world.overlay().network(), SimulatedProxies.PAPER);

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
                .put("links", links)
                .put("proxies", (long) accessNodes)
                .put("replicas_in_user_stub", (long) replicas)
                .put("client_counts", Arrays.stream(counts).asLongStream().toArray())
                // The most responses per second the origin link can carry: the no-push system's ceiling.
                .put("origin_link_capacity_per_s", linkBps / (sizeBytes * 8.0))
                .put("nopush_system", "proxies without a cache: every request fetched over the origin link (paper section 6.8)")
                .put("recheck_system", "overlay without push: a stale replica sends the user to the origin and hints the"
                        + " cache manager, which has the gateway re-check");
        // The CPU model: every host's stages (proxy front, access node, verify, crypto) on its cores.
        HostStages.describe(world.overlay().network(), result.object("cpu_model"));
        List<Integer> userStubHosts = concatInts(replicaVertices, proxyVertices);
        int cores = world.overlay().network().cores();
        long runNanos = Duration.ofSeconds(durationS).toNanos();
        ResultJson.ObjectList rows = result.objects("rows");
        Map<String, double[]> cdfPush = new LinkedHashMap<>();
        Map<String, double[]> cdfPull = new LinkedHashMap<>();
        Map<String, double[]> cdfRecheck = new LinkedHashMap<>();
        double[] x = new double[counts.length];
        double[] tputPush = new double[counts.length];
        double[] tputPull = new double[counts.length];
        double[] tputRecheck = new double[counts.length];
        double[] p95Push = new double[counts.length];
        double[] p95Pull = new double[counts.length];
        double[] p95Recheck = new double[counts.length];
        progress.begin("runs of " + durationS + " virtual s", 3L * counts.length);
        try (CsvWriter csv = new CsvWriter(context.output("push-caching.csv"), List.of("clients", "p50_ms_push", "p95_ms_push",
                "p50_ms_nopush", "p95_ms_nopush", "throughput_push", "throughput_nopush", "p50_ms_recheck", "p95_ms_recheck",
                "throughput_recheck"))) {
            for (int i = 0; i < counts.length; i++) {
                List<SimulatedProxy> pushProxies = overlayProxies(world, gateways[0], remote.get(0), pushProvider, pushMode, origin,
                        pushUrls.get(i), replicaVertices, proxyVertices);
                HostStages.Usage beforePush = HostStages.usage(world.overlay().network(), userStubHosts);
                RunResult push = runUsers(world, origin, pushProxies, pushUrls.get(i), counts[i], think, durationS, random);
                HostStages.Usage afterPush = HostStages.usage(world.overlay().network(), userStubHosts);
                pushProxies.forEach(SimulatedProxy::stop);
                progress.step();
                List<RequestPath> uncached = new ArrayList<>();
                for (int v : proxyVertices) {
                    uncached.add(new UncachedProxy(world.overlay().node(v).env(), origin));
                }
                RunResult pull = runUsers(world, origin, uncached, uncachedUrls.get(i), counts[i], think, durationS, random);
                progress.step();
                List<SimulatedProxy> recheckProxies = overlayProxies(world, gateways[1], remote.get(1), pullProvider, PushMode.NONE,
                        origin, pullUrls.get(i), replicaVertices, proxyVertices);
                HostStages.Usage beforeRecheck = HostStages.usage(world.overlay().network(), userStubHosts);
                RunResult recheck = runUsers(world, origin, recheckProxies, pullUrls.get(i), counts[i], think, durationS, random);
                HostStages.Usage afterRecheck = HostStages.usage(world.overlay().network(), userStubHosts);
                recheckProxies.forEach(SimulatedProxy::stop);
                progress.step();
                SampleSummary sp = SampleSummary.of(push.latenciesMs());
                SampleSummary sn = SampleSummary.of(pull.latenciesMs());
                SampleSummary sr = SampleSummary.of(recheck.latenciesMs());
                rows.add().put("clients", (long) counts[i])
                        .put("p50_ms_push", sp.p50()).put("p95_ms_push", sp.p95())
                        .put("p50_ms_nopush", sn.p50()).put("p95_ms_nopush", sn.p95())
                        .put("throughput_push", push.perSecond()).put("throughput_nopush", pull.perSecond())
                        .put("overlay_share_push", push.overlayShare()).put("overlay_share_nopush", pull.overlayShare())
                        .put("origin_fetches_push", push.originFetches())
                        .put("origin_fetches_nopush", pull.originFetches())
                        .put("mean_ms_push", sp.mean()).put("mean_ms_nopush", sn.mean())
                        .put("throughput_sd_push", push.perSecondSd()).put("throughput_sd_nopush", pull.perSecondSd())
                        .put("p50_ms_recheck", sr.p50()).put("p95_ms_recheck", sr.p95()).put("mean_ms_recheck", sr.mean())
                        .put("throughput_recheck", recheck.perSecond()).put("throughput_sd_recheck", recheck.perSecondSd())
                        .put("overlay_share_recheck", recheck.overlayShare())
                        .put("origin_fetches_recheck", recheck.originFetches())
                        // Closed loop: a user's rate is 1 / (think + latency), so this is what push's throughput must equal.
                        .put("closed_loop_bound_push", counts[i] * 1000.0 / (think.toMillis() + sp.mean()))
                        // The busiest user-stub host's share of its cores during the run, and what its stages shed.
                        .put("cpu_busiest_host_push", afterPush.maxUtilisationSince(beforePush, runNanos, cores))
                        .put("stage_refusals_push", afterPush.refusedSince(beforePush))
                        .put("cpu_busiest_host_recheck", afterRecheck.maxUtilisationSince(beforeRecheck, runNanos, cores))
                        .put("stage_refusals_recheck", afterRecheck.refusedSince(beforeRecheck));
                csv.row((long) counts[i], sp.p50(), sp.p95(), sn.p50(), sn.p95(), push.perSecond(), pull.perSecond(), sr.p50(),
                        sr.p95(), recheck.perSecond());
                x[i] = counts[i];
                tputPush[i] = push.perSecond();
                tputPull[i] = pull.perSecond();
                tputRecheck[i] = recheck.perSecond();
                p95Push[i] = sp.p95();
                p95Pull[i] = sn.p95();
                p95Recheck[i] = sr.p95();
                cdfPush.put(counts[i] + " clients", Samples.thinned(push.latenciesMs(), 2000));
                cdfPull.put(counts[i] + " clients", Samples.thinned(pull.latenciesMs(), 2000));
                cdfRecheck.put(counts[i] + " clients", Samples.thinned(recheck.latenciesMs(), 2000));
            }
        }
        progress.finish();

        double flatness = Arrays.stream(p95Push).max().orElse(0) / Math.max(1e-9, Arrays.stream(p95Push).min().orElse(0));
        // The paper's claim is that push latency does not grow with the users. A p95 that falls as
        // users are added (more of the requests find a proxy's copy fresh) is flat in that sense, and
        // the symmetric max/min above would fail it; so the target is the growth from the fewest users.
        double growth = Arrays.stream(p95Push).max().orElse(0) / Math.max(1e-9, p95Push.length == 0 ? 0 : p95Push[0]);
        int last = counts.length - 1;
        double ratio = tputPush[last] / Math.max(1e-9, tputPull[last]);
        boolean targetMet = growth <= 1.5 && ratio >= 10;
        result.put("p95_push_max_over_min", flatness)
                .put("p95_push_growth", growth)
                .put("throughput_ratio_at_largest", ratio)
                .put("throughput_ratio_recheck_at_largest", tputPush[last] / Math.max(1e-9, tputRecheck[last]));
        result.object("targets").put("p95_push_growth_max", 1.5).put("p95_push_max_over_min_max", 1.5).put("throughput_ratio_at_largest_min", 10.0);
        result.put("target_met", targetMet)
                .put("gateway_monitor_polls_push", gateways[0].monitors().polls())
                .put("virtual_seconds", world.simulation().now() / 1e9)
                .put("simulated_events", world.simulation().eventsRun())
                .put("messages", world.overlay().network().messagesSent());
        result.write(context.output("result.json"));

        Charts charts = new Charts();
        charts.cdf(context.output("latency-cdf-nopush.png"), "Request latency without push (Fig. 23, left)", "latency (ms)", cdfPull);
        charts.cdf(context.output("latency-cdf-push.png"), "Request latency with push (Fig. 23, right)", "latency (ms)", cdfPush);
        charts.cdf(context.output("latency-cdf-recheck.png"), "Request latency, overlay without push (re-check on stale hints)",
                "latency (ms)", cdfRecheck);
        charts.line(context.output("throughput.png"), "Requests answered per second (Fig. 24)", "clients", "requests / s",
                List.of(new Series("with push", x, tputPush), new Series("without push (no caching)", x, tputPull),
                        new Series("overlay, re-check on stale", x, tputRecheck)));
        charts.line(context.output("p95-latency.png"), "95th-percentile latency", "clients", "ms",
                List.of(new Series("with push", x, p95Push), new Series("without push (no caching)", x, p95Pull),
                        new Series("overlay, re-check on stale", x, p95Recheck)));
        System.out.printf("push-caching: p95 with push %s ms, without %s ms; throughput ratio %.1f at %d clients; target %s%n",
                Arrays.toString(p95Push), Arrays.toString(p95Pull), ratio, counts[last], targetMet ? "met" : "NOT met");
    }

    /** What one run (one system, one number of users) measured. */
    private record RunResult(double[] latenciesMs, long fromOverlay, long originFetches, double perSecond, double perSecondSd) {
        double overlayShare() {
            return latenciesMs.length == 0 ? 0 : (double) fromOverlay / latenciesMs.length;
        }
    }

    /**
     * Inserts {@code url}, copies it to the replica nodes in the users' stub (which join its
     * dissemination tree, as a cache manager's replicas do), and returns the proxies on the access nodes.
     */
    private static List<SimulatedProxy> overlayProxies(AgentOverlay world, Gateway gateway, int gatewayVertex, SigningKey provider,
            PushMode pushMode, SimulatedOrigin origin, String url, List<Integer> replicaVertices, List<Integer> proxyVertices) {
        var overlay = world.overlay();
        Id guid = ObjectNames.objectGuid(provider.publicKey(), url, "");
        gateway.inserter().refresh(url, Headers.EMPTY, r -> { });
        world.run(Duration.ofSeconds(3));
        for (int v : replicaVertices) {
            overlay.node(gatewayVertex).replicateTo(overlay.node(v).self(), guid, r -> { });
        }
        world.run(Duration.ofSeconds(2));
        SimulatedProxies shipped = SimulatedProxies.of(overlay, provider.publicKey(), origin).withPushMode(pushMode);
        List<SimulatedProxy> proxies = new ArrayList<>();
        for (int v : proxyVertices) {
            proxies.add(shipped.on(v));
        }
        return proxies;
    }

    /**
     * Lets {@code users} closed-loop users, spread over {@code proxies}, request {@code url} for the
     * duration; counts the responses completed within it, in total and per one-second bin.
     */
    private static RunResult runUsers(AgentOverlay world, SimulatedOrigin origin, List<? extends RequestPath> proxies, String url, int users,
            Duration think, int durationS, SplittableRandom random) {
        long fetchesBefore = origin.fetches(url);
        long start = world.simulation().now();
        long end = start + Duration.ofSeconds(durationS).toNanos();
        List<Double> latencies = new ArrayList<>();
        long[] fromOverlay = new long[1];
        long[] perSecond = new long[durationS];
        for (int u = 0; u < users; u++) {
            ClosedLoopUser user = new ClosedLoopUser(proxies.get(u % proxies.size()), url, think, end, (ClientResult r) -> {
                latencies.add(r.latencyNanos() / 1e6);
                if (r.fromReplica()) {
                    fromOverlay[0]++;
                }
                int bin = (int) ((world.simulation().now() - start) / 1_000_000_000L);
                perSecond[Math.min(durationS - 1, Math.max(0, bin))]++;
            });
            // Staggered starts, so the users do not move in lockstep.
            user.start(Duration.ofNanos((long) (random.nextDouble() * Math.max(1, think.toNanos()))));
        }
        world.run(Duration.ofSeconds(durationS).plusSeconds(1));
        // Fetches during the run only (users' and the gateway's), not the insert before it.
        long originFetches = origin.fetches(url) - fetchesBefore;
        double[] ms = latencies.stream().mapToDouble(Double::doubleValue).toArray();
        double mean = ms.length / (double) durationS;
        double squares = Arrays.stream(perSecond).mapToDouble(n -> (n - mean) * (n - mean)).sum();
        return new RunResult(ms, fromOverlay[0], originFetches, mean, Math.sqrt(squares / Math.max(1, durationS - 1)));
    }

    private static List<Integer> concatInts(List<Integer> a, List<Integer> b) {
        List<Integer> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
