package io.riptide.simulator.scenario;

import io.riptide.cachemanager.CacheManager;
import io.riptide.cachemanager.CacheManagerConfig;
import io.riptide.core.gateway.GatewayMessages.Outcome;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.http.CanonicalUrl;
import io.riptide.core.id.Id;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.object.PushMode;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.OverlayApplication;
import io.riptide.dolr.OverlayNode;
import io.riptide.gateway.GatewayConfig;
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
import io.riptide.simulator.topology.TopologyParams;
import io.riptide.simulator.topology.TransitStubTopology;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * CoralCDN's origin-shield test: many proxies in many stubs ask for the same few documents at the
 * same moment. A proxy that misses goes to the origin itself at once (the user never waits for the
 * overlay) and hints its nearest cache manager; the managers' insert requests, from every stub and
 * through several gateways, must collapse into one fetch per document by the cache's own fetchers.
 * A second wave a little later shows the documents served from the overlay.
 */
public final class OriginShieldScenario implements Scenario {
    @Override
    public String name() {
        return "origin-shield";
    }

    @Override
    public String description() {
        return "many proxies ask for the same documents at once; origin fetches by the cache stay one per document "
                + "(--proxies, --documents, --gateways, --managers, --nodes)";
    }

    @Override
    public void run(ScenarioContext context) throws Exception {
        ScenarioOptions options = context.options();
        int nodes = options.getInt("nodes", 1100, 50, 200_000);
        int proxies = options.getInt("proxies", 166, 1, 100_000);
        int documents = options.getInt("documents", 12, 1, 10_000);
        int gateways = options.getInt("gateways", 3, 1, 100);
        int managersWanted = options.getInt("managers", 6, 1, 1000);
        int waveGapS = options.getInt("wave-gap-s", 30, 1, 86_400);
        int settle = options.getInt("settle-s", 30, 0, 86_400);
        double joinRate = options.getDouble("join-rate", Math.max(50, nodes / 20.0), 0.1, 100_000);
        Progress progress = context.progress();
        SplittableRandom random = context.random();
        DolrConfig config = DolrConfig.defaults();

        TransitStubTopology topology = TransitStubTopology.generate(TopologyParams.forHosts(nodes), context.seed());
        List<Integer> hosts = new ArrayList<>();
        for (int v = 0; v < topology.hostCount(); v++) {
            hosts.add(v);
        }
        List<Integer> order = RandomOrder.of(hosts.stream().mapToInt(Integer::intValue).toArray(), random);
        if (order.size() < proxies + gateways + managersWanted) {
            throw new ScenarioOptionException("proxies", "the topology has " + order.size() + " hosts, too few for "
                    + proxies + " proxies, " + gateways + " gateways and " + managersWanted + " cache managers");
        }
        // Gateways and managers each in a stub of their own where the stubs allow it.
        List<Integer> agentVertices = new ArrayList<>();
        List<Integer> usedStubs = new ArrayList<>();
        for (int v : order) {
            if (agentVertices.size() == gateways + managersWanted) {
                break;
            }
            int stub = topology.stubOf(v);
            if (!usedStubs.contains(stub) || usedStubs.size() >= topology.stubCount()) {
                usedStubs.add(stub);
                agentVertices.add(v);
            }
        }
        List<Integer> gatewayVertices = agentVertices.subList(0, Math.min(gateways, agentVertices.size()));
        List<Integer> managerVertices = agentVertices.subList(gatewayVertices.size(), agentVertices.size());
        List<Integer> proxyVertices = new ArrayList<>();
        for (int v : order) {
            if (proxyVertices.size() == proxies) {
                break;
            }
            if (!agentVertices.contains(v)) {
                proxyVertices.add(v);
            }
        }

        SigningKey provider = Agents.provider(context.seed(), "origin-shield");
        // Two views of one web server, so that the cache's fetches and the users' own are counted apart.
        SimulatedOrigin viaCache = new SimulatedOrigin(100e6, Duration.ofMillis(50));
        SimulatedOrigin direct = new SimulatedOrigin(100e6, Duration.ofMillis(50));
        List<String> urls = new ArrayList<>();
        for (int d = 0; d < documents; d++) {
            String url = "http://shielded.example/doc-" + d + ".html";
            urls.add(url);
            OriginDocument doc = new OriginDocument(url, 8 * 1024, 3600, Duration.ZERO);
            viaCache.serve(doc);
            direct.serve(doc);
        }
        Map<Integer, Function<OverlayNode, OverlayApplication>> agents = new HashMap<>();
        for (int v : gatewayVertices) {
            agents.put(v, Agents.gateway(provider, viaCache, GatewayConfig.defaults(), PushMode.NONE, g -> { }));
        }
        List<CacheManager> managers = new ArrayList<>();
        for (int v : managerVertices) {
            agents.put(v, Agents.cacheManager(provider, CacheManagerConfig.defaults(), managers::add));
        }
        AgentOverlay world = AgentOverlay.build(topology, context.seed(), config, joinRate, Duration.ofSeconds(settle), agents,
                options.getBoolean("links", true), progress);

        SimulatedProxies shipped = SimulatedProxies.of(world.overlay(), provider.publicKey(), direct);
        List<SimulatedProxy> clients = new ArrayList<>();
        for (int v : proxyVertices) {
            clients.add(shipped.on(v));
        }
        progress.begin("two waves of " + proxies + " proxies x " + documents + " documents", 2);
        Map<ClientResult.Source, long[]> first = wave(world, clients, urls, Duration.ofSeconds(waveGapS));
        progress.step();
        long cacheFetchesAfterFirst = total(viaCache, urls);
        long usersFetchesAfterFirst = total(direct, urls);
        // What the second wave can be served from: with one copy per document, every read converges on
        // that copy's holder, whose stub uplink (with links on) bounds how many bodies leave in time.
        long[] copiesBefore = urls.stream().mapToLong(url -> copies(world, ObjectNames.objectGuid(provider.publicKey(),
                CanonicalUrl.of(url).value(), ""))).toArray();
        long overflowedBefore = world.overlay().network().messagesOverflowed();
        Map<ClientResult.Source, long[]> second = wave(world, clients, urls, Duration.ofSeconds(waveGapS));
        progress.step();
        progress.finish();

        long overflowedSecond = world.overlay().network().messagesOverflowed() - overflowedBefore;
        long[] perDocument = urls.stream().mapToLong(viaCache::fetches).toArray();
        long originFetches = total(viaCache, urls);
        // Counted at the origin, not from the proxies' tallies: every request the users' proxies made there.
        long usersOriginFetches = total(direct, urls);
        long requestsPerWave = (long) proxies * documents;
        long secondHits = second.get(ClientResult.Source.REPLICA)[0];
        double secondWaveHitRatio = requestsPerWave == 0 ? 0.0 : (double) secondHits / requestsPerWave;
        // Both halves of CoralCDN's test: the origin shielded, and the crowd's second wave served by the cache.
        boolean targetMet = originFetches <= documents && secondWaveHitRatio >= 0.99;

        ResultJson result = new ResultJson()
                .put("scenario", name())
                .put("seed", context.seed())
                .put("nodes", (long) nodes)
                .put("joined", (long) world.joined())
                .put("proxies", (long) proxies)
                .put("proxy_stubs", proxyVertices.stream().map(topology::stubOf).distinct().count())
                .put("documents", (long) documents)
                .put("gateways", (long) gatewayVertices.size())
                .put("cache_managers", (long) managerVertices.size())
                .put("requests_per_wave", requestsPerWave)
                .put("origin_fetches", originFetches)
                .put("origin_fetches_per_document", perDocument)
                .put("origin_fetches_first_wave", cacheFetchesAfterFirst)
                .put("proxy_direct_fetches_first_wave", total(first))
                .put("proxy_direct_fetches_second_wave", total(second))
                .put("origin_fetches_second_wave", originFetches - cacheFetchesAfterFirst)
                .put("users_origin_fetches_first_wave", usersFetchesAfterFirst)
                .put("users_origin_fetches_second_wave", usersOriginFetches - usersFetchesAfterFirst)
                .put("users_origin_fetches", usersOriginFetches)
                .put("all_origin_fetches", originFetches + usersOriginFetches)
                .put("second_wave_replica_hits", secondHits)
                .put("second_wave_hit_ratio", secondWaveHitRatio)
                .put("copies_per_document_before_second_wave", copiesBefore)
                // Copies the managers made of what they had inserted, on their own nodes (CacheManagerConfig.copyInserts).
                .put("manager_inserted_copies", managers.stream().mapToLong(m -> m.insertedCopies().made()).sum())
                // ... and on the sources of the misses outside their local areas (campuses without a manager).
                .put("manager_remote_copies", managers.stream().mapToLong(m -> m.insertedCopies().remoteMade()).sum())
                .put("manager_copies_skipped_busy", managers.stream().mapToLong(m -> m.insertedCopies().skippedBusy()).sum())
                .put("manager_insert_retries", managers.stream().mapToLong(m -> m.gateway().retried()).sum())
                .put("manager_inserted_copy_failures", managers.stream().mapToLong(m -> m.insertedCopies().failures()).sum())
                .put("second_wave_messages_overflowed", overflowedSecond);
        // What the gateways answered the managers' insert requests: a busy answer leaves the stub without a copy.
        ResultJson outcomes = result.object("manager_insert_outcomes");
        for (Outcome o : Outcome.values()) {
            outcomes.put(o.name().toLowerCase(java.util.Locale.ROOT), managers.stream().mapToLong(m -> m.gateway().outcomes(o)).sum());
        }
        result.object("targets").put("origin_fetches_max", (long) documents).put("second_wave_hit_ratio_min", 0.99);
        result.put("target_met", targetMet)
                .put("virtual_seconds", world.simulation().now() / 1e9)
                .put("simulated_events", world.simulation().eventsRun())
                .put("messages", world.overlay().network().messagesSent());
        result.write(context.output("result.json"));

        try (CsvWriter csv = new CsvWriter(context.output("origin-fetches.csv"), List.of("document", "origin_fetches_by_cache"))) {
            for (int d = 0; d < documents; d++) {
                csv.row(urls.get(d), perDocument[d]);
            }
        }
        Map<String, double[]> bars = new LinkedHashMap<>();
        bars.put("from a replica", new double[] {first.get(ClientResult.Source.REPLICA)[0], secondHits});
        bars.put("user's own origin fetch", new double[] {total(first), total(second)});
        new Charts(900, 540).bar(context.output("waves.png"), proxies + " proxies x " + documents
                        + " documents: how each wave was served (cache's origin fetches: " + originFetches + ")",
                "wave", "requests", List.of("first (all at once)", "second (" + waveGapS + " s later)"), bars);
        System.out.printf("origin-shield: %d origin fetches by the cache for %d documents (%d requests per wave), "
                        + "users' own %d + %d (first + second wave), second-wave hit ratio %.3f, target %s%n", originFetches,
                documents, requestsPerWave, usersFetchesAfterFirst, usersOriginFetches - usersFetchesAfterFirst,
                (double) secondHits / requestsPerWave, targetMet ? "met" : "NOT met");
    }

    /** Every proxy asks for every document at the same instant; then {@code gap} of virtual time runs. */
    private static Map<ClientResult.Source, long[]> wave(AgentOverlay world, List<SimulatedProxy> clients, List<String> urls,
                                                         Duration gap) {
        Map<ClientResult.Source, long[]> counts = new HashMap<>();
        for (ClientResult.Source s : ClientResult.Source.values()) {
            counts.put(s, new long[1]);
        }
        for (SimulatedProxy c : clients) {
            for (String url : urls) {
                c.get(url, r -> counts.get(r.source())[0]++);
            }
        }
        world.run(gap);
        return counts;
    }

    private static long total(Map<ClientResult.Source, long[]> counts) {
        return counts.get(ClientResult.Source.ORIGIN_MISS)[0] + counts.get(ClientResult.Source.ORIGIN_STALE)[0];
    }

    /** Live nodes whose store holds {@code guid} now. */
    private static long copies(AgentOverlay world, Id guid) {
        return world.overlay().liveVertices().stream().filter(v -> world.overlay().node(v).replicas().contains(guid)).count();
    }

    private static long total(SimulatedOrigin origin, List<String> urls) {
        return urls.stream().mapToLong(origin::fetches).sum();
    }
}
