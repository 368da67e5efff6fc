package io.riptide.simulator.scenario;

import io.riptide.core.id.Id;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.location.LocateResult;
import io.riptide.dolr.simulation.SimulatedOverlay;
import io.riptide.simulator.overlay.OverlayBuild;
import io.riptide.simulator.overlay.RandomOrder;
import io.riptide.simulator.report.Charts;
import io.riptide.simulator.report.CsvWriter;
import io.riptide.simulator.report.Progress;
import io.riptide.simulator.report.ResultJson;
import io.riptide.simulator.report.SampleSummary;
import io.riptide.simulator.topology.TransitStubTopology;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The paper's Figure 15: how near is the cache manager a client finds through the DOLR, compared
 * with a statically configured proxy in its own stub and with the truly nearest manager. Clients in
 * one stub (the paper's small organisation) locate the cache-manager service, once by deterministic
 * routing alone (Tapestry) and once consulting the local area's Bloom filters first.
 */
public final class ServiceLocationScenario implements Scenario {
    /** The paper's overlay: 1100 nodes, about 100 per stub. */
    private static final int DEFAULT_NODES = 1100;
    /** A located manager counts as near when its RTT is within this factor of the nearest one's (the target). */
    private static final double NEAR_FACTOR = 1.25;
    private static final double TARGET_SHARE = 0.9;

    @Override
    public String name() {
        return "service-location";
    }

    @Override
    public String description() {
        return "RTT to the cache manager found through the DOLR vs a static proxy and the nearest (Fig. 15) "
                + "(--nodes, --clients, --managers)";
    }

    @Override
    public void run(ScenarioContext context) throws Exception {
        ScenarioOptions options = context.options();
        int clientsWanted = options.getInt("clients", 95, 1, 100_000);
        int managerCount = options.getInt("managers", 8, 1, 10_000);
        int publishWaitS = options.getInt("publish-wait-s", 30, 0, 3600);
        DolrConfig config = DolrConfig.defaults();
        int ttl = options.getInt("ttl", config.defaultTtl(), 1, 255);
        Progress progress = context.progress();

        OverlayBuild build = OverlayBuild.build(options, context.seed(), config, progress, DEFAULT_NODES);
        SimulatedOverlay overlay = build.overlay();
        TransitStubTopology topology = build.topology();
        SplittableRandom random = context.random();

        // The organisation's stub holds the clients, a static proxy and (as in the paper) one cache
        // manager; the other managers are spread over the rest of the wide area.
        OrganisationStub organisation = OrganisationStub.choose(topology, random, clientsWanted);
        int clientStub = organisation.stub();
        int staticProxy = organisation.proxy();
        List<Integer> managers = new ArrayList<>(List.of(organisation.manager()));
        List<Integer> clients = organisation.clients();
        List<Integer> elsewhere = new ArrayList<>();
        for (int v = 0; v < topology.hostCount(); v++) {
            if (topology.stubOf(v) != clientStub) {
                elsewhere.add(v);
            }
        }
        List<Integer> spread = RandomOrder.of(elsewhere.stream().mapToInt(Integer::intValue).toArray(), random);
        managers.addAll(spread.subList(0, Math.min(spread.size(), managerCount - 1)));

        Id service = Id.hash("riptide service-location " + context.seed());
        for (int m : managers) {
            overlay.node(m).offerService(service);
        }
        build.simulation().runFor(Duration.ofSeconds(publishWaitS).toNanos()); // pointers land, filters refresh

        // All clients at once, first by routing alone, then with the filters: a locate is a few
        // small messages, so concurrent ones do not disturb each other's paths.
        progress.begin("locating the service from " + clients.size() + " clients, twice each", 2);
        LocateResult[][] found = new LocateResult[2][clients.size()];
        for (int mode = 0; mode < 2; mode++) {
            for (int i = 0; i < clients.size(); i++) {
                int slot = i;
                int m = mode;
                overlay.node(clients.get(i)).locate(service, ttl, mode == 1, r -> found[m][slot] = r);
            }
            build.simulation().runFor(config.locateDeadline().plusSeconds(1).toNanos());
            progress.step();
        }
        progress.finish();

        int n = clients.size();
        double[] staticRtt = new double[n];
        double[] nearestRtt = new double[n];
        double[][] locatedRtt = new double[2][n];
        int[] near = new int[2];
        int[] unanswered = new int[2];
        try (CsvWriter csv = new CsvWriter(context.output("rtt-per-client.csv"),
                List.of("client_vertex", "static_proxy_rtt_ms", "nearest_manager_rtt_ms", "tapestry_rtt_ms", "bloom_rtt_ms"))) {
            for (int i = 0; i < n; i++) {
                int c = clients.get(i);
                staticRtt[i] = rttMs(topology, c, staticProxy);
                double best = Double.MAX_VALUE;
                for (int m : managers) {
                    best = Math.min(best, rttMs(topology, c, m));
                }
                nearestRtt[i] = best;
                for (int mode = 0; mode < 2; mode++) {
                    LocateResult r = found[mode][i];
                    if (r == null || !r.found()) {
                        unanswered[mode]++;
                        locatedRtt[mode][i] = Double.NaN;
                        continue;
                    }
                    locatedRtt[mode][i] = rttMs(topology, c, overlay.vertexOf(r.replica().id()));
                    if (locatedRtt[mode][i] <= NEAR_FACTOR * best + 1e-9) {
                        near[mode]++;
                    }
                }
                csv.row((long) c, staticRtt[i], nearestRtt[i], locatedRtt[0][i], locatedRtt[1][i]);
            }
        }
        double shareBloom = n == 0 ? 0 : (double) near[1] / n;
        double shareTapestry = n == 0 ? 0 : (double) near[0] / n;

        ResultJson result = new ResultJson()
                .put("scenario", name())
                .put("seed", context.seed())
                .put("nodes", (long) topology.hostCount())
                .put("joined", (long) build.joined())
                .put("clients", (long) n)
                .put("client_stub", (long) clientStub)
                .put("managers", (long) managers.size())
                .put("share_within_1_25x_nearest", shareBloom)
                .put("share_within_1_25x_nearest_tapestry", shareTapestry)
                .put("unanswered_tapestry", (long) unanswered[0])
                .put("unanswered_bloom", (long) unanswered[1]);
        SampleSummary.of(staticRtt).writeTo(result.object("static_proxy_rtt"), "_ms");
        SampleSummary.of(nearestRtt).writeTo(result.object("nearest_manager_rtt"), "_ms");
        SampleSummary.of(answered(locatedRtt[0])).writeTo(result.object("tapestry_rtt"), "_ms");
        SampleSummary.of(answered(locatedRtt[1])).writeTo(result.object("bloom_rtt"), "_ms");
        result.object("targets").put("share_within_1_25x_nearest_min", TARGET_SHARE);
        result.put("target_met", shareBloom >= TARGET_SHARE)
                .put("virtual_seconds", build.simulation().now() / 1e9)
                .put("messages", overlay.network().messagesSent());
        result.write(context.output("result.json"));

        Map<String, double[]> cdfs = new LinkedHashMap<>();
        cdfs.put("static proxy in the stub", staticRtt);
        cdfs.put("manager via Tapestry routing", answered(locatedRtt[0]));
        cdfs.put("manager via Bloom filters + routing", answered(locatedRtt[1]));
        cdfs.put("nearest manager (truth)", nearestRtt);
        new Charts(1000, 600).cdf(context.output("rtt-cdf.png"), "RTT from each client to the service it uses ("
                + n + " clients, " + managers.size() + " managers)", "RTT (ms)", cdfs);
        System.out.printf("service-location: %.3f of clients found a manager within %.2fx of the nearest (Tapestry alone %.3f), "
                + "target %s%n", shareBloom, NEAR_FACTOR, shareTapestry, shareBloom >= TARGET_SHARE ? "met" : "NOT met");
    }

    private static double rttMs(TransitStubTopology topology, int a, int b) {
        return 2 * topology.latencyNanos(a, b) / 1e6;
    }

    private static double[] answered(double[] values) {
        return java.util.Arrays.stream(values).filter(v -> !Double.isNaN(v)).toArray();
    }
}
