package io.riptide.simulator.scenario;

import io.riptide.core.crypto.PublicKey;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.id.Id;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.runtime.sim.Simulation;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.simulation.SimulatedOverlay;
import io.riptide.simulator.discovery.DiscoveryAnalysis;
import io.riptide.simulator.discovery.DiscoveryLayout;
import io.riptide.simulator.discovery.HintTraffic;
import io.riptide.simulator.discovery.IntervalCounts;
import io.riptide.simulator.discovery.ManagerStarts;
import io.riptide.simulator.overlay.BloomTraffic;
import io.riptide.simulator.overlay.OverlayBuild;
import io.riptide.simulator.report.Charts;
import io.riptide.simulator.report.CsvWriter;
import io.riptide.simulator.report.Progress;
import io.riptide.simulator.report.ResultJson;
import io.riptide.simulator.report.Series;
import io.riptide.simulator.topology.TransitStubTopology;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The paper's Figure 17: clients send hints to the cache-manager service while managers come on
 * line one after another (nobody is told of them); measured are the hints each manager receives
 * per interval, and how soon after a manager starts the clients for which it is nearest use it.
 */
public final class ServiceDiscoveryScenario implements Scenario {
    /** The paper's overlay: 1100 nodes, about 100 per stub. */
    private static final int DEFAULT_NODES = 1100;
    /** Share of the nearest clients' hints a new manager must receive (the target). */
    private static final double SHIFT_THRESHOLD = 0.9;

    @Override
    public String name() {
        return "service-discovery";
    }

    @Override
    public String description() {
        return "hints per cache manager per interval as managers join (Fig. 17) (--nodes, --clients, --duration-s, --manager-interval-s)";
    }

    @Override
    public void run(ScenarioContext context) throws Exception {
        ScenarioOptions options = context.options();
        int clientsWanted = options.getInt("clients", 96, 1, 100_000);
        int clientStubs = options.getInt("client-stubs", 2, 1, 100);
        long period = seconds(options.getDouble("hint-period-s", 5, 0.01, 3600));
        long interval = seconds(options.getDouble("interval-s", 10, 0.1, 3600));
        long managerGap = seconds(options.getDouble("manager-interval-s", 300, 0, 86_400));
        long duration = seconds(options.getDouble("duration-s", 900, 1, 86_400));
        DolrConfig config = DolrConfig.defaults();
        int ttl = options.getInt("ttl", config.defaultTtl(), 1, 255);
        Progress progress = context.progress();

        OverlayBuild build = OverlayBuild.build(options, context.seed(), config, progress, DEFAULT_NODES);
        SimulatedOverlay overlay = build.overlay();
        Simulation sim = build.simulation();
        TransitStubTopology topology = build.topology();
        SplittableRandom random = context.random();
        DiscoveryLayout layout = DiscoveryLayout.choose(topology, clientsWanted, clientStubs, random);
        long[] starts = new long[layout.managers().length];
        for (int i = 0; i < starts.length; i++) {
            starts[i] = i * managerGap;
        }
        ManagerStarts managers = new ManagerStarts(layout.managers(), starts);
        Id service = ObjectNames.cacheManagerGuid(providerKey(random));

        // The traffic: hints from now on; each manager offers the service at its start, and nothing
        // else anywhere changes (the paper's point: no configuration change).
        HintTraffic traffic = new HintTraffic(overlay, service, managers, period, duration, ttl);
        traffic.start(layout.clients(), random);
        for (int i = 0; i < managers.count(); i++) {
            int vertex = managers.vertices()[i];
            sim.at(starts[i], () -> overlay.node(vertex).offerService(service));
        }
        long t0 = sim.now();
        long step = seconds(1);
        progress.begin("hints from " + layout.clients().length + " clients, " + managers.count() + " managers", duration / step);
        while (sim.now() - t0 < duration) {
            sim.runFor(Math.min(step, duration - (sim.now() - t0)));
            progress.step();
        }
        sim.runFor(config.locateDeadline().toNanos()); // the last hints' answers
        progress.finish();

        DiscoveryAnalysis analysis = new DiscoveryAnalysis(traffic.hints(), managers, topology);
        IntervalCounts counts = analysis.perInterval(interval, duration);
        ResultJson result = new ResultJson()
                .put("scenario", name())
                .put("seed", context.seed())
                .put("nodes", (long) overlay.size())
                .put("joined", (long) build.joined())
                .put("clients", (long) layout.clients().length)
                .put("client_stubs", (long) clientStubs)
                .put("managers", (long) managers.count())
                .put("manager_vertices", longs(managers.vertices()))
                .put("manager_starts_s", seconds(starts))
                .put("hint_period_s", period / 1e9)
                .put("interval_s", interval / 1e9)
                .put("intervals", (long) counts.intervals())
                .put("duration_s", duration / 1e9)
                .put("hints", (long) traffic.hints().size())
                .put("hints_unanswered", sum(counts.unanswered()));
        double worst = 0;
        List<Double> shareAfter = new ArrayList<>();
        for (int m = 0; m < managers.count(); m++) {
            String label = "manager" + (m + 1);
            result.put("hints_per_interval_" + label, counts.byManager()[m]);
            long from = starts[m] + interval; // after its first interval: the settled share
            double share = analysis.shareToNearest(m, from, managers.nextStartOrEnd(m, duration));
            shareAfter.add(share);
            result.put("share_to_nearest_after_" + label, share);
            if (m > 0) {
                long shift = analysis.shiftNanos(m, interval, duration, SHIFT_THRESHOLD);
                double shiftS = shift < 0 ? Double.NaN : shift / 1e9;
                result.put("shift_interval_s_" + label, shiftS);
                worst = Double.isNaN(worst) || Double.isNaN(shiftS) ? Double.NaN : Math.max(worst, shiftS);
            }
        }
        boolean met = managers.count() > 1 && !Double.isNaN(worst) && worst <= interval / 1e9;
        result.put("shift_interval_s", managers.count() > 1 ? worst : Double.NaN)
                .put("share_to_nearest_after", shareAfter.stream().mapToDouble(Double::doubleValue).toArray())
                .put("target_met", met)
                .put("virtual_seconds", sim.now() / 1e9)
                .put("simulated_events", sim.eventsRun())
                .put("messages", overlay.network().messagesSent());
        BloomTraffic.putInto(result, BloomTraffic.total(overlay));
        result.object("targets").put("shift_interval_s_max", interval / 1e9).put("share_to_nearest_min", SHIFT_THRESHOLD);
        result.write(context.output("result.json"));

        writeCsv(context.output("hints-per-interval.csv"), counts);
        writeChart(context.output("hints-per-interval.png"), counts);
        System.out.printf("service-discovery: %d clients, %d managers; worst shift %s s; shares to nearest after each start %s%n",
                layout.clients().length, managers.count(), Double.isNaN(worst) ? "never" : String.valueOf(worst), shareAfter);
    }

    /** The provider whose cache-manager service the hints go to; drawn from the seed so runs repeat. */
    private static PublicKey providerKey(SplittableRandom random) {
        byte[] seed = new byte[32];
        random.nextBytes(seed);
        return SigningKey.fromSeed(seed).publicKey();
    }

    private static void writeCsv(Path file, IntervalCounts counts) throws IOException {
        List<String> header = new ArrayList<>(List.of("interval", "end_s"));
        for (int m = 0; m < counts.byManager().length; m++) {
            header.add("manager" + (m + 1));
        }
        header.addAll(List.of("unanswered", "share_to_nearest"));
        try (CsvWriter csv = new CsvWriter(file, header)) {
            for (int k = 0; k < counts.intervals(); k++) {
                List<Object> row = new ArrayList<>(List.of((long) k, counts.endSeconds(k)));
                for (long[] perManager : counts.byManager()) {
                    row.add(perManager[k]);
                }
                row.add(counts.unanswered()[k]);
                row.add(counts.toNearest()[k]);
                csv.row(row.toArray());
            }
        }
    }

    private static void writeChart(Path png, IntervalCounts counts) throws IOException {
        double[] x = new double[counts.intervals()];
        for (int k = 0; k < x.length; k++) {
            x[k] = k;
        }
        List<Series> series = new ArrayList<>();
        for (int m = 0; m < counts.byManager().length; m++) {
            series.add(new Series("cache manager " + (m + 1), x, doubles(counts.byManager()[m])));
        }
        series.add(new Series("no manager reached", x, doubles(counts.unanswered())));
        new Charts().line(png, "Hints received per cache manager (interval " + counts.intervalNanos() / 1e9 + " s)",
                "time interval", "hints received", series);
    }

    private static long seconds(double s) {
        return Math.round(s * 1e9);
    }

    private static double[] seconds(long[] nanos) {
        double[] out = new double[nanos.length];
        for (int i = 0; i < nanos.length; i++) {
            out[i] = nanos[i] / 1e9;
        }
        return out;
    }

    private static long[] longs(int[] values) {
        long[] out = new long[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = values[i];
        }
        return out;
    }

    private static double[] doubles(long[] values) {
        double[] out = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = values[i];
        }
        return out;
    }

    private static long sum(long[] values) {
        long total = 0;
        for (long v : values) {
            total += v;
        }
        return total;
    }
}
