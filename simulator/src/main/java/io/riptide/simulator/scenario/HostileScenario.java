package io.riptide.simulator.scenario;

import io.riptide.dolr.location.SaltedRoots;
import io.riptide.dolr.secure.RedundantReadStats;
import io.riptide.simulator.hostile.HostileRun;
import io.riptide.simulator.hostile.HostileRun.Figures;
import io.riptide.simulator.hostile.HostileRun.ReadPath;
import io.riptide.simulator.hostile.HostileRun.Setup;
import io.riptide.simulator.hostile.HostileTally;
import io.riptide.simulator.report.Charts;
import io.riptide.simulator.report.CsvWriter;
import io.riptide.simulator.report.ResultJson;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Issue 18 item 5: a share of the nodes (a fifth by default, chosen by the seed) drop, misroute and
 * withhold locates, answer with forged bytes, drop replica lists and replace publishes by false
 * pointers to themselves ({@link io.riptide.simulator.hostile.HostilePeer}). Honest nodes read
 * provider-signed objects stored on honest nodes, each read a client's through its access node's
 * client path (what a browser proxy gets; with salted roots on, the node reads verified and judges
 * the bytes by the provider's signature) beside a plain read. Target: at least 99% of client reads
 * return the provider's bytes, and none returns other bytes.
 */
public final class HostileScenario implements Scenario {
    private static final double SUCCESS_MIN = 0.99;
    private static final long FORGED_MAX = 0;

    @Override
    public String name() {
        return "hostile";
    }

    @Override
    public String description() {
        return "honest reads while a share of nodes drop, misroute, withhold and publish false pointers (--nodes,"
                + " --hostile-fraction, --objects, --reads, --salted-roots)";
    }

    @Override
    public void run(ScenarioContext context) throws Exception {
        ScenarioOptions options = context.options();
        int nodes = options.getInt("nodes", 150, 10, 20_000);
        double fraction = options.getDouble("hostile-fraction", 0.2, 0.0, 0.9);
        int objects = options.getInt("objects", 20, 1, 100_000);
        int reads = options.getInt("reads", 300, 1, 1_000_000);
        int saltedRoots = options.getInt("salted-roots", 4, 0, SaltedRoots.MAX);
        int hostileNodes = (int) Math.round(nodes * fraction);

        Figures f = HostileRun.run(new Setup(context.seed(), nodes, hostileNodes, objects, reads, saltedRoots, ReadPath.CLIENT),
                context.progress());
        HostileTally tally = f.tally();
        RedundantReadStats stats = f.stats();
        boolean met = f.successRate() >= SUCCESS_MIN && f.forgedServed() <= FORGED_MAX;

        ResultJson result = new ResultJson()
                .put("scenario", name())
                .put("seed", context.seed())
                .put("nodes", (long) nodes)
                .put("joined", (long) f.joined())
                .put("hostile_fraction", fraction)
                .put("hostile_nodes", (long) hostileNodes)
                .put("hostile_vertices", f.hostile().stream().mapToLong(Integer::longValue).toArray())
                .put("objects", (long) objects)
                .put("reads", (long) reads)
                .put("salted_roots", (long) saltedRoots)
                .put("client_reads_succeeded", (long) f.succeeded())
                .put("client_read_success_rate", f.successRate())
                .put("forged_bytes_served", (long) f.forgedServed())
                .put("forged_answers_refused", stats.refused())
                .put("plain_reads_succeeded", (long) f.plainSucceeded())
                .put("plain_read_success_rate", f.plainSuccessRate())
                .put("plain_reads_forged", (long) f.plainForged())
                .put("reads_widened", stats.widened())
                .put("extra_routed_reads", stats.extraAttempts())
                .put("replica_lists", stats.listings())
                .put("listed_holders_read", stats.directReads())
                .put("hostile_dropped", tally.dropped())
                .put("hostile_misrouted", tally.misrouted())
                .put("hostile_withheld", tally.withheld())
                .put("hostile_forged_sent", tally.forgedSent())
                .put("hostile_publishes_dropped", tally.publishesDropped())
                .put("hostile_false_pointers", tally.falsePointers())
                .put("target_met", met)
                .put("virtual_seconds", f.virtualNanos() / 1e9)
                .put("simulated_events", f.events())
                .put("messages", f.messages())
                .put("messages_during_reads", f.readMessages());
        result.object("targets").put("client_read_success_rate_min", SUCCESS_MIN).put("forged_bytes_served_max", FORGED_MAX);
        result.write(context.output("result.json"));

        writeCsvAndChart(context, f);
        System.out.printf("hostile: seed %d, %d of %d nodes hostile, %d salted roots: client reads %.4f, forged served %d;"
                        + " plain reads %.4f, forged %d; target %s%n", context.seed(), hostileNodes, nodes, saltedRoots,
                f.successRate(), f.forgedServed(), f.plainSuccessRate(), f.plainForged(), met ? "met" : "missed");
    }

    /** One pair of bars, the run's seed: a multi-seed run ({@code --seeds}) has each seed's beside the others in its report. */
    private static void writeCsvAndChart(ScenarioContext context, Figures f) throws Exception {
        try (CsvWriter csv = new CsvWriter(context.output("read-success.csv"),
                List.of("seed", "client_read_success_rate", "plain_read_success_rate", "forged_bytes_served", "plain_reads_forged"))) {
            csv.row(context.seed(), f.successRate(), f.plainSuccessRate(), (long) f.forgedServed(), (long) f.plainForged());
        }
        Map<String, double[]> bars = new LinkedHashMap<>();
        bars.put("client reads through the access node", new double[] {f.successRate()});
        bars.put("plain reads", new double[] {f.plainSuccessRate()});
        Setup s = f.setup();
        new Charts().bar(context.output("read-success.png"), "Reads returning the provider's bytes (" + s.hostileNodes() + " of "
                        + s.nodes() + " nodes hostile, " + s.saltedRoots() + " salted roots)",
                "seed", "share of reads", List.of("seed " + context.seed()), bars);
    }
}
