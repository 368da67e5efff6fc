package io.riptide.simulator.scenario;

import io.riptide.simulator.report.BinnedCounts;
import io.riptide.simulator.report.Charts;
import io.riptide.simulator.report.CsvWriter;
import io.riptide.simulator.report.Progress;
import io.riptide.simulator.report.ResultJson;
import io.riptide.simulator.report.SampleSummary;
import io.riptide.simulator.topology.TopologyParams;
import io.riptide.simulator.topology.TransitStubTopology;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Builds a transit-stub topology and reports its shape and sampled pairwise latencies: the smallest
 * end-to-end run of the scenario pipeline (options, progress, result.json, CSV, charts).
 */
public final class TopologyScenario implements Scenario {
    private static final int BINS = 40;
    private static final double NANOS_PER_MS = 1e6;

    @Override
    public String name() {
        return "topology";
    }

    @Override
    public String description() {
        return "build a transit-stub topology (--nodes, --hosts-per-stub) and report its latency distribution";
    }

    @Override
    public void run(ScenarioContext context) throws Exception {
        ScenarioOptions options = context.options();
        int nodes = options.getInt("nodes", 1100, 2, 10_000_000);
        int perStub = options.getInt("hosts-per-stub", TopologyParams.DEFAULT_HOSTS_PER_STUB, 1, 10_000);
        int samples = options.getInt("samples", 100_000, 1, 100_000_000);
        Progress progress = context.progress();

        progress.begin("building topology", 1);
        TopologyParams params = TopologyParams.forHosts(nodes).withHostsPerStub(perStub);
        TransitStubTopology topology = TransitStubTopology.generate(params, context.seed());
        progress.step();
        progress.finish();

        SplittableRandom random = context.random();
        double[] intra = new double[samples];
        double[] inter = new double[samples];
        double[] any = new double[samples];
        int intraCount = 0;
        int interCount = 0;
        progress.begin("sampling latencies", samples);
        for (int i = 0; i < samples; i++) {
            int a = random.nextInt(nodes);
            int b = otherHost(random, nodes, a);
            any[i] = topology.latencyNanos(a, b) / NANOS_PER_MS;
            int stub = topology.stubOf(a);
            if (topology.stubSize(stub) > 1) {
                int first = topology.firstHost(stub);
                int local = otherHost(random, topology.stubSize(stub), a - first);
                intra[intraCount++] = topology.latencyNanos(a, first + local) / NANOS_PER_MS;
            }
            if (topology.stubCount() > 1) {
                int c = random.nextInt(nodes);
                while (topology.sameStub(a, c)) {
                    c = random.nextInt(nodes);
                }
                inter[interCount++] = topology.latencyNanos(a, c) / NANOS_PER_MS;
            }
            progress.step();
        }
        progress.finish();
        intra = Arrays.copyOf(intra, intraCount);
        inter = Arrays.copyOf(inter, interCount);

        ResultJson result = new ResultJson().put("scenario", name()).put("seed", context.seed());
        result.object("topology")
                .put("hosts", (long) topology.hostCount())
                .put("hostsPerStub", (long) perStub)
                .put("stubs", (long) topology.stubCount())
                .put("transitRouters", (long) topology.transitRouterCount())
                .put("transitDomains", (long) params.transitDomainCount());
        SampleSummary.of(intra).writeTo(result.object("intraStubLatency"), "Ms");
        SampleSummary.of(inter).writeTo(result.object("interStubLatency"), "Ms");
        SampleSummary.of(any).writeTo(result.object("randomPairLatency"), "Ms");
        result.write(context.output("result.json"));

        BinnedCounts bins = BinnedCounts.of(any, BINS);
        try (CsvWriter csv = new CsvWriter(context.output("latency-histogram.csv"), List.of("binLowerMs", "binUpperMs", "pairs"))) {
            for (int i = 0; i < BINS; i++) {
                csv.row(bins.lowerEdge(i), bins.lowerEdge(i + 1), bins.counts()[i]);
            }
        }
        Charts charts = new Charts();
        charts.histogram(context.output("latency-histogram.png"),
                "One-way latency between random host pairs (" + nodes + " hosts)", "latency (ms)", "host pairs", bins);
        Map<String, double[]> cdfs = new LinkedHashMap<>();
        // A one-stub topology has no inter-stub pairs, a one-host-per-stub one no intra-stub pairs.
        if (intra.length > 0) {
            cdfs.put("same stub", intra);
        }
        if (inter.length > 0) {
            cdfs.put("different stubs", inter);
        }
        charts.cdf(context.output("latency-cdf.png"), "One-way latency CDF (" + nodes + " hosts)", "latency (ms)", cdfs);
    }

    /** A value in {@code [0, bound)} other than {@code not}; {@code bound} must exceed 1. */
    private static int otherHost(SplittableRandom random, int bound, int not) {
        int x = random.nextInt(bound - 1);
        return x >= not ? x + 1 : x;
    }
}
