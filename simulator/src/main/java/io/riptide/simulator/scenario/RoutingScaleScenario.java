package io.riptide.simulator.scenario;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.runtime.sim.Simulation;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.simulation.SimulatedOverlay;
import io.riptide.simulator.overlay.LocateProbes;
import io.riptide.simulator.overlay.BloomTraffic;
import io.riptide.simulator.overlay.OverlayBuild;
import io.riptide.simulator.overlay.ProbeRecorder;
import io.riptide.simulator.overlay.RouteProbe;
import io.riptide.simulator.overlay.IdealRoutes;
import io.riptide.simulator.overlay.TableQuality;
import io.riptide.dolr.routing.HopChoice;
import io.riptide.dolr.routing.RoutingMessages.Hop;
import io.riptide.dolr.routing.RoutingMessages.Routed;
import io.riptide.core.wire.WireMessage;
import io.riptide.simulator.report.BinnedCounts;
import io.riptide.simulator.report.Charts;
import io.riptide.simulator.report.CsvWriter;
import io.riptide.simulator.report.Progress;
import io.riptide.simulator.report.ResultJson;
import io.riptide.simulator.report.SampleSummary;
import io.riptide.simulator.topology.TransitStubTopology;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * How routing and location scale: hops and relative delay penalty of routing to random keys, of
 * locating published objects from anywhere, and of locating objects held in the requester's own
 * stub with and without attenuated Bloom filters.
 */
public final class RoutingScaleScenario implements Scenario {
    private static final Duration ISSUE_SPACING = Duration.ofMillis(5);

    @Override
    public String name() {
        return "routing-scale";
    }

    @Override
    public String description() {
        return "hops and delay penalty of routing and location (--nodes, --routes, --objects, --locates)";
    }

    @Override
    public void run(ScenarioContext context) throws Exception {
        ScenarioOptions options = context.options();
        int routes = options.getInt("routes", 2000, 1, 1_000_000);
        int objects = options.getInt("objects", 500, 1, 1_000_000);
        int locates = options.getInt("locates", 2000, 1, 1_000_000);
        int ttl = options.getInt("ttl", 32, 1, 255);
        Progress progress = context.progress();

        OverlayBuild build = OverlayBuild.build(options, context.seed(), DolrConfig.defaults(), progress);
        SimulatedOverlay overlay = build.overlay();
        Simulation sim = build.simulation();
        TransitStubTopology topology = build.topology();
        SplittableRandom random = context.random();
        List<Integer> live = overlay.liveVertices();
        int n = live.size();
        double leafSetsExact = leafSetsExact(overlay, live);
        List<String> inexactLeafSets = inexactLeafSets(overlay, live, sim.now(), 20);
        TableQuality tables = TableQuality.measure(overlay, topology, 200, new SplittableRandom(context.seed() ^ 0x7ab1e));

        // Each probe's path as the topology's latencies add up (no queues): tells the tables' share of
        // the delay penalty from the queues'.
        long[] pathNanos = new long[routes];
        overlay.network().observe((from, to, m) -> {
            WireMessage inner = m instanceof Hop hop ? hop.inner() : m;
            if (inner instanceof Routed r && r.payload() instanceof RouteProbe probe && probe.id() < routes) {
                pathNanos[(int) probe.id()] += topology.latencyNanos(from, to);
            }
        });

        // Routing: random keys from random nodes, checked against the true root.
        progress.begin("routing " + routes + " messages", routes);
        long[] sentAt = new long[routes];
        int[] source = new int[routes];
        int[] expectedRoot = new int[routes];
        Id[] keys = new Id[routes];
        for (int i = 0; i < routes; i++) {
            Id key = randomId(random);
            keys[i] = key;
            source[i] = live.get(random.nextInt(n));
            expectedRoot[i] = overlay.trueRoot(key);
            sentAt[i] = sim.now();
            overlay.node(source[i]).route(key, new RouteProbe(i));
            sim.runFor(ISSUE_SPACING.toNanos());
            progress.step();
        }
        sim.runFor(Duration.ofSeconds(10).toNanos());
        overlay.network().observe((from, to, m) -> { });
        progress.finish();
        int routed = 0;
        int undelivered = 0;
        List<String> wrongRoots = new ArrayList<>();
        List<Double> routeHops = new ArrayList<>();
        List<Double> routeRdp = new ArrayList<>();
        List<Double> pathRdp = new ArrayList<>();
        List<Double> idealRdp = new ArrayList<>();
        List<Double> idealNearestRdp = new ArrayList<>();
        IdealRoutes ideal = new IdealRoutes(overlay, topology, DolrConfig.defaults());
        // The probes hop by their application's rule; the ideal figure beside it uses Pastry's
        // nearest-candidate rule, which location's routes keep.
        HopChoice probeChoice = build.probes().applicationFor(live.get(0)).hopChoice();
        for (int i = 0; i < routes; i++) {
            ProbeRecorder.Arrival a = build.probes().arrival(i);
            if (a == null) {
                undelivered++;
                continue;
            }
            if (a.vertex() != expectedRoot[i]) {
                // Delivered to a node that believed itself the root: a leaf set not yet exact.
                wrongRoots.add("from " + source[i] + " to " + a.vertex() + ", true root " + expectedRoot[i]);
                continue;
            }
            routed++;
            routeHops.add((double) a.hops());
            if (a.vertex() != source[i]) {
                routeRdp.add((a.atNanos() - sentAt[i]) / (double) topology.latencyNanos(source[i], a.vertex()));
                pathRdp.add(pathNanos[i] / (double) topology.latencyNanos(source[i], a.vertex()));
                double direct = topology.latencyNanos(source[i], a.vertex());
                idealRdp.add(ideal.pathNanos(source[i], keys[i], probeChoice) / direct);
                idealNearestRdp.add(ideal.pathNanos(source[i], keys[i], HopChoice.NEAREST) / direct);
            }
        }

        // Location: objects on random nodes, located from random nodes.
        progress.begin("publishing " + objects + " objects", objects);
        Id[] guids = new Id[objects];
        int[] holder = new int[objects];
        for (int i = 0; i < objects; i++) {
            guids[i] = Id.hash("routing-scale/object/" + i);
            holder[i] = live.get(random.nextInt(n));
            overlay.node(holder[i]).storeReplica(guids[i], new byte[] {(byte) i});
            sim.runFor(ISSUE_SPACING.toNanos());
            progress.step();
        }
        // Long enough for publishes to land and every node to pull its neighbours' Bloom filters.
        sim.runFor(DolrConfig.defaults().bloomRefresh().multipliedBy(2).toNanos());
        progress.finish();

        LocateProbes global = new LocateProbes(overlay, topology);
        LocateProbes localBloom = new LocateProbes(overlay, topology);
        LocateProbes localPlain = new LocateProbes(overlay, topology);
        progress.begin("locating " + locates + " objects (anywhere, same stub with and without Bloom filters)", 3L * locates);
        for (int i = 0; i < locates; i++) {
            int o = random.nextInt(objects);
            int requester = live.get(random.nextInt(n));
            global.issue(requester, guids[o], ttl, true);
            sim.runFor(ISSUE_SPACING.toNanos());
            progress.step();
        }
        for (int i = 0; i < locates; i++) {
            int o = random.nextInt(objects);
            int requester = sameStubPeer(topology, overlay, holder[o], random);
            if (requester >= 0) {
                localBloom.issue(requester, guids[o], ttl, true);
                sim.runFor(ISSUE_SPACING.toNanos());
                localPlain.issue(requester, guids[o], ttl, false);
                sim.runFor(ISSUE_SPACING.toNanos());
            }
            progress.advance(2);
        }
        sim.runFor(Duration.ofSeconds(10).toNanos());
        progress.finish();

        double[] rHops = toArray(routeHops);
        double[] rRdp = toArray(routeRdp);
        double[] lHops = global.hops();
        double[] lRdp = global.rdp();
        double[] bloomRdp = localBloom.rdp();
        double[] plainRdp = localPlain.rdp();

        ResultJson result = new ResultJson()
                .put("scenario", name())
                .put("seed", context.seed())
                .put("nodes", (long) n)
                .put("nodes_joined", (long) build.joined())
                .put("stubs", (long) topology.stubCount())
                .put("log16_nodes", Math.log(n) / Math.log(16))
                .put("route_success_rate", routed / (double) routes)
                .put("route_undelivered", (long) undelivered)
                .put("route_wrong_root", wrongRoots)
                .put("leaf_sets_exact", leafSetsExact)
                .put("leaf_sets_inexact", inexactLeafSets)
                .put("leaf_set_corrections", leafSetCorrections(overlay, live))
                .put("route_mean_hops", mean(rHops))
                .put("route_p50_rdp", SampleSummary.of(rRdp).p50())
                .put("route_p90_rdp", SampleSummary.of(rRdp).p90())
                .put("route_p50_path_rdp", SampleSummary.of(toArray(pathRdp)).p50())
                .put("route_p50_rdp_ideal_tables", SampleSummary.of(toArray(idealRdp)).p50())
                .put("route_hop_choice", probeChoice.name())
                .put("route_p50_rdp_ideal_tables_nearest", SampleSummary.of(toArray(idealNearestRdp)).p50())
                .put("table_entry_stretch_p50", tables.entryStretchP50())
                .put("table_entry_stretch_p90", tables.entryStretchP90())
                .put("table_nearest_share", tables.nearestShare())
                .put("table_nearest_share_by_row", toArray(tables.nearestShareByRow()))
                .put("table_empty_share", tables.emptyShare())
                .put("locate_success_rate", global.successRate())
                .put("locate_mean_hops", mean(lHops))
                .put("locate_p50_rdp", SampleSummary.of(lRdp).p50())
                .put("local_locate_p50_rdp", SampleSummary.of(bloomRdp).p50())
                .put("local_locate_p50_rdp_no_bloom", SampleSummary.of(plainRdp).p50())
                .put("local_locate_success_rate", localBloom.successRate())
                .put("local_locate_success_rate_no_bloom", localPlain.successRate())
                .put("local_locate_mean_hops", mean(localBloom.hops()))
                .put("local_locate_mean_hops_no_bloom", mean(localPlain.hops()))
                .put("routes", (long) routes)
                .put("locates", (long) global.issued())
                .put("local_locates", (long) localBloom.issued())
                .put("locate_failures", global.failures())
                .put("virtual_seconds", sim.now() / 1e9)
                .put("simulated_events", sim.eventsRun())
                .put("messages", overlay.network().messagesSent());
        BloomTraffic.putInto(result, BloomTraffic.total(overlay));
        ResultJson targets = result.object("targets");
        targets.put("route_mean_hops_max", Math.log(n) / Math.log(16) + 0.5)
                .put("route_p50_rdp_max", 1.5)
                .put("local_locate_p50_rdp_max", 1.5);
        result.put("target_met", routed == routes && global.successRate() == 1.0
                && mean(rHops) <= Math.log(n) / Math.log(16) + 0.5
                && SampleSummary.of(rRdp).p50() <= 1.5 && SampleSummary.of(bloomRdp).p50() <= 1.5);
        result.write(context.output("result.json"));

        writeCsv(context, "route-hops.csv", "hops", rHops);
        writeCsv(context, "route-rdp.csv", "rdp", rRdp);
        writeCsv(context, "locate-rdp.csv", "rdp", lRdp);
        writeCsv(context, "local-locate-rdp-bloom.csv", "rdp", bloomRdp);
        writeCsv(context, "local-locate-rdp-no-bloom.csv", "rdp", plainRdp);
        Charts charts = new Charts();
        Map<String, double[]> cdfs = new LinkedHashMap<>();
        cdfs.put("route", clip(rRdp));
        cdfs.put("locate (anywhere)", clip(lRdp));
        cdfs.put("locate, same stub, Bloom filters", clip(bloomRdp));
        cdfs.put("locate, same stub, no Bloom filters", clip(plainRdp));
        charts.cdf(context.output("rdp-cdf.png"), "Relative delay penalty, " + n + " nodes (clipped at 10)", "RDP", cdfs);
        if (rHops.length > 0) {
            int maxHops = (int) Arrays.stream(rHops).max().orElse(0);
            charts.histogram(context.output("route-hops.png"), "Overlay hops per route, " + n + " nodes", "hops", "routes",
                    BinnedCounts.of(rHops, Math.max(1, maxHops + 1)));
        }
        System.out.printf("routing-scale: %d nodes, route success %.4f, mean hops %.2f (target <= %.2f), p50 RDP %.2f; "
                        + "locate success %.4f, local p50 RDP %.2f with Bloom, %.2f without%n",
                n, routed / (double) routes, mean(rHops), Math.log(n) / Math.log(16) + 0.5, SampleSummary.of(rRdp).p50(),
                global.successRate(), SampleSummary.of(bloomRdp).p50(), SampleSummary.of(plainRdp).p50());
    }

    private static int sameStubPeer(TransitStubTopology topology, SimulatedOverlay overlay, int vertex, SplittableRandom random) {
        int[] stub = topology.hostsInStub(topology.stubOf(vertex));
        for (int tries = 0; tries < 32; tries++) {
            int v = stub[random.nextInt(stub.length)];
            if (v != vertex && overlay.isAlive(v)) {
                return v;
            }
        }
        return -1;
    }

    private static Id randomId(SplittableRandom random) {
        byte[] b = new byte[Id.BYTES];
        random.nextBytes(b);
        return Id.fromBytes(b);
    }

    private static double[] toArray(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static double mean(double[] values) {
        return values.length == 0 ? Double.NaN : Arrays.stream(values).average().orElse(Double.NaN);
    }

    private static double[] clip(double[] values) {
        return Arrays.stream(values).map(v -> Math.min(v, 10)).toArray();
    }

    private static void writeCsv(ScenarioContext context, String file, String column, double[] values) throws Exception {
        try (CsvWriter csv = new CsvWriter(context.output(file), List.of(column))) {
            for (double v : values) {
                csv.row(v);
            }
        }
    }

    /**
     * The share of live nodes whose leaf set has the true successor and predecessor on the ring
     * when routing starts: a node without them can take itself for the root of a key that is not its.
     */
    private static double leafSetsExact(SimulatedOverlay overlay, List<Integer> live) {
        List<Id> ids = new ArrayList<>();
        for (int v : live) {
            ids.add(overlay.node(v).self().id());
        }
        ids.sort(null);
        int exact = 0;
        for (int v : live) {
            OverlayNode node = overlay.node(v);
            Id self = node.self().id();
            int at = Collections.binarySearch(ids, self);
            Id successor = ids.get((at + 1) % ids.size());
            Id predecessor = ids.get((at - 1 + ids.size()) % ids.size());
            List<NodeHandle> right = node.leafSet().right();
            List<NodeHandle> left = node.leafSet().left();
            if (!right.isEmpty() && right.get(0).id().equals(successor) && !left.isEmpty() && left.get(0).id().equals(predecessor)) {
                exact++;
            }
        }
        return live.isEmpty() ? 1.0 : exact / (double) live.size();
    }

    /**
     * Up to {@code max} nodes whose leaf set lacks a true ring neighbour, each with what the two
     * nodes think of each other: why a leaf set did not heal is the first question when one does not.
     */
    private static List<String> inexactLeafSets(SimulatedOverlay overlay, List<Integer> live, long now, int max) {
        List<Id> ids = new ArrayList<>();
        for (int v : live) {
            ids.add(overlay.node(v).self().id());
        }
        ids.sort(null);
        List<String> out = new ArrayList<>();
        for (int v : live) {
            OverlayNode node = overlay.node(v);
            Id self = node.self().id();
            int at = Collections.binarySearch(ids, self);
            Id[] neighbours = {ids.get((at + 1) % ids.size()), ids.get((at - 1 + ids.size()) % ids.size())};
            List<NodeHandle> right = node.leafSet().right();
            List<NodeHandle> left = node.leafSet().left();
            Id[] held = {right.isEmpty() ? null : right.get(0).id(), left.isEmpty() ? null : left.get(0).id()};
            for (int side = 0; side < 2 && out.size() < max; side++) {
                if (neighbours[side].equals(held[side])) {
                    continue;
                }
                int w = overlay.vertexOf(neighbours[side]);
                OverlayNode other = overlay.node(w);
                long heard = node.peers().lastHeard(neighbours[side]);
                out.add(v + " lacks its " + (side == 0 ? "successor " : "predecessor ") + w
                        + " (holds " + (held[side] == null ? "none" : overlay.vertexOf(held[side])) + ")"
                        + "; dead there: " + node.peers().isDead(neighbours[side], now)
                        + ", heard " + (heard == Long.MIN_VALUE ? "never" : (now - heard) / 1_000_000 + " ms ago")
                        + "; " + w + " holds " + v + ": " + other.leafSet().contains(self)
                        + ", dead there: " + other.peers().isDead(self, now));
            }
        }
        return out;
    }

    /** Leaf sets sent to senders that belonged in neither side of the receiver's, summed over the run. */
    private static long leafSetCorrections(SimulatedOverlay overlay, List<Integer> live) {
        long sum = 0;
        for (int v : live) {
            sum += overlay.node(v).leafSetCorrectionsSent();
        }
        return sum;
    }
}
