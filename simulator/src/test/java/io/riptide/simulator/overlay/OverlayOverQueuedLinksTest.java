package io.riptide.simulator.overlay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.runtime.sim.SimNetwork;
import io.riptide.dolr.DolrConfig;
import io.riptide.simulator.report.Progress;
import io.riptide.simulator.topology.TopologyParams;
import io.riptide.simulator.topology.TransitStubTopology;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The overlay's own upkeep over the paper's 1.5 Mb/s stub uplinks, with link queueing: a burst of
 * joins congests the uplinks, and the overlay must then settle (no false failures, queues drained)
 * instead of feeding its own congestion. Before maintenance gossip sent only changes and timeouts
 * allowed for queueing, this overlay never settled: about 250 false failures a second and a 10 s
 * queue on every uplink a minute after the joins.
 */
class OverlayOverQueuedLinksTest {
    private static final int NODES = 600; // six stubs of a hundred
    private static final double JOINS_PER_SECOND = 150;

    @Test
    void aBurstOfJoinsAcrossThinUplinksSettles() {
        TransitStubTopology topology = TransitStubTopology.generate(TopologyParams.forHosts(NODES), 1);
        AgentOverlay world = AgentOverlay.build(topology, 1, DolrConfig.defaults(), JOINS_PER_SECOND, Duration.ofSeconds(40),
                Map.of(), true, Progress.silent());
        assertEquals(NODES, world.joined());
        SimNetwork net = world.overlay().network();
        int links = topology.linkCount();
        long[] bytesBefore = world.linkBytes();
        long failuresBefore = world.failuresDetected();

        long worstBacklog = 0;
        int seconds = 20;
        for (int s = 0; s < seconds; s++) {
            world.run(Duration.ofSeconds(1));
            for (int l = 0; l < links; l++) {
                worstBacklog = Math.max(worstBacklog, net.linkBacklogNanos(l));
            }
        }

        assertEquals(0, world.failuresDetected() - failuresBefore, "no peer declared failed once settled: none failed");
        assertTrue(worstBacklog < Duration.ofMillis(500).toNanos(), "uplink queues drained: worst " + worstBacklog / 1e9 + " s");
        for (int l = 0; l < links; l++) {
            double utilisation = (net.linkBytes(l) - bytesBefore[l]) * 8.0 / (seconds * 1.5e6);
            assertTrue(utilisation < 0.25, "upkeep leaves the uplink for traffic: link " + l + " at " + utilisation);
        }
    }
}
