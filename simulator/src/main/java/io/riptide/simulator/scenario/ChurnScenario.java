package io.riptide.simulator.scenario;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.runtime.sim.Simulation;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.simulation.SimulatedOverlay;
import io.riptide.simulator.overlay.LocateProbes;
import io.riptide.simulator.overlay.OverlayBuild;
import io.riptide.simulator.report.Charts;
import io.riptide.simulator.report.CsvWriter;
import io.riptide.simulator.report.Progress;
import io.riptide.simulator.report.ResultJson;
import io.riptide.simulator.report.Series;
import io.riptide.simulator.topology.TransitStubTopology;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * A share of the nodes fails at once. Measured: lookups for objects whose replicas survive, issued
 * from the moment of the failure on, and the virtual time until routing is consistent again (every
 * live node's leaf set exactly right and no failed node left in any routing table).
 */
public final class ChurnScenario implements Scenario {
    private static final Duration LOOKUP_SPACING = Duration.ofMillis(10);

    @Override
    public String name() {
        return "churn";
    }

    @Override
    public String description() {
        return "lookups and repair while a share of nodes fails at once (--nodes, --fail-fraction, --objects, --lookups)";
    }

    @Override
    public void run(ScenarioContext context) throws Exception {
        ScenarioOptions options = context.options();
        double failFraction = options.getFraction("fail-fraction", 0.2);
        int objects = options.getInt("objects", 500, 1, 1_000_000);
        int lookups = options.getInt("lookups", 3000, 1, 1_000_000);
        int observe = options.getInt("observe-s", 60, 1, 3600);
        int ttl = options.getInt("ttl", 32, 1, 255);
        Progress progress = context.progress();
        DolrConfig config = DolrConfig.defaults();

        OverlayBuild build = OverlayBuild.build(options, context.seed(), config, progress);
        SimulatedOverlay overlay = build.overlay();
        Simulation sim = build.simulation();
        TransitStubTopology topology = build.topology();
        SplittableRandom random = context.random();
        List<Integer> live = overlay.liveVertices();
        int n = live.size();

        Id[] guids = new Id[objects];
        int[] holder = new int[objects];
        for (int i = 0; i < objects; i++) {
            guids[i] = Id.hash("churn/object/" + i);
            holder[i] = live.get(random.nextInt(n));
            overlay.node(holder[i]).storeReplica(guids[i], new byte[] {(byte) i});
        }
        sim.runFor(config.bloomRefresh().multipliedBy(2).toNanos());

        // The failure: a random share of the nodes, all at the same instant.
        List<Integer> shuffled = new ArrayList<>(live);
        for (int i = shuffled.size() - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = shuffled.get(i);
            shuffled.set(i, shuffled.get(j));
            shuffled.set(j, t);
        }
        int failCount = (int) Math.round(failFraction * n);
        Set<Integer> failed = new HashSet<>(shuffled.subList(0, failCount));
        long t0 = sim.now();
        long overflowedBefore = overlay.network().messagesOverflowed();
        for (int v : failed) {
            overlay.kill(v);
        }
        List<Integer> survivors = overlay.liveVertices();
        List<Integer> surviving = new ArrayList<>();
        for (int i = 0; i < objects; i++) {
            if (!failed.contains(holder[i])) {
                surviving.add(i);
            }
        }

        // Lookups from the moment of failure on, one every LOOKUP_SPACING; consistency checked each second.
        LocateProbes during = new LocateProbes(overlay, topology);
        List<double[]> inconsistency = new ArrayList<>();
        double repairTime = -1;
        double leafRepairTime = -1;
        long step = Duration.ofSeconds(1).toNanos();
        int perSecond = (int) (step / LOOKUP_SPACING.toNanos());
        int issued = 0;
        progress.begin("failing " + failCount + " of " + n + " nodes, observing " + observe + " virtual s", observe);
        for (int s = 0; s < observe; s++) {
            for (int k = 0; k < perSecond; k++) {
                if (issued < lookups && !surviving.isEmpty()) {
                    int o = surviving.get(random.nextInt(surviving.size()));
                    during.issue(survivors.get(random.nextInt(survivors.size())), guids[o], ttl, true);
                    issued++;
                }
                sim.runFor(LOOKUP_SPACING.toNanos());
            }
            int[] bad = inconsistentNodes(overlay, survivors, failed, config.leafSetHalf());
            double t = (sim.now() - t0) / 1e9;
            inconsistency.add(new double[] {t, bad[0], bad[1]});
            if (leafRepairTime < 0 && bad[0] == 0) {
                leafRepairTime = t;
            }
            if (repairTime < 0 && bad[0] == 0 && bad[1] == 0) {
                repairTime = t;
            }
            progress.step();
        }
        sim.runFor(config.locateDeadline().toNanos());
        progress.finish();

        // After repair: the same lookups again.
        LocateProbes after = new LocateProbes(overlay, topology);
        for (int i = 0; i < Math.min(lookups, 2000) && !surviving.isEmpty(); i++) {
            int o = surviving.get(random.nextInt(surviving.size()));
            after.issue(survivors.get(random.nextInt(survivors.size())), guids[o], ttl, true);
            sim.runFor(LOOKUP_SPACING.toNanos());
        }
        sim.runFor(config.locateDeadline().toNanos());

        // Locates hedged with a second route because the first was late, over the whole run.
        long hedged = 0;
        long hedgeWins = 0;
        for (int v : survivors) {
            hedged += overlay.node(v).locateStats().hedged();
            hedgeWins += overlay.node(v).locateStats().hedgeWins();
        }

        ResultJson result = new ResultJson()
                .put("scenario", name())
                .put("seed", context.seed())
                .put("nodes", (long) n)
                .put("fail_fraction", failFraction)
                .put("failed_nodes", (long) failCount)
                .put("objects", (long) objects)
                .put("objects_with_surviving_replica", (long) surviving.size())
                .put("lookups_after_failure", (long) during.issued())
                .put("lookup_success_after_failure", during.successRate())
                .put("lookup_failures_after_failure", during.failures())
                .put("lookup_failures_per_second", during.failuresByIssue(perSecond))
                .put("repair_time_s", repairTime)
                .put("leafset_repair_time_s", leafRepairTime)
                .put("lookup_success_after_repair", after.successRate())
                .put("locates_hedged", hedged)
                .put("locate_hedge_wins", hedgeWins)
                .put("observed_s", (double) observe)
                .put("virtual_seconds", sim.now() / 1e9)
                .put("simulated_events", sim.eventsRun())
                .put("messages", overlay.network().messagesSent())
                // Dropped at a full uplink queue (links on): the whole run, and from the failure on.
                .put("messages_overflowed", overlay.network().messagesOverflowed())
                .put("messages_overflowed_after_failure", overlay.network().messagesOverflowed() - overflowedBefore);
        result.object("targets").put("lookup_success_after_failure_min", 0.99).put("repair_time_s_max", 30.0);
        result.put("target_met", during.successRate() >= 0.99 && repairTime >= 0 && repairTime <= 30);
        result.write(context.output("result.json"));

        double[] t = inconsistency.stream().mapToDouble(r -> r[0]).toArray();
        double[] leaf = inconsistency.stream().mapToDouble(r -> r[1]).toArray();
        double[] table = inconsistency.stream().mapToDouble(r -> r[2]).toArray();
        try (CsvWriter csv = new CsvWriter(context.output("repair.csv"),
                List.of("seconds_after_failure", "nodes_with_wrong_leaf_set", "nodes_with_failed_table_entries"))) {
            for (double[] row : inconsistency) {
                csv.row(row[0], (long) row[1], (long) row[2]);
            }
        }
        new Charts().line(context.output("repair.png"),
                "Repair after " + failCount + " of " + n + " nodes fail at t=0", "virtual seconds after the failure", "live nodes",
                List.of(new Series("wrong leaf set", t, leaf), new Series("failed node in routing table", t, table)));
        System.out.printf("churn: %d of %d nodes failed; lookup success %.4f during repair, %.4f after; repaired in %.0f s%n",
                failCount, n, during.successRate(), after.successRate(), repairTime);
    }

    /** Counts live nodes whose leaf set is wrong, and live nodes whose routing table still names a failed node. */
    private static int[] inconsistentNodes(SimulatedOverlay overlay, List<Integer> survivors, Set<Integer> failed, int half) {
        int wrongLeaf = 0;
        int staleTable = 0;
        for (int v : survivors) {
            OverlayNode node = overlay.node(v);
            List<Id> truth = overlay.trueLeafSet(node.self().id(), half);
            List<NodeHandle> members = node.leafSet().members();
            if (members.size() != truth.size() || !truth.stream().allMatch(id -> node.leafSet().contains(id))) {
                wrongLeaf++;
            }
            for (NodeHandle h : node.routingTable().all()) {
                if (failed.contains(h.address().port())) {
                    staleTable++;
                    break;
                }
            }
        }
        return new int[] {wrongLeaf, staleTable};
    }
}
