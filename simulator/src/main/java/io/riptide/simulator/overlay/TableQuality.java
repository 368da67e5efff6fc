package io.riptide.simulator.overlay;

import io.riptide.core.id.Id;
import io.riptide.dolr.routing.RoutingTable;
import io.riptide.dolr.simulation.SimulatedOverlay;
import io.riptide.simulator.report.SampleSummary;
import io.riptide.simulator.topology.TransitStubTopology;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * How near proximity neighbour selection came to the best table it could hold: for sampled nodes,
 * each filled slot's primary against the nearest live node that could fill that slot, by the
 * topology's latency. A stretched route comes either from such entries or from queues on the way;
 * this tells the two apart.
 *
 * @param entryStretchP50 median of primary latency / best possible latency over sampled slots
 * @param entryStretchP90 90th percentile of the same
 * @param nearestShare    share of sampled slots whose primary is within 10 % of the best possible
 * @param emptyShare      share of slots some live node could fill that are empty
 * @param slots           slots sampled
 * @param nearestShareByRow {@code nearestShare} for rows 0 to 3 alone: which rows the tables have yet to converge in
 */
public record TableQuality(double entryStretchP50, double entryStretchP90, double nearestShare, double emptyShare, int slots,
                           List<Double> nearestShareByRow) {
    /** Rows deep enough to matter: below them a slot has a handful of candidates at most. */
    private static final int ROWS = 4;

    /** Samples up to {@code sample} live nodes of {@code overlay}. */
    public static TableQuality measure(SimulatedOverlay overlay, TransitStubTopology topology, int sample, SplittableRandom random) {
        List<Integer> live = overlay.liveVertices();
        // Live nodes by their first r+1 digits, for each row r: the nodes that could fill a slot of row r.
        List<Map<String, List<Integer>>> byPrefix = new ArrayList<>();
        for (int r = 0; r < ROWS; r++) {
            Map<String, List<Integer>> map = new HashMap<>();
            for (int v : live) {
                map.computeIfAbsent(prefix(overlay.node(v).self().id(), r + 1), k -> new ArrayList<>()).add(v);
            }
            byPrefix.add(map);
        }
        List<Double> stretch = new ArrayList<>();
        int nearest = 0;
        int[] rowSlots = new int[ROWS];
        int[] rowNearest = new int[ROWS];
        int fillable = 0;
        int empty = 0;
        for (int i = 0; i < Math.min(sample, live.size()); i++) {
            int v = live.get(random.nextInt(live.size()));
            Id self = overlay.node(v).self().id();
            RoutingTable table = overlay.node(v).routingTable();
            for (int r = 0; r < ROWS; r++) {
                String own = prefix(self, r);
                for (int d = 0; d < 16; d++) {
                    if (d == self.digit(r)) {
                        continue;
                    }
                    List<Integer> could = byPrefix.get(r).get(own + Integer.toHexString(d));
                    if (could == null || could.isEmpty()) {
                        continue;
                    }
                    fillable++;
                    var primary = table.primary(r, d);
                    if (primary == null) {
                        empty++;
                        continue;
                    }
                    long best = Long.MAX_VALUE;
                    for (int u : could) {
                        best = Math.min(best, topology.latencyNanos(v, u));
                    }
                    int at = overlay.vertexOf(primary.id());
                    if (at < 0 || best <= 0) {
                        continue;
                    }
                    double s = topology.latencyNanos(v, at) / (double) best;
                    stretch.add(s);
                    rowSlots[r]++;
                    if (s <= 1.1) {
                        nearest++;
                        rowNearest[r]++;
                    }
                }
            }
        }
        double[] values = stretch.stream().mapToDouble(Double::doubleValue).toArray();
        SampleSummary summary = SampleSummary.of(values);
        List<Double> byRow = new ArrayList<>();
        for (int r = 0; r < ROWS; r++) {
            byRow.add(rowSlots[r] == 0 ? Double.NaN : rowNearest[r] / (double) rowSlots[r]);
        }
        return new TableQuality(summary.p50(), summary.p90(), values.length == 0 ? Double.NaN : nearest / (double) values.length,
                fillable == 0 ? 0 : empty / (double) fillable, values.length, List.copyOf(byRow));
    }

    private static String prefix(Id id, int digits) {
        StringBuilder b = new StringBuilder(digits);
        for (int i = 0; i < digits; i++) {
            b.append(Integer.toHexString(id.digit(i)));
        }
        return b.toString();
    }
}
