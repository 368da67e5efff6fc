package io.riptide.simulator.scenario;

import io.riptide.core.crypto.SigningKey;
import io.riptide.core.http.CanonicalUrl;
import io.riptide.core.http.Headers;
import io.riptide.core.id.Id;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.object.PushMode;
import io.riptide.core.runtime.Env;
import io.riptide.core.runtime.sim.SimEnv;
import io.riptide.core.runtime.sim.SimNetwork;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.OverlayApplication;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.simulation.SimulatedOverlay;
import io.riptide.gateway.Gateway;
import io.riptide.gateway.GatewayConfig;
import io.riptide.simulator.agents.Agents;
import io.riptide.simulator.agents.ClientResult;
import io.riptide.simulator.agents.OriginDocument;
import io.riptide.simulator.agents.SimulatedOrigin;
import io.riptide.simulator.agents.SimulatedProxies;
import io.riptide.simulator.agents.SimulatedProxy;
import io.riptide.simulator.faults.CopiesPerVersion;
import io.riptide.simulator.faults.FaultInjector;
import io.riptide.simulator.faults.FaultKind;
import io.riptide.simulator.faults.FaultPlan;
import io.riptide.simulator.faults.Invariant;
import io.riptide.simulator.faults.LeafSets;
import io.riptide.simulator.faults.ServedBytes;
import io.riptide.simulator.faults.UpdatesReach;
import io.riptide.simulator.overlay.AgentOverlay;
import io.riptide.simulator.overlay.RandomOrder;
import io.riptide.simulator.report.Charts;
import io.riptide.simulator.report.CsvWriter;
import io.riptide.simulator.report.Progress;
import io.riptide.simulator.report.ResultJson;
import io.riptide.simulator.report.Series;
import io.riptide.simulator.topology.TopologyParams;
import io.riptide.simulator.topology.TransitStubTopology;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * The fault-injection suite (FoundationDB-style): a small overlay with a gateway, an origin whose
 * documents change every few seconds (kept current in push mode), replicas of them in several
 * stubs and proxies whose users read them all the time, while a fault plan drawn from the seed
 * drops, doubles and reorders messages, partitions stubs, crashes nodes and restarts them on their
 * disks, skews clocks and slows disks. Then every fault heals and the run goes on. Invariants are
 * checked throughout, on what users and peers see ({@code io.riptide.simulator.faults}): the bytes
 * proxies serve are verified and never go back in time, each version has one signed copy, updates
 * reach every replica in a tree within a bound after the faults heal, and leaf sets converge to
 * exact. {@code target_met} is "every invariant held"; a failing seed's command line is printed so
 * that it replays exactly, and the command exits non-zero ({@link #missIsFailure}).
 */
public final class FaultsScenario implements Scenario {
    private static final long S = 1_000_000_000L;

    @Override
    public String name() {
        return "faults";
    }

    @Override
    public String description() {
        return "fault injection: loss, duplication, reordering, partitions, crashes with restarts, clock skew, slow disks;"
                + " invariants checked throughout; exits 1 if one fails (--faults-s, --heal-s, --faults KINDS)";
    }

    @Override
    public boolean missIsFailure() {
        return true;
    }

    @Override
    public void run(ScenarioContext context) throws Exception {
        ScenarioOptions options = context.options();
        int nodes = options.getInt("nodes", 48, 12, 20_000);
        int perStub = options.getInt("hosts-per-stub", 8, 4, 10_000);
        int documents = options.getInt("documents", 3, 1, 100);
        int sizeBytes = options.getInt("size-kb", 8, 1, 1024) * 1024;
        int maxAge = options.getInt("max-age-s", 5, 0, 86_400);
        int changeS = options.getInt("change-s", 10, 1, 86_400);
        int gatewayCount = options.getInt("gateways", 1, 1, 10);
        int replicaCount = options.getInt("replicas", 6, 0, 1000);
        int proxyCount = options.getInt("proxies", 4, 1, 1000);
        int requestMs = options.getInt("request-ms", 250, 10, 60_000);
        int settle = options.getInt("settle-s", 20, 0, 86_400);
        int faultsS = options.getInt("faults-s", 40, 4, 86_400);
        int healS = options.getInt("heal-s", 40, 2, 86_400);
        int updateBoundS = options.getInt("update-bound-s", 15, 1, 3600);
        int leafBoundS = options.getInt("leafset-bound-s", 30, 1, 3600);
        boolean links = options.getBoolean("links", true);
        double joinRate = options.getDouble("join-rate", 50, 0.1, 100_000);
        Set<FaultKind> kinds = kinds(options.getString("faults", "all"));
        if (healS <= Math.max(updateBoundS, leafBoundS)) {
            throw new ScenarioOptionException("heal-s", "must be longer than the bounds (--update-bound-s " + updateBoundS
                    + ", --leafset-bound-s " + leafBoundS + "), or nothing is checked after the faults heal");
        }
        Progress progress = context.progress();
        SplittableRandom random = context.random();
        DolrConfig config = DolrConfig.defaults();

        TransitStubTopology topology = TransitStubTopology.generate(TopologyParams.forHosts(nodes).withHostsPerStub(perStub),
                context.seed());
        Roles roles = Roles.draw(topology, gatewayCount, proxyCount, replicaCount, random);

        // The documents: each changes every change-s by the origin's own clock (clocks of fetchers may be skewed).
        SimulatedOrigin origin = new SimulatedOrigin(10e6, Duration.ofMillis(20));
        Map<String, OriginDocument> docs = new LinkedHashMap<>();
        for (int d = 0; d < documents; d++) {
            String url = CanonicalUrl.of("http://news" + d + ".faults.example/front.html").value();
            OriginDocument doc = new OriginDocument(url, sizeBytes, maxAge, Duration.ofSeconds(changeS));
            docs.put(url, doc);
            origin.serve(doc);
        }
        PushMode pushMode = PushMode.forPrefixes(List.copyOf(docs.keySet()));
        SigningKey provider = Agents.provider(context.seed(), "faults");
        Map<Id, String> names = new LinkedHashMap<>();
        docs.keySet().forEach(url -> names.put(ObjectNames.objectGuid(provider.publicKey(), url, ""), url));

        // A crashed gateway comes back as a new agent from the same factory: the slot follows it.
        Gateway[] gateways = new Gateway[roles.gateways().size()];
        Map<Integer, Function<OverlayNode, OverlayApplication>> agents = new HashMap<>();
        for (int i = 0; i < gateways.length; i++) {
            int slot = i;
            agents.put(roles.gateways().get(i), Agents.gateway(provider, origin, GatewayConfig.defaults(), pushMode,
                    g -> gateways[slot] = g));
        }
        AgentOverlay world = AgentOverlay.build(topology, context.seed(), config, joinRate, Duration.ofSeconds(settle), agents, links,
                SimulatedOverlay::keepReplicasOnDisks, progress);
        SimulatedOverlay overlay = world.overlay();
        SimNetwork network = overlay.network();
        origin.keepOwnClock(() -> SimEnv.EPOCH_MILLIS + world.simulation().now() / 1_000_000L);

        // The first copies: the gateway inserts each document, then replicas elsewhere copy it and join its tree.
        progress.begin("inserting " + documents + " documents, " + roles.replicas().size() + " replicas each", 2);
        for (String url : docs.keySet()) {
            gateways[0].inserter().refresh(url, Headers.EMPTY, r -> { });
        }
        world.run(Duration.ofSeconds(3));
        progress.step();
        OverlayNode first = overlay.node(roles.gateways().get(0));
        for (Id guid : names.keySet()) {
            for (int v : roles.replicas()) {
                first.replicateTo(overlay.node(v).self(), guid, r -> { });
            }
        }
        world.run(Duration.ofSeconds(3));
        progress.step();
        progress.finish();

        // The observers: checks on what proxies serve and what nodes hold, and users reading all the time.
        ServedBytes served = new ServedBytes(docs, world.simulation()::now);
        CopiesPerVersion copies = new CopiesPerVersion(names);
        UpdatesReach updates = new UpdatesReach(names, updateBoundS * S);
        LeafSets leafSets = new LeafSets(config.leafSetHalf());
        SimulatedProxies shipped = SimulatedProxies.of(overlay, provider.publicKey(), origin).withPushMode(pushMode);
        List<String> urls = List.copyOf(docs.keySet());
        Map<ClientResult.Source, Long> sources = new java.util.EnumMap<>(ClientResult.Source.class);
        long[] requests = new long[1];
        SplittableRandom users = random.split();
        for (int v : roles.proxies()) {
            SimulatedProxy proxy = shipped.on(v);
            proxy.onServed(served.watcher(v));
            new User(proxy, urls, requestMs * 1_000_000L, users.split(), r -> {
                requests[0]++;
                sources.merge(r.source(), 1L, Long::sum);
            }).start();
        }

        // The faults, drawn from the seed within the window; then every one heals.
        long windowStart = world.simulation().now() + 5 * S;
        List<Integer> everyone = new ArrayList<>();
        for (int v = 0; v < topology.hostCount(); v++) {
            everyone.add(v);
        }
        List<Integer> crashable = new ArrayList<>(everyone);
        crashable.removeAll(roles.proxies()); // the proxies are the users' view: they stay up to remember what they served
        List<Integer> key = new ArrayList<>(roles.gateways());
        key.addAll(roles.replicas());
        FaultPlan plan = FaultPlan.draw(new FaultPlan.Space(windowStart, faultsS * S, topology.stubCount(), crashable, everyone,
                key, kinds), random.split());
        FaultInjector injector = new FaultInjector(overlay, topology::stubOf);
        injector.schedule(plan);
        long healed = Math.max(windowStart + faultsS * S, plan.healedByNanos(windowStart));
        long end = healed + healS * S;

        List<double[]> timeline = new ArrayList<>();
        long start = world.simulation().now();
        long steps = (end - start + S - 1) / S;
        progress.begin("faults for " + faultsS + " virtual s, then healed for " + healS, steps);
        while (world.simulation().now() < end) {
            world.run(Duration.ofSeconds(1));
            long now = world.simulation().now();
            copies.scan(overlay, now);
            updates.tick(overlay, roles.gateways(), now, healed + updateBoundS * S);
            leafSets.tick(overlay, now, healed + leafBoundS * S);
            timeline.add(new double[] {now / 1e9, injector.anyActive() ? 1 : 0, overlay.size(), leafSets.inexactNow(),
                    updates.behindNow(), violations(served, copies, updates, leafSets)});
            progress.step();
        }
        progress.finish();

        List<Invariant> invariants = List.of(served.verified(), served.noGoingBack(), copies.invariant(), updates.invariant(),
                leafSets.invariant());
        boolean held = invariants.stream().allMatch(Invariant::held);
        // In result.json without this run's directory (same seed and options, same bytes, wherever it ran).
        String replay = replayCommand(context, "faults-seed-" + context.seed());
        ResultJson result = new ResultJson()
                .put("scenario", name())
                .put("seed", context.seed())
                .put("nodes", (long) topology.hostCount())
                .put("stubs", (long) topology.stubCount())
                .put("joined", (long) world.joined())
                .put("documents", (long) documents)
                .put("change_every_s", (long) changeS)
                .put("gateways", roles.gateways().stream().mapToLong(Integer::longValue).toArray())
                .put("proxies", roles.proxies().stream().mapToLong(Integer::longValue).toArray())
                .put("replicas", roles.replicas().stream().mapToLong(Integer::longValue).toArray())
                .put("fault_kinds", kinds.stream().map(FaultKind::label).toList())
                .put("fault_window_s", new double[] {windowStart / 1e9, (windowStart + faultsS * S) / 1e9})
                .put("healed_at_s", healed / 1e9)
                .put("update_bound_s", (long) updateBoundS)
                .put("leafset_bound_s", (long) leafBoundS);
        ResultJson injected = result.object("faults_injected");
        injector.injected().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> injected.put(e.getKey().label(), (long) e.getValue()));
        result.put("faults_injected_total", injector.injected().values().stream().mapToLong(Integer::longValue).sum())
                .put("restarts", injector.restarts())
                .put("messages_lost", network.messagesLost())
                .put("messages_duplicated", network.messagesDuplicated())
                .put("messages_reordered", network.messagesJittered())
                .put("messages_overflowed", network.messagesOverflowed());
        plan.write(result.objects("fault_plan"));
        ResultJson.ObjectList checked = result.objects("invariants");
        invariants.forEach(i -> i.write(checked));
        result.put("violations", invariants.stream().mapToLong(Invariant::violations).sum())
                .put("invariants_held", invariants.stream().filter(Invariant::held).map(Invariant::name).toList())
                .put("invariants_violated", invariants.stream().filter(i -> !i.held()).map(Invariant::name).toList())
                .put("leafsets_last_inexact_s", leafSets.lastInexactNanos() < 0 ? -1 : leafSets.lastInexactNanos() / 1e9)
                .put("update_worst_lag_after_heal_s", updates.worstLagNanos() / 1e9)
                .put("stale_replicas_outside_trees", (long) updates.outsideTrees(overlay, roles.gateways()))
                .put("copy_versions_seen", copies.versionsSeen())
                .put("requests", requests[0]);
        ResultJson bySource = result.object("answers_by_source");
        sources.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> bySource.put(e.getKey().name().toLowerCase(java.util.Locale.ROOT), e.getValue()));
        result.put("target_met", held)
                .put("replay", replay)
                .put("virtual_seconds", world.simulation().now() / 1e9)
                .put("simulated_events", world.simulation().eventsRun())
                .put("messages", network.messagesSent());
        result.write(context.output("result.json"));
        writeTimeline(context, timeline);

        System.out.printf("faults: seed %d, %d faults injected (%s); invariants %s%n", context.seed(),
                injector.injected().values().stream().mapToInt(Integer::intValue).sum(), counts(injector.injected()),
                held ? "all held" : "VIOLATED: " + String.join(", ", invariants.stream().filter(i -> !i.held())
                        .map(i -> i.name() + " (" + i.violations() + " of " + i.checks() + ")").toList()));
        if (!held) {
            invariants.stream().filter(i -> !i.held()).forEach(i -> System.out.println("  " + i.name() + ": " + i.examples().get(0)));
            System.out.println("  replay: " + replayCommand(context, context.outDir().toString()));
        }
    }

    /** The kinds named in {@code --faults}: comma-separated labels, "all", or "none" (a control run). */
    static Set<FaultKind> kinds(String text) {
        if (text.strip().equalsIgnoreCase("all")) {
            return EnumSet.allOf(FaultKind.class);
        }
        if (text.strip().equalsIgnoreCase("none")) {
            return EnumSet.noneOf(FaultKind.class);
        }
        Set<FaultKind> kinds = EnumSet.noneOf(FaultKind.class);
        for (String part : text.split(",")) {
            if (part.isBlank()) {
                continue;
            }
            FaultKind k = FaultKind.of(part);
            if (k == null) {
                throw new ScenarioOptionException("faults", "unknown fault '" + part.strip() + "': expected all, none, or some of "
                        + String.join(",", java.util.Arrays.stream(FaultKind.values()).map(FaultKind::label).toList()));
            }
            kinds.add(k);
        }
        return kinds;
    }

    /** The command line that runs this seed again, exactly (the same seed and options), into {@code out}. */
    static String replayCommand(ScenarioContext context, String out) {
        StringBuilder cmd = new StringBuilder("riptide simulate faults --seed " + context.seed() + " --out " + out);
        context.options().asMap().forEach((k, v) -> cmd.append(" --").append(k).append(' ').append(v));
        return cmd.toString();
    }

    private static long violations(ServedBytes served, CopiesPerVersion copies, UpdatesReach updates, LeafSets leafSets) {
        return served.verified().violations() + served.noGoingBack().violations() + copies.invariant().violations()
                + updates.invariant().violations() + leafSets.invariant().violations();
    }

    private static String counts(Map<FaultKind, Integer> injected) {
        List<String> parts = new ArrayList<>();
        for (FaultKind k : FaultKind.values()) {
            if (injected.getOrDefault(k, 0) > 0) {
                parts.add(injected.get(k) + " " + k.label());
            }
        }
        return parts.isEmpty() ? "none" : String.join(", ", parts);
    }

    private static void writeTimeline(ScenarioContext context, List<double[]> timeline) throws Exception {
        try (CsvWriter csv = new CsvWriter(context.output("timeline.csv"), List.of("virtual_s", "faults_active", "live_nodes",
                "inexact_leaf_sets", "replicas_behind", "violations_so_far"))) {
            for (double[] row : timeline) {
                csv.row(row[0], (long) row[1], (long) row[2], (long) row[3], (long) row[4], (long) row[5]);
            }
        }
        double[] t = timeline.stream().mapToDouble(r -> r[0]).toArray();
        new Charts().line(context.output("timeline.png"), "Faults, repair and invariants", "virtual seconds", "count",
                List.of(new Series("faults in force (0/1)", t, timeline.stream().mapToDouble(r -> r[1]).toArray()),
                        new Series("inexact leaf sets", t, timeline.stream().mapToDouble(r -> r[3]).toArray()),
                        new Series("replicas behind the gateway", t, timeline.stream().mapToDouble(r -> r[4]).toArray()),
                        new Series("violations so far", t, timeline.stream().mapToDouble(r -> r[5]).toArray())));
    }

    /** Who does what: gateways and proxies each in a stub of their own where the stubs allow, replicas anywhere else. */
    record Roles(List<Integer> gateways, List<Integer> proxies, List<Integer> replicas) {
        static Roles draw(TransitStubTopology topology, int gateways, int proxies, int replicas, SplittableRandom random) {
            int[] hosts = new int[topology.hostCount()];
            for (int v = 0; v < hosts.length; v++) {
                hosts[v] = v;
            }
            List<Integer> order = RandomOrder.of(hosts, random);
            if (order.size() < gateways + proxies + replicas) {
                throw new ScenarioOptionException("nodes", topology.hostCount() + " nodes are too few for " + gateways
                        + " gateways, " + proxies + " proxies and " + replicas + " replicas");
            }
            List<Integer> used = new ArrayList<>();
            List<Integer> usedStubs = new ArrayList<>();
            List<Integer> g = spread(topology, order, gateways, used, usedStubs);
            List<Integer> p = spread(topology, order, proxies, used, usedStubs);
            List<Integer> r = new ArrayList<>();
            for (int v : order) {
                if (r.size() < replicas && !used.contains(v)) {
                    r.add(v);
                }
            }
            return new Roles(g, p, r);
        }

        private static List<Integer> spread(TransitStubTopology topology, List<Integer> order, int count, List<Integer> used,
                                            List<Integer> usedStubs) {
            List<Integer> out = new ArrayList<>();
            for (boolean anyStub : new boolean[] {false, true}) {
                for (int v : order) {
                    if (out.size() == count) {
                        return out;
                    }
                    if (!used.contains(v) && (anyStub || !usedStubs.contains(topology.stubOf(v)))) {
                        out.add(v);
                        used.add(v);
                        usedStubs.add(topology.stubOf(v));
                    }
                }
            }
            return out;
        }
    }

    /** A user behind a proxy: a request for a random document every so often (exponential gaps), for good. */
    private static final class User {
        private final SimulatedProxy proxy;
        private final List<String> urls;
        private final long meanGapNanos;
        private final SplittableRandom random;
        private final java.util.function.Consumer<ClientResult> sink;

        User(SimulatedProxy proxy, List<String> urls, long meanGapNanos, SplittableRandom random,
             java.util.function.Consumer<ClientResult> sink) {
            this.proxy = proxy;
            this.urls = urls;
            this.meanGapNanos = meanGapNanos;
            this.random = random;
            this.sink = sink;
        }

        void start() {
            next();
        }

        private void next() {
            Env env = proxy.env();
            long gap = (long) (-meanGapNanos * Math.log(1.0 - random.nextDouble()));
            env.schedule(Duration.ofNanos(Math.max(1, gap)), () -> {
                proxy.get(urls.get(random.nextInt(urls.size())), sink);
                next();
            });
        }
    }
}
