package io.riptide.simulator.scenario;

import io.riptide.cachemanager.CacheManagerConfig;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.object.PushMode;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.OverlayApplication;
import io.riptide.dolr.OverlayNode;
import io.riptide.gateway.GatewayConfig;
import io.riptide.proxy.cache.InsertPolicy;
import io.riptide.proxy.cache.OverlayCacheConfig;
import io.riptide.simulator.agents.Agents;
import io.riptide.simulator.agents.ClientResult;
import io.riptide.simulator.agents.OriginDocument;
import io.riptide.simulator.agents.SimulatedProxies;
import io.riptide.simulator.agents.SimulatedProxy;
import io.riptide.simulator.agents.SimulatedOrigin;
import io.riptide.simulator.overlay.AgentOverlay;
import io.riptide.simulator.overlay.RandomOrder;
import io.riptide.simulator.report.Charts;
import io.riptide.simulator.report.CsvWriter;
import io.riptide.simulator.report.Progress;
import io.riptide.simulator.report.ResultJson;
import io.riptide.simulator.report.SampleSummary;
import io.riptide.simulator.report.Series;
import io.riptide.simulator.topology.LinkClass;
import io.riptide.simulator.topology.TopologyParams;
import io.riptide.simulator.topology.TransitStubTopology;
import io.riptide.simulator.workload.LruByteCache;
import io.riptide.simulator.workload.PolyMixWorkload;
import io.riptide.simulator.workload.WebFile;
import io.riptide.simulator.workload.TraceReader;
import io.riptide.simulator.workload.TraceRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Replays a real web client trace through Riptide and through two baselines of the size of a node's
 * store: one shared LRU proxy cache for everyone, and a private LRU cache per user. Each lab of the
 * trace is a stub with its own cache manager and the lab's users spread over proxies there (the
 * shipped proxy: its private tier, inserts on the second sighting, unless the options say
 * otherwise); one gateway elsewhere (or, with {@code --gateways each-lab}, one in each lab's stub) inserts
 * what the managers and proxies ask for. A request hits when the
 * copy served is the trace's current version of the URL (a new size is a new version). Trace time
 * is compressed to a fixed request rate.
 */
public final class TraceReplayScenario implements Scenario {
    private static final String DEFAULT_TRACE = "../shared/traces/bu-web-client-1994-11_1995-02.tsv.gz";
    private static final double TARGET_POINTS = 0.02;
    private static final double TARGET_BYTE_POINTS = 0.04;

    @Override
    public String name() {
        return "trace-replay";
    }

    @Override
    public String description() {
        return "hit ratio replaying a web trace: Riptide vs one shared proxy cache vs per-client caches "
                + "(--trace FILE, --workload trace|polymix, --requests, --cache-mb, --rate, --nodes, "
                + "--insert-policy second-sight|second-sight-through-gateway|through-gateway|first-miss, --proxy-memory-mb, "
                + "--gateways elsewhere|each-lab)";
    }

    @Override
    public void run(ScenarioContext context) throws Exception {
        ScenarioOptions options = context.options();
        String workload = options.getString("workload", "trace");
        if (!workload.equals("trace") && !workload.equals("polymix")) {
            throw new ScenarioOptionException("workload", "must be trace or polymix, got '" + workload + "'");
        }
        Path tracePath = Path.of(options.getString("trace", DEFAULT_TRACE));
        if (workload.equals("trace") && !Files.isReadable(tracePath)) {
            throw new ScenarioOptionException("trace", "cannot read " + tracePath.toAbsolutePath());
        }
        int limit = options.getInt("requests", 1_000_000, 1, 100_000_000);
        int nodes = options.getInt("nodes", 300, 20, 200_000);
        long cacheBytes = options.getLong("cache-mb", 128, 1, 1_000_000) * 1024 * 1024;
        int proxiesPerLab = options.getInt("proxies-per-lab", 20, 1, 10_000);
        int settle = options.getInt("settle-s", 30, 0, 86_400);
        // The shipped proxy's defaults: inserts on a second sighting, and a memory tier (Squid's cache_mem) that keeps its
        // own fetches. --insert-policy first-miss --proxy-memory-mb 0 is the paper's proxy, as this replay ran before.
        InsertPolicy insertPolicy;
        try {
            insertPolicy = InsertPolicy.parse(options.getString("insert-policy", InsertPolicy.SECOND_SIGHT.text()));
        } catch (IllegalArgumentException e) {
            throw new ScenarioOptionException("insert-policy", e.getMessage());
        }
        long proxyMemoryBytes = options.getLong("proxy-memory-mb", OverlayCacheConfig.DEFAULT_MEMORY_BYTES >> 20, 0, 1_000_000)
                * 1024 * 1024;
        // How long a proxy serves a kept copy before re-reading it through the overlay: the shipped 1 s, in virtual time
        // (the trace's time is compressed, so this is far longer in trace time; a smaller value shows what that costs).
        double recheckMs = options.getDouble("proxy-memory-recheck-ms",
                OverlayCacheConfig.DEFAULT_MEMORY_RECHECK.toMillis(), 0.001, 3_600_000);
        // PolyMix-3's origins think 2.5 s on average; off by default, as hit-ratio studies ignore time.
        double originThinkS = options.getDouble("origin-think-s", 0, 0, 600);
        // Where the provider's gateways are: one in a stub of its own (an ISP's), or one in each lab's stub (a campus that
        // runs gateways of the provider, as the paper allows smaller organisations to; the same key, so the same names).
        String gateways = options.getString("gateways", "elsewhere");
        if (!gateways.equals("elsewhere") && !gateways.equals("each-lab")) {
            throw new ScenarioOptionException("gateways", "must be elsewhere or each-lab, got '" + gateways + "'");
        }
        Progress progress = context.progress();
        SplittableRandom random = context.random();

        List<TraceRequest> trace = new ArrayList<>();
        java.util.Set<String> uncacheable = new java.util.HashSet<>();
        long invalid = 0;
        if (workload.equals("polymix")) {
            // A synthetic trace: PolyMix's mix from users spread over two labs.
            int userCount = options.getInt("users", 200, 1, 1_000_000);
            int requests = limit;
            PolyMixWorkload mix = PolyMixWorkload.standard("www.polymix.example", 1_000_000);
            SplittableRandom draw = new SplittableRandom(context.seed() ^ 0x9017L);
            for (int i = 0; i < requests; i++) {
                WebFile f = mix.next(draw);
                int user = draw.nextInt(userCount);
                if (!f.cacheable()) {
                    uncacheable.add(f.url());
                }
                trace.add(new TraceRequest(i, Integer.toString(user), "lab" + (user % 2), f.url(), f.sizeBytes()));
            }
        } else {
            for (TraceRequest r : TraceReader.read(tracePath, limit)) {
                String url = asBrowserSends(r.url());
                if (url == null) {
                    invalid++; // not an http URL even once encoded: no cache would see it
                } else {
                    trace.add(new TraceRequest(r.timeMicros(), r.user(), r.group(), url, r.bytes()));
                }
            }
        }
        List<String> labs = trace.stream().map(TraceRequest::group).distinct().sorted().toList();
        // The replay rate: unless --rate says otherwise, the fastest at which no stub uplink (1.5 Mb/s) is offered more
        // than half its capacity, counting every byte requested as crossing the gateway's uplink and each lab's bytes as
        // crossing its own (the worst case of each; the gateway's bound is the larger). On a link loaded past half,
        // queueing, not the protocol, decides the figures; the trace's own pace is slower still (see time_compression).
        long requestedBytes = trace.stream().mapToLong(r -> Math.max(1, r.bytes())).sum();
        double halfUplinkRate = 0.5 * LinkClass.STUB_TRANSIT.bitsPerSecond() / 8.0 * trace.size() / Math.max(1, requestedBytes);
        double rate = options.has("rate") ? options.getDouble("rate", 50, 0.1, 100_000) : halfUplinkRate;
        double busiestLabBytes = trace.stream().collect(java.util.stream.Collectors.groupingBy(TraceRequest::group,
                java.util.stream.Collectors.summingLong(r -> Math.max(1, r.bytes())))).values().stream()
                .mapToLong(Long::longValue).max().orElse(0);
        double capacityBytes = LinkClass.STUB_TRANSIT.bitsPerSecond() / 8.0;
        double gatewayUplinkShare = rate * requestedBytes / Math.max(1, trace.size()) / capacityBytes;
        double busiestLabUplinkShare = rate * busiestLabBytes / Math.max(1, trace.size()) / capacityBytes;
        TransitStubTopology topology = TransitStubTopology.generate(TopologyParams.forHosts(nodes), context.seed());
        if (topology.stubCount() < labs.size() + 1) {
            throw new ScenarioOptionException("nodes", nodes + " nodes make " + topology.stubCount() + " stubs, too few for "
                    + labs.size() + " labs and a gateway");
        }
        // Labs on the first stubs of a random order, the gateway in the next one.
        List<Integer> stubs = RandomOrder.of(java.util.stream.IntStream.range(0, topology.stubCount()).toArray(), random);
        Map<String, List<Integer>> proxyVertices = new TreeMap<>();
        Map<Integer, Function<OverlayNode, OverlayApplication>> agents = new HashMap<>();
        SigningKey provider = Agents.provider(context.seed(), "trace-replay");
        GatewayConfig gatewayConfig = GatewayConfig.defaults();
        SimulatedOrigin origin = new SimulatedOrigin(100e6, Duration.ofMillis(50),
                Duration.ofNanos((long) (originThinkS * 1e9)), context.seed());
        // Each gateway by the node it runs on, so a change is refreshed by the gateway that fetched the URL last.
        Map<io.riptide.core.runtime.Env, io.riptide.gateway.Gateway> gatewayOn = new HashMap<>();
        Function<Integer, Function<OverlayNode, OverlayApplication>> gatewayAgent = vertex -> node -> {
            OverlayApplication app = Agents.gateway(provider, origin, gatewayConfig, PushMode.NONE, g -> { }).apply(node);
            gatewayOn.put(node.env(), (io.riptide.gateway.Gateway) app);
            return app;
        };
        for (int i = 0; i < labs.size(); i++) {
            List<Integer> hosts = RandomOrder.of(topology.hostsInStub(stubs.get(i)), random);
            agents.put(hosts.get(0), Agents.cacheManager(provider, CacheManagerConfig.defaults(), m -> { }));
            proxyVertices.put(labs.get(i), hosts.subList(1, Math.min(hosts.size(), 1 + proxiesPerLab)));
            if (gateways.equals("each-lab")) {
                if (hosts.size() < 2 + proxiesPerLab) {
                    throw new ScenarioOptionException("nodes", "lab stubs of " + hosts.size() + " hosts have no room for a "
                            + "manager, " + proxiesPerLab + " proxies and a gateway");
                }
                int vertex = hosts.get(hosts.size() - 1);
                agents.put(vertex, gatewayAgent.apply(vertex));
            }
        }
        if (gateways.equals("elsewhere")) {
            int[] gatewayStub = topology.hostsInStub(stubs.get(labs.size()));
            int vertex = gatewayStub[random.nextInt(gatewayStub.length)];
            agents.put(vertex, gatewayAgent.apply(vertex));
        }
        DolrConfig config = DolrConfig.defaults().withStore(cacheBytes, 10_000_000);
        AgentOverlay world = AgentOverlay.build(topology, context.seed(), config, Math.max(50, nodes / 20.0),
                Duration.ofSeconds(settle), agents, options.getBoolean("links", true), progress);

        SimulatedProxies shipped = SimulatedProxies.of(world.overlay(), provider.publicKey(), origin)
                .withConfig(SimulatedProxies.PAPER.withInsertPolicy(insertPolicy)
                        .withMemory(proxyMemoryBytes, Duration.ofNanos((long) (recheckMs * 1e6))))
                .withMemory(proxyMemoryBytes);
        Map<String, SimulatedProxy> proxies = new HashMap<>();
        Map<Integer, SimulatedProxy> byVertex = new HashMap<>();
        for (List<Integer> vertices : proxyVertices.values()) {
            for (int v : vertices) {
                byVertex.put(v, shipped.on(v));
            }
        }
        Map<String, Long> currentSize = new HashMap<>();
        LruByteCache shared = new LruByteCache(cacheBytes);
        Map<String, LruByteCache> perClient = new HashMap<>();
        long users = trace.stream().map(TraceRequest::user).distinct().count();
        long perClientBytes = Math.max(1, cacheBytes / Math.max(1, users));
        long maxObject = gatewayConfig.maxObjectBytes();
        long[] riptide = new long[2]; // hits, hit bytes
        long[] gatewayStoreHits = new long[1]; // of those, answered from a gateway's store
        long[] sharedHits = new long[2];
        long[] clientHits = new long[2];
        long totalBytes = 0;
        long spacing = (long) (1e9 / rate);
        int step = Math.max(1, trace.size() / 200);
        List<double[]> curve = new ArrayList<>(); // requests so far, Riptide hit ratio, shared hit ratio
        long[] answered = new long[1];
        long changes = 0;
        long refreshes = 0;
        long peakStoreBytes = 0;
        Map<String, Long> sources = new TreeMap<>();
        RepeatMisses repeats = new RepeatMisses(world.overlay(), provider.publicKey());
        List<Double> hitLatencies = new ArrayList<>();
        List<Double> missLatencies = new ArrayList<>();
        progress.begin(String.format(java.util.Locale.ROOT, "replaying %d requests of %d users at %.2f per virtual s",
                trace.size(), users, rate), trace.size());
        for (int i = 0; i < trace.size(); i++) {
            TraceRequest r = trace.get(i);
            long size = Math.max(1, Math.min(r.bytes(), Integer.MAX_VALUE - 1L));
            Long before = currentSize.put(r.url(), size);
            if (before == null || before != size) {
                // An uncacheable object is stale at once (max-age=0): never served from a cache.
                origin.serve(new OriginDocument(r.url(), (int) size, uncacheable.contains(r.url()) ? 0 : 365L * 86_400,
                        Duration.ZERO));
            }
            if (before != null && before != size) {
                // The object changed: the shared cache learns it at this request (a miss); Riptide's
                // gateway, if it holds the URL (it fetched it before), is told at once, as its monitor or
                // the publisher's push would tell it, and sends the new version down the object's tree. A
                // URL the gateway never held has no monitor: nobody fetches it until it is asked for.
                changes++;
                io.riptide.core.runtime.Env holder = origin.lastGatewayFetcher(r.url());
                if (holder != null) {
                    refreshes++;
                    gatewayOn.get(holder).inserter().refresh(r.url(), io.riptide.core.http.Headers.EMPTY, done -> { });
                }
            }
            totalBytes += size;
            // The baselines hold what a shared cache may hold: objects up to the gateway's limit.
            boolean storable = size <= maxObject && !uncacheable.contains(r.url());
            if (storable && shared.request(r.url(), size)) {
                sharedHits[0]++;
                sharedHits[1] += size;
            }
            LruByteCache mine = perClient.computeIfAbsent(r.user(), u -> new LruByteCache(perClientBytes));
            if (storable && mine.request(r.url(), size)) {
                clientHits[0]++;
                clientHits[1] += size;
            }
            SimulatedProxy proxy = proxies.computeIfAbsent(r.user(), u -> {
                List<Integer> lab = proxyVertices.get(r.group());
                return byVertex.get(lab.get(Math.floorMod(u.hashCode(), lab.size())));
            });
            // The first request for a new version is a miss everywhere (a cache cannot have known it).
            boolean newVersion = before == null || before != size;
            String repeat = repeats.asked(r.url(), r.group(), world.simulation().now(), storable && !newVersion);
            long fetchedBefore = origin.fetches(r.url());
            proxy.get(r.url(), result -> {
                answered[0]++;
                // A gateway's answer is a hit of its store when nobody fetched the URL from the origin while
                // this request was out: the gateway held it (its bytes count in Riptide's storage, which the
                // equal-storage baseline is given). Any fetch meanwhile, even another request's, makes it a miss.
                boolean gatewayStore = result.source() == ClientResult.Source.GATEWAY_MISS && origin.fetches(r.url()) == fetchedBefore;
                boolean cached = result.fromCache() || gatewayStore;
                (cached ? hitLatencies : missLatencies).add(result.latencyNanos() / 1e6);
                sources.merge((gatewayStore ? "GATEWAY_STORE" : result.source().name()) + (cached && result.bodyBytes() != size ? "_OLD_VERSION" : ""),
                        1L, Long::sum);
                if (cached && result.bodyBytes() == size && !newVersion) {
                    if (gatewayStore) {
                        gatewayStoreHits[0]++;
                    }
                    riptide[0]++;
                    riptide[1] += size;
                } else if (repeat != null) {
                    repeats.missed(result.source(), repeat);
                }
            });
            world.simulation().runFor(spacing);
            progress.step();
            if ((i + 1) % step == 0) {
                curve.add(new double[] {i + 1, riptide[0] / (double) (i + 1), sharedHits[0] / (double) (i + 1)});
                peakStoreBytes = Math.max(peakStoreBytes, storeBytes(world, byVertex.values()));
            }
        }
        world.run(Duration.ofSeconds(30));
        progress.finish();

        long n = trace.size();
        peakStoreBytes = Math.max(peakStoreBytes, storeBytes(world, byVertex.values()));
        // The baselines again with as many bytes as Riptide's stores held at their peak, all of them together:
        // every node's replicas and pointers' objects, and the proxies' memory tiers (issue 17: equal resources).
        EqualStorage equal = EqualStorage.replay(trace, uncacheable, maxObject, Math.max(1, peakStoreBytes), users);
        long originFetches = currentSize.keySet().stream().mapToLong(origin::fetches).sum();
        double traceSeconds = trace.isEmpty() ? 0 : (trace.get(trace.size() - 1).timeMicros() - trace.get(0).timeMicros()) / 1e6;
        long proxyFetches = byVertex.values().stream().mapToLong(SimulatedProxy::originFetches).sum();
        // The shared cache asks the origin for every request it does not hit.
        long sharedFetches = n - sharedHits[0];
        byVertex.values().forEach(SimulatedProxy::stop);
        double hitRatio = riptide[0] / (double) n;
        // What users waited: answers from a cache (proxy memory or a replica), and those that went to an origin.
        SampleSummary missTimes = SampleSummary.of(missLatencies.stream().mapToDouble(Double::doubleValue).toArray());
        SampleSummary cacheTimes = SampleSummary.of(hitLatencies.stream().mapToDouble(Double::doubleValue).toArray());
        double sharedRatio = sharedHits[0] / (double) n;
        // Against the shared cache given as many bytes as Riptide's stores held (issue 17), not the 128 MB one.
        double equalRatio = equal.sharedHits() / (double) n;
        double equalByteRatio = equal.sharedHitBytes() / (double) totalBytes;
        boolean targetMet = equalRatio - hitRatio <= TARGET_POINTS && equalByteRatio - riptide[1] / (double) totalBytes <= TARGET_BYTE_POINTS;
        ResultJson result = new ResultJson()
                .put("scenario", name())
                .put("seed", context.seed())
                .put("workload", workload)
                .put("trace", workload.equals("trace") ? tracePath.getFileName().toString() : "PolyMix-like, synthetic")
                .put("requests", n)
                .put("skipped_invalid_urls", invalid)
                .put("answered", answered[0])
                .put("users", users)
                .put("labs", (long) labs.size())
                .put("unique_urls", (long) currentSize.size())
                .put("object_changes", changes)
                .put("gateway_refreshes", refreshes)
                .put("gateways", gateways)
                .put("gateway_count", (long) gatewayOn.size())
                .put("bytes_requested", totalBytes)
                .put("cache_bytes", cacheBytes)
                .put("per_client_cache_bytes", perClientBytes)
                .put("nodes", (long) nodes)
                .put("virtual_rate_per_s", rate)
                .put("rate_chosen", options.has("rate") ? "--rate" : "half the uplink")
                .put("gateway_uplink_offered_share", gatewayUplinkShare)
                .put("busiest_lab_uplink_offered_share", busiestLabUplinkShare)
                .put("origin_think_mean_s", originThinkS)
                .put("hit_ratio", hitRatio)
                .put("gateway_store_hits", gatewayStoreHits[0])
                .put("hit_ratio_without_gateway_store", (riptide[0] - gatewayStoreHits[0]) / (double) n)
                .put("byte_hit_ratio", riptide[1] / (double) totalBytes)
                .put("shared_proxy_hit_ratio", sharedRatio)
                .put("shared_proxy_byte_hit_ratio", sharedHits[1] / (double) totalBytes)
                .put("per_client_hit_ratio", clientHits[0] / (double) n)
                .put("per_client_byte_hit_ratio", clientHits[1] / (double) totalBytes)
                .put("origin_fetches", originFetches)
                .put("proxy_origin_fetches", proxyFetches)
                .put("gateway_origin_fetches", originFetches - proxyFetches)
                .put("shared_proxy_origin_fetches", sharedFetches)
                .put("origin_requests_per_url", originFetches / (double) currentSize.size())
                .put("shared_proxy_origin_requests_per_url", sharedFetches / (double) currentSize.size())
                .put("insert_policy", insertPolicy.text())
                .put("miss_latency_p50_ms", missTimes.p50())
                .put("miss_latency_p90_ms", missTimes.p90())
                .put("cache_latency_p50_ms", cacheTimes.p50())
                .put("cache_latency_p90_ms", cacheTimes.p90())
                .put("gateway_miss_answers", byVertex.values().stream().mapToLong(p -> p.cache().gatewayAnswers(
                        io.riptide.core.gateway.GatewayMessages.Outcome.INSERTED) + p.cache().gatewayAnswers(
                        io.riptide.core.gateway.GatewayMessages.Outcome.UNCHANGED)).sum())
                .put("proxy_first_sightings", byVertex.values().stream().mapToLong(p -> p.cache().firstSightings()).sum())
                .put("proxy_sightings_unanswered", byVertex.values().stream().mapToLong(p -> p.cache().sightingsUnanswered()).sum())
                .put("gateway_miss_copies", byVertex.values().stream().mapToLong(p -> p.cache().gatewayCopies()).sum())
                .put("gateway_miss_reads_failed", byVertex.values().stream().mapToLong(p -> p.cache().gatewayReadsFailed()).sum())
                .put("gateway_miss_unanswered", byVertex.values().stream().mapToLong(p -> p.cache().gatewayAnswers(
                        io.riptide.core.gateway.GatewayMessages.Outcome.UNREACHABLE)).sum())
                .put("proxies", (long) byVertex.size())
                .put("proxy_memory_bytes", proxyMemoryBytes)
                .put("proxy_memory_recheck_ms", recheckMs)
                .put("riptide_store_bytes_total", peakStoreBytes)
                .put("shared_proxy_cache_bytes", cacheBytes)
                .put("equal_storage_cache_bytes", equal.cacheBytes())
                .put("equal_storage_shared_proxy_hit_ratio", equal.sharedHits() / (double) n)
                .put("equal_storage_shared_proxy_byte_hit_ratio", equal.sharedHitBytes() / (double) totalBytes)
                .put("equal_storage_shared_proxy_origin_fetches", n - equal.sharedHits())
                .put("equal_storage_per_client_hit_ratio", equal.clientHits() / (double) n)
                .put("trace_seconds", traceSeconds)
                .put("replay_virtual_seconds", n / rate)
                .put("time_compression", traceSeconds / (n / rate));
        ResultJson asked = result.object("gateway_miss_outcomes");
        for (io.riptide.core.gateway.GatewayMessages.Outcome o : io.riptide.core.gateway.GatewayMessages.Outcome.values()) {
            long count = byVertex.values().stream().mapToLong(p -> p.cache().gatewayAnswers(o)).sum();
            if (count > 0) {
                asked.put(o.name().toLowerCase(java.util.Locale.ROOT), count);
            }
        }
        ResultJson served = result.object("riptide_answers");
        sources.forEach((k, v) -> served.put(k.toLowerCase(java.util.Locale.ROOT), v));
        ResultJson lost = result.object("riptide_repeat_misses");
        repeats.counts().forEach(lost::put);
        result.object("targets").put("within_points_of_shared_proxy", TARGET_POINTS)
                .put("byte_within_points_of_shared_proxy", TARGET_BYTE_POINTS)
                .put("shared_proxy_baseline", "equal storage")
                .put("origin_fetches_at_most_shared_proxy", true);
        result.put("origin_fetches_target_met", originFetches <= sharedFetches);
        result.put("target_met", targetMet)
                .put("virtual_seconds", world.simulation().now() / 1e9)
                .put("simulated_events", world.simulation().eventsRun())
                .put("messages", world.overlay().network().messagesSent())
                .put("messages_overflowed", world.overlay().network().messagesOverflowed());
        result.write(context.output("result.json"));

        try (CsvWriter csv = new CsvWriter(context.output("hit-ratio-over-time.csv"),
                List.of("requests", "riptide_hit_ratio", "shared_proxy_hit_ratio"))) {
            for (double[] p : curve) {
                csv.row((long) p[0], p[1], p[2]);
            }
        }
        Map<String, double[]> bars = new LinkedHashMap<>();
        bars.put("Riptide", new double[] {hitRatio, riptide[1] / (double) totalBytes});
        bars.put("one shared proxy cache", new double[] {sharedRatio, sharedHits[1] / (double) totalBytes});
        bars.put("per-client caches", new double[] {clientHits[0] / (double) n, clientHits[1] / (double) totalBytes});
        new Charts(900, 540).bar(context.output("hit-ratios.png"), "Hit ratios replaying " + n + " requests ("
                + cacheBytes / (1024 * 1024) + " MB in all)", "", "ratio", List.of("hit ratio", "byte hit ratio"), bars);
        if (!curve.isEmpty()) {
            double[] x = curve.stream().mapToDouble(p -> p[0]).toArray();
            new Charts(1000, 540).line(context.output("hit-ratio-over-time.png"), "Cumulative hit ratio over the trace",
                    "requests", "hit ratio", List.of(
                            new Series("Riptide", x, curve.stream().mapToDouble(p -> p[1]).toArray()),
                            new Series("one shared proxy cache", x, curve.stream().mapToDouble(p -> p[2]).toArray())));
        }
        System.out.printf("trace-replay: hit ratio Riptide %.4f, shared proxy %.4f, per-client %.4f; byte hit ratio %.4f vs %.4f; "
                        + "target %s; origin fetches Riptide %d (%d by proxies), shared proxy %d%n", hitRatio, sharedRatio,
                clientHits[0] / (double) n, riptide[1] / (double) totalBytes, sharedHits[1] / (double) totalBytes,
                targetMet ? "met" : "NOT met", originFetches, proxyFetches, sharedFetches);
    }

    /** Bytes Riptide's stores hold now: every live node's replicas, and each proxy's memory tier. */
    private static long storeBytes(AgentOverlay world, java.util.Collection<SimulatedProxy> proxies) {
        long bytes = 0;
        for (int v : world.overlay().liveVertices()) {
            bytes += world.overlay().node(v).replicas().payloadBytes();
        }
        for (SimulatedProxy p : proxies) {
            bytes += p.memoryBytes();
        }
        return bytes;
    }

    /**
     * The baselines replayed once more with {@code cacheBytes} in all: one shared LRU cache of that size,
     * and per-user caches sharing it equally; the same rules as the inline baselines (only what a shared
     * cache may hold; a new size is a new version, a miss).
     */
    record EqualStorage(long cacheBytes, long sharedHits, long sharedHitBytes, long clientHits) {
        static EqualStorage replay(List<TraceRequest> trace, java.util.Set<String> uncacheable, long maxObject, long cacheBytes,
                                   long users) {
            LruByteCache shared = new LruByteCache(cacheBytes);
            Map<String, LruByteCache> perClient = new HashMap<>();
            long perClientBytes = Math.max(1, cacheBytes / Math.max(1, users));
            long sharedHits = 0;
            long sharedHitBytes = 0;
            long clientHits = 0;
            for (TraceRequest r : trace) {
                long size = Math.max(1, Math.min(r.bytes(), Integer.MAX_VALUE - 1L));
                boolean storable = size <= maxObject && !uncacheable.contains(r.url());
                if (storable && shared.request(r.url(), size)) {
                    sharedHits++;
                    sharedHitBytes += size;
                }
                if (storable && perClient.computeIfAbsent(r.user(), u -> new LruByteCache(perClientBytes)).request(r.url(), size)) {
                    clientHits++;
                }
            }
            return new EqualStorage(cacheBytes, sharedHits, sharedHitBytes, clientHits);
        }
    }

    /**
     * The URL as a browser puts it on the wire: characters a URI may not hold (spaces, quotes, …)
     * percent-encoded; null if it is still not an absolute http URL.
     */
    static String asBrowserSends(String raw) {
        StringBuilder out = new StringBuilder(raw.length());
        for (byte b : raw.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1)) {
            int c = b & 0xff;
            boolean plain = c > 0x20 && c < 0x7f && "\"<>\\^`{|} ".indexOf(c) < 0;
            if (plain) {
                out.append((char) c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        try {
            java.net.URI uri = new java.net.URI(out.toString());
            return "http".equalsIgnoreCase(uri.getScheme()) && uri.getHost() != null ? out.toString() : null;
        } catch (java.net.URISyntaxException e) {
            return null;
        }
    }
}
