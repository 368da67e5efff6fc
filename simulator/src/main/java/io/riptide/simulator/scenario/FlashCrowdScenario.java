package io.riptide.simulator.scenario;

import io.riptide.simulator.overlay.RandomOrder;
import io.riptide.cachemanager.CacheManager;
import io.riptide.cachemanager.CacheManagerConfig;
import io.riptide.core.crypto.SigningKey;
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
import io.riptide.simulator.agents.OriginDocument;
import io.riptide.simulator.agents.SimulatedProxies;
import io.riptide.simulator.agents.SimulatedProxy;
import io.riptide.simulator.agents.SimulatedOrigin;
import io.riptide.simulator.overlay.AgentOverlay;
import io.riptide.simulator.report.Charts;
import io.riptide.simulator.report.CsvWriter;
import io.riptide.simulator.report.KeyedTimes;
import io.riptide.simulator.report.Progress;
import io.riptide.simulator.report.ResultJson;
import io.riptide.simulator.topology.TopologyParams;
import io.riptide.simulator.topology.TransitStubTopology;
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
 * Paper Fig. 18: a sudden crowd for one document, its load coming from several proxies in one stub.
 * The stub's cache manager sees the rate climb in the proxies' load reports and adds replicas on the
 * stub's nodes; measured are the requests each replica serves per interval, whether each new
 * replica serves at once, and how often the origin is asked for the document.
 */
public final class FlashCrowdScenario implements Scenario {
    private static final String URL = "http://news.example/flash.html";

    @Override
    public String name() {
        return "flash-crowd";
    }

    @Override
    public String description() {
        return "a sudden crowd on one document; the cache manager adds replicas (--nodes, --places, --rate, --crowd-s)";
    }

    @Override
    public void run(ScenarioContext context) throws Exception {
        ScenarioOptions options = context.options();
        int nodes = options.getInt("nodes", 1100, 20, 200_000);
        int perStub = options.getInt("hosts-per-stub", TopologyParams.DEFAULT_HOSTS_PER_STUB, 2, 10_000);
        int places = options.getInt("places", 5, 1, 1000);
        double rate = options.getDouble("rate", 60, 0.1, 100_000);
        int crowdS = options.getInt("crowd-s", 120, 1, 86_400);
        int coolS = options.getInt("cool-s", 30, 0, 86_400);
        int intervalS = options.getInt("interval-s", 10, 1, 3600);
        double perReplica = options.getDouble("per-replica", 5.0, 0.01, 1e6);
        int maxReplicas = options.getInt("max-replicas", 8, 0, 1000);
        int settle = options.getInt("settle-s", 30, 0, 86_400);
        double joinRate = options.getDouble("join-rate", Math.max(50, nodes / 20.0), 0.1, 100_000);
        Progress progress = context.progress();
        SplittableRandom random = context.random();
        DolrConfig config = DolrConfig.defaults();

        TransitStubTopology topology = TransitStubTopology.generate(TopologyParams.forHosts(nodes).withHostsPerStub(perStub),
                context.seed());
        int stubCount = topology.stubCount();
        int managerStub = random.nextInt(stubCount);
        int gatewayStub = stubCount == 1 ? managerStub : (managerStub + 1 + random.nextInt(stubCount - 1)) % stubCount;
        List<Integer> local = RandomOrder.of(topology.hostsInStub(managerStub), random);
        if (local.size() < places + 1) {
            throw new ScenarioOptionException("places", "the manager's stub has " + local.size() + " hosts, too few for " + places + " places");
        }
        int managerVertex = local.get(0);
        List<Integer> placeVertices = local.subList(1, places + 1);
        int[] gatewayHosts = topology.hostsInStub(gatewayStub);
        int gatewayVertex = gatewayHosts[random.nextInt(gatewayHosts.length)];
        if (gatewayVertex == managerVertex || placeVertices.contains(gatewayVertex)) {
            gatewayVertex = local.get(places + 1 < local.size() ? places + 1 : 0);
        }

        SigningKey provider = Agents.provider(context.seed(), "flash-crowd");
        SimulatedOrigin origin = new SimulatedOrigin(100e6, Duration.ofMillis(20));
        origin.serve(new OriginDocument(URL, 8 * 1024, 3600, Duration.ZERO));
        Gateway[] gateway = new Gateway[1];
        CacheManager[] manager = new CacheManager[1];
        Map<Integer, Function<OverlayNode, OverlayApplication>> agents = new HashMap<>();
        agents.put(gatewayVertex, Agents.gateway(provider, origin, GatewayConfig.defaults(), PushMode.NONE, g -> gateway[0] = g));
        agents.put(managerVertex, Agents.cacheManager(provider,
                CacheManagerConfig.defaults().withHotObjects(perReplica, maxReplicas), m -> manager[0] = m));
        AgentOverlay world = AgentOverlay.build(topology, context.seed(), config, joinRate, Duration.ofSeconds(settle), agents,
                options.getBoolean("links", true), progress);
        var overlay = world.overlay();

        // The document is in the overlay before the crowd: the gateway inserts it (one origin fetch).
        Id guid = ObjectNames.objectGuid(provider.publicKey(), URL, "");
        gateway[0].inserter().refresh(URL, Headers.EMPTY, r -> { });
        world.run(Duration.ofSeconds(10));

        // The shipped browser proxy on each place's host: it reports its load to the nearest manager every second.
        SimulatedProxies proxies = SimulatedProxies.of(overlay, provider.publicKey(), origin);
        List<SimulatedProxy> clients = new ArrayList<>();
        for (int v : placeVertices) {
            clients.add(proxies.on(v));
        }

        // The crowd: requests at a steady total rate, in turn from each place.
        long start = world.simulation().now();
        long spacing = (long) (1e9 / rate);
        long crowdEnd = start + Duration.ofSeconds(crowdS).toNanos();
        long end = crowdEnd + Duration.ofSeconds(coolS).toNanos();
        KeyedTimes served = new KeyedTimes();
        long[] fromOrigin = new long[1];
        Map<Integer, Long> holdersAt = new TreeMap<>();
        for (int v : holders(overlay, nodes, guid)) {
            holdersAt.put(v, Long.MIN_VALUE);
        }
        long nextSnapshot = start;
        long issued = 0;
        progress.begin("flash crowd of " + rate + " requests/s for " + crowdS + " virtual s", (end - start) / 1_000_000_000L);
        while (world.simulation().now() < end) {
            long now = world.simulation().now();
            if (now >= nextSnapshot) {
                for (int v : holders(overlay, nodes, guid)) {
                    holdersAt.putIfAbsent(v, now - start);
                }
                nextSnapshot += 1_000_000_000L;
                progress.step();
            }
            if (now < crowdEnd) {
                long issuedAt = now - start;
                clients.get((int) (issued++ % clients.size())).get(URL, result -> {
                    if (result.fromReplica()) {
                        served.add(overlay.vertexOf(result.replica().id()), issuedAt);
                    } else {
                        fromOrigin[0]++;
                    }
                });
            }
            world.simulation().runFor(now < crowdEnd ? spacing : 1_000_000_000L);
        }
        progress.finish();

        int intervals = (crowdS + intervalS - 1) / intervalS;
        long width = Duration.ofSeconds(intervalS).toNanos();
        List<Integer> added = new ArrayList<>();
        List<Long> firstInterval = new ArrayList<>();
        for (Map.Entry<Integer, Long> e : holdersAt.entrySet()) {
            if (e.getValue() != Long.MIN_VALUE && e.getValue() < crowdEnd - start) {
                added.add(e.getKey());
                // Holders are sampled each second: the replica appeared within the second before it was seen.
                firstInterval.add(served.count(e.getKey(), e.getValue() - 1_000_000_000L, e.getValue() + width));
            }
        }
        long originFetches = origin.fetches(URL);
        int clientStubs = (int) placeVertices.stream().map(topology::stubOf).distinct().count();
        boolean eachServed = !added.isEmpty() && firstInterval.stream().allMatch(n -> n > 0);
        boolean targetMet = eachServed && originFetches <= clientStubs;

        ResultJson result = new ResultJson()
                .put("scenario", name())
                .put("seed", context.seed())
                .put("nodes", (long) nodes)
                .put("joined", (long) world.joined())
                .put("stubs", (long) clientStubs)
                .put("places", (long) places)
                .put("rate_per_s", rate)
                .put("crowd_s", (long) crowdS)
                .put("interval_s", (long) intervalS)
                .put("load_per_replica", perReplica)
                .put("requests", issued)
                .put("served_by_replicas", served.total())
                .put("served_by_origin", fromOrigin[0])
                .put("replicas_added", (long) added.size())
                .put("first_interval_requests_per_new_replica", firstInterval.stream().mapToLong(Long::longValue).toArray())
                .put("origin_fetches_hot_doc", originFetches)
                // Requests that joined a read already in flight at their proxy (collapsed forwarding): the
                // replica that answered served one read for all of them, counted above once per request.
                .put("proxy_overlay_reads", clients.stream().mapToLong(c -> c.cache().figures().overlayReads()).sum())
                .put("proxy_reads_shared", clients.stream().mapToLong(c -> c.cache().figures().readsShared()).sum())
                .put("manager_hints", manager[0].hints())
                .put("manager_replicas_retired", manager[0].hotObjects().retired());
        ResultJson.ObjectList rows = result.objects("replicas");
        Map<String, double[]> bars = new LinkedHashMap<>();
        try (CsvWriter csv = new CsvWriter(context.output("replica-load.csv"),
                List.of("interval_start_s", "replica_vertex", "replica_stub", "requests"))) {
            for (int v : served.keys()) {
                long[] counts = served.perInterval(v, 0, width, intervals);
                Long since = holdersAt.get(v);
                rows.add().put("vertex", (long) v).put("stub", (long) topology.stubOf(v))
                        .put("added_s", since == null || since == Long.MIN_VALUE ? -1.0 : since / 1e9)
                        .put("requests_per_interval", counts);
                double[] y = new double[intervals];
                for (int i = 0; i < intervals; i++) {
                    csv.row((long) i * intervalS, (long) v, (long) topology.stubOf(v), counts[i]);
                    y[i] = counts[i];
                }
                bars.put((v == gatewayVertex ? "gateway " : "node ") + v, y);
            }
        }
        result.object("targets").put("each_new_replica_serves_in_first_interval", true)
                .put("origin_fetches_hot_doc_max", (long) clientStubs);
        result.put("target_met", targetMet)
                .put("virtual_seconds", world.simulation().now() / 1e9)
                .put("simulated_events", world.simulation().eventsRun())
                .put("messages", overlay.network().messagesSent());
        result.write(context.output("result.json"));

        List<String> categories = new ArrayList<>();
        for (int i = 0; i < intervals; i++) {
            categories.add((i * intervalS) + "–" + ((i + 1) * intervalS) + " s");
        }
        if (!bars.isEmpty()) {
            new Charts(1000, 600).bar(context.output("replica-load.png"), "Requests served per replica (" + rate + " req/s crowd)",
                    "interval", "requests served", categories, bars);
        }
        System.out.printf("flash-crowd: %d replicas added, first-interval requests %s, origin fetches %d, target %s%n",
                added.size(), firstInterval, originFetches, targetMet ? "met" : "NOT met");
    }

    private static List<Integer> holders(io.riptide.dolr.simulation.SimulatedOverlay overlay, int nodes, Id guid) {
        List<Integer> out = new ArrayList<>();
        for (int v = 0; v < nodes; v++) {
            OverlayNode n = overlay.node(v);
            if (n != null && overlay.isAlive(v) && n.replicas().contains(guid)) {
                out.add(v);
            }
        }
        return out;
    }
}
