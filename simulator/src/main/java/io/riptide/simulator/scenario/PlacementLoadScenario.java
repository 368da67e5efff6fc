package io.riptide.simulator.scenario;

import io.riptide.core.id.Id;
import io.riptide.dolr.DolrConfig;
import io.riptide.simulator.overlay.OverlayBuild;
import io.riptide.simulator.placement.LoadPlan;
import io.riptide.simulator.placement.LoadSetup;
import io.riptide.simulator.placement.PlacementMode;
import io.riptide.simulator.placement.PlacementRun;
import io.riptide.simulator.placement.ServedCounts;
import io.riptide.simulator.report.Charts;
import io.riptide.simulator.report.CsvWriter;
import io.riptide.simulator.report.Progress;
import io.riptide.simulator.report.ResultJson;
import io.riptide.simulator.topology.TransitStubTopology;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The paper's Fig. 19: requests served per node over a window of steady reads of one object, when
 * cache managers place replicas on their own node ("local") versus {@code place(guid, k)} up the
 * object's routing tree ("climb").
 *
 * <p>The two runs are made comparable by changing nothing but where replicas go. Each run gets its
 * own overlay built afresh from the same seed (so the routing state is identical and the first run
 * leaves nothing behind in the second), the same primary, the same client stubs, managers and
 * clients, and the same read stream (same period, same per-client phases, same window). In both,
 * every replica is created before the window opens, each creation preceded by a read of the object as
 * a cache manager would make on a miss, and the overlay then gets time to publish the replicas and
 * refresh its Bloom filters, so the window measures steady state in both, not warm-up in one. Local:
 * the manager of each client stub stores one replica on its own node, the only thing the original
 * primitive allows. Climb: for each client, {@code place(guid, k)} from the client's node, with
 * {@code k = max(1, min(--climb, h - 1))} where {@code h} is the hop count of that client's first read
 * (a replica must sit below where the read found the object to help). Reads that reach the primary
 * are tallied too, in both runs.
 *
 * <p>One object (the default) does not stand in for the paper's many documents: every client's first
 * hop toward it goes to the nearest node sharing its first digit, and a stub of 100 has only about
 * 100/16 such nodes (3 in the seed-1 client stub), so climb-1 replicas land on those few and each
 * client reads the nearest of them. {@code --objects n} gives the clients n objects (client i reads
 * object i mod n); each object's tree climbs through different nodes, which is how climb spreads load
 * in the paper. Local placement then puts every object on the manager's node.
 *
 * <p>By default the clients are 95 nodes of one stub, as the paper's 95 agents, so local placement
 * is that stub's manager's single replica; {@code --client-stubs 5 --clients-per-stub 20} spreads
 * 100 clients over five stubs, each with its own manager and local replica.
 */
public final class PlacementLoadScenario implements Scenario {
    private static final double TARGET_RATIO = 0.25;

    @Override
    public String name() {
        return "placement-load";
    }

    @Override
    public String description() {
        return "requests served per node, local vs climb-k placement (--nodes, --client-stubs [1], --clients-per-stub, --rate, --climb, --objects [1])";
    }

    @Override
    public void run(ScenarioContext context) throws Exception {
        ScenarioOptions options = context.options();
        // The paper's Fig. 19 had its 95 agents in one stub, served by that stub's one cache manager;
        // --client-stubs 5 --clients-per-stub 20 spreads 100 clients over five stubs instead.
        int clientStubs = options.getInt("client-stubs", 1, 1, 1000);
        int clientsPerStub = options.getInt("clients-per-stub", clientStubs == 1 ? 95 : 20, 1, 10_000);
        double rate = options.getDouble("rate", 2.0, 0.01, 100);
        int windowS = options.getInt("window-s", 150, 1, 3600);
        int climb = options.getInt("climb", 1, 1, 16);
        int ttl = options.getInt("ttl", 32, 1, 255);
        int top = options.getInt("top", 30, 1, 1000);
        // The paper's agents read many documents (a SPECweb99 file set), each with its own routing
        // tree; one object's trees from one stub meet at the few stub nodes sharing its first digit
        // (see the class comment). 16 documents spread their trees over the 16 first digits.
        int objects = options.getInt("objects", 16, 1, 10_000);
        Progress progress = context.progress();
        DolrConfig config = DolrConfig.defaults();
        SplittableRandom random = context.random();

        Map<PlacementMode, PlacementRun.Outcome> outcomes = new EnumMap<>(PlacementMode.class);
        LoadSetup setup = null;
        LoadPlan plan = null;
        TransitStubTopology topology = null;
        List<Id> guids = new ArrayList<>();
        for (int i = 0; i < objects; i++) {
            // The first keeps its old name, so a one-object run is the same as before.
            guids.add(Id.hash(i == 0 ? "placement-load/object" : "placement-load/object/" + i));
        }
        byte[] data = new byte[16 * 1024];
        for (PlacementMode mode : PlacementMode.values()) {
            OverlayBuild build = OverlayBuild.build(options, context.seed(), config, progress, 1100);
            if (setup == null) {
                topology = build.topology();
                if (!LoadSetup.fits(topology, clientStubs, clientsPerStub)) {
                    throw new ScenarioOptionException("client-stubs", "the topology has " + topology.stubCount()
                            + " stubs; it needs " + (clientStubs + 1) + " with more than " + clientsPerStub + " hosts");
                }
                setup = LoadSetup.choose(topology, clientStubs, clientsPerStub, random);
                plan = plan(setup, rate, windowS, climb, ttl, random);
            }
            progress.begin(mode.key() + " placement: " + windowS + " virtual s of reads", 1);
            outcomes.put(mode, new PlacementRun(build, config, setup, plan).run(mode, guids, data));
            progress.step();
            progress.finish();
        }

        PlacementRun.Outcome local = outcomes.get(PlacementMode.LOCAL);
        PlacementRun.Outcome climbed = outcomes.get(PlacementMode.CLIMB);
        long maxLocal = local.counts().max();
        long maxClimb = climbed.counts().max();
        double ratio = maxLocal == 0 ? Double.NaN : maxClimb / (double) maxLocal;
        ResultJson result = new ResultJson()
                .put("scenario", name())
                .put("seed", context.seed())
                .put("nodes", (long) topology.hostCount())
                .put("stubs", (long) topology.stubCount())
                .put("client_stubs", (long) setup.stubs().size())
                .put("clients", (long) setup.clients().size())
                .put("clients_per_stub", (long) clientsPerStub)
                .put("reads_per_client_per_s", rate)
                .put("window_s", (double) windowS)
                .put("climb", (long) climb)
                .put("objects", (long) objects)
                .put("max_node_requests_local", maxLocal)
                .put("max_node_requests_climb", maxClimb)
                .put("busiest_ratio", ratio)
                .put("target_met", maxLocal > 0 && maxClimb * 4 <= maxLocal);
        for (PlacementRun.Outcome o : outcomes.values()) {
            String k = o.mode().key();
            result.put("reads_" + k, o.reads())
                    .put("unanswered_" + k, o.counts().unansweredCount())
                    .put("replicas_" + k, (long) o.replicas())
                    .put("serving_nodes_" + k, (long) o.counts().servingNodes())
                    .put("primary_requests_" + k, o.counts().of(setup.primary()))
                    .put("failed_placements_" + k, (long) o.failedPlacements());
        }
        result.put("mean_climb_used", climbed.meanClimb());
        for (PlacementRun.Outcome o : outcomes.values()) {
            String k = o.mode().key();
            result.put("virtual_seconds_" + k, o.virtualSeconds())
                    .put("simulated_events_" + k, o.events())
                    .put("messages_" + k, o.messages());
        }
        result.object("targets").put("busiest_ratio_max", TARGET_RATIO);
        result.write(context.output("result.json"));

        writeCsv(context, topology, outcomes);
        chart(context, outcomes, top);
        System.out.printf("placement-load: busiest node served %d reads with local placement, %d with climb-%d (ratio %.3f, target <= %.2f); "
                        + "%d vs %d replicas, %d vs %d serving nodes%n",
                maxLocal, maxClimb, climb, ratio, TARGET_RATIO, local.replicas(), climbed.replicas(),
                local.counts().servingNodes(), climbed.counts().servingNodes());
    }

    private static LoadPlan plan(LoadSetup setup, double rate, int windowS, int climb, int ttl, SplittableRandom random) {
        Duration period = Duration.ofNanos((long) (1e9 / rate));
        long[] phases = new long[setup.clients().size()];
        for (int i = 0; i < phases.length; i++) {
            // Spread over one period so the clients do not read in lockstep.
            phases[i] = random.nextLong(period.toNanos());
        }
        return new LoadPlan(climb, ttl, period, Duration.ofSeconds(windowS), phases);
    }

    private static void writeCsv(ScenarioContext context, TransitStubTopology topology,
            Map<PlacementMode, PlacementRun.Outcome> outcomes) throws Exception {
        try (CsvWriter csv = new CsvWriter(context.output("requests-per-node.csv"), List.of("placement", "rank", "vertex", "stub", "requests"))) {
            for (PlacementRun.Outcome o : outcomes.values()) {
                int rank = 1;
                for (ServedCounts.NodeCount c : o.counts().busiestFirst()) {
                    csv.row(o.mode().key(), (long) rank++, (long) c.vertex(), (long) topology.stubOf(c.vertex()), c.requests());
                }
            }
        }
    }

    private static void chart(ScenarioContext context, Map<PlacementMode, PlacementRun.Outcome> outcomes, int top) throws Exception {
        int bars = 0;
        for (PlacementRun.Outcome o : outcomes.values()) {
            bars = Math.max(bars, Math.min(top, o.counts().servingNodes()));
        }
        List<String> ranks = new ArrayList<>();
        for (int i = 1; i <= bars; i++) {
            ranks.add(Integer.toString(i));
        }
        Map<String, double[]> series = new LinkedHashMap<>();
        for (PlacementRun.Outcome o : outcomes.values()) {
            double[] values = new double[bars];
            List<ServedCounts.NodeCount> sorted = o.counts().busiestFirst();
            for (int i = 0; i < bars && i < sorted.size(); i++) {
                values[i] = sorted.get(i).requests();
            }
            series.put(o.mode().key() + " placement", values);
        }
        new Charts(1000, 600).bar(context.output("requests-per-node.png"),
                "Requests served per node (busiest " + bars + ", sorted)", "node rank", "requests served", ranks, series);
    }
}
