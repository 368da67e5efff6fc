package io.riptide.dolr.simulation;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.sim.Simulation;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.OverlayApplication;
import io.riptide.dolr.location.LocateResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/** Builds settled simulated overlays for protocol tests. */
public final class OverlayFixture {
    private OverlayFixture() {
    }

    /** {@code nodes} nodes in {@code groups} groups, joined and settled, with every message round-tripped through the codec. */
    public static SimulatedOverlay settled(long seed, int nodes, int groups, DolrConfig config, IntFunction<OverlayApplication> apps) {
        Simulation sim = new Simulation(seed);
        GroupLatency latency = new GroupLatency(groups);
        SimulatedOverlay overlay = new SimulatedOverlay(sim, latency, config, latency::groupOf, apps);
        overlay.checkWireFormat();
        List<Integer> vertices = new ArrayList<>();
        for (int v = 0; v < nodes; v++) {
            vertices.add(v);
        }
        overlay.addAll(vertices, Duration.ofMillis(50), Duration.ofSeconds(60), () -> { });
        sim.runFor(Duration.ofSeconds(30).toNanos());
        return overlay;
    }

    public static SimulatedOverlay settled(long seed, int nodes, int groups) {
        return settled(seed, nodes, groups, DolrConfig.defaults(), v -> OverlayApplication.NONE);
    }

    /** Locates {@code guid} from {@code vertex} and runs the simulation until the answer is in. */
    public static LocateResult locate(SimulatedOverlay overlay, int vertex, Id guid, int ttl, boolean bloom) {
        LocateResult[] out = new LocateResult[1];
        overlay.node(vertex).locate(guid, ttl, bloom, r -> out[0] = r);
        overlay.simulation().runFor(overlay.node(vertex).config().locateDeadline().plusSeconds(1).toNanos());
        return out[0];
    }

    public static void run(SimulatedOverlay overlay, Duration d) {
        overlay.simulation().runFor(d.toNanos());
    }
}
