package io.riptide.simulator.overlay;

import io.riptide.dolr.DolrConfig;
import io.riptide.simulator.report.Progress;
import io.riptide.simulator.topology.TopologyParams;
import io.riptide.simulator.topology.TransitStubTopology;
import java.time.Duration;
import java.util.Map;

/**
 * A diagnostic, not a test: a bare overlay (no agents) with link queueing, printing per 10-s window
 * the stub uplinks' mean and worst use, the worst backlog, false failures and buffer overflows. Run
 * from the simulator's test class path with arguments NODES JOINS_PER_S WINDOWS (e.g. 1100 55 6);
 * {@link OverlayOverQueuedLinksTest} is the kept check. Figures in docs/results.md, "Network model".
 */
public final class LinkLoadProbe {
    private LinkLoadProbe() {
    }

    public static void main(String[] args) {
        int nodes = Integer.parseInt(args[0]);
        double joinRate = Double.parseDouble(args[1]);
        int windows = Integer.parseInt(args[2]);
        TransitStubTopology topology = TransitStubTopology.generate(TopologyParams.forHosts(nodes), 1);
        AgentOverlay world = AgentOverlay.build(topology, 1, DolrConfig.defaults(), joinRate, Duration.ZERO, Map.of(), true,
                Progress.silent());
        var net = world.overlay().network();
        int links = topology.linkCount();
        long[] last = world.linkBytes();
        long lastFail = world.failuresDetected();
        long lastOver = net.messagesOverflowed();
        System.out.printf("joined %d at t=%.1fs; failures %d, overflowed %d%n", world.joined(), world.simulation().now() / 1e9,
                lastFail, lastOver);
        for (int w = 0; w < windows; w++) {
            long maxBacklog = 0;
            for (int s = 0; s < 10; s++) {
                world.run(Duration.ofSeconds(1));
                for (int l = 0; l < links; l++) {
                    maxBacklog = Math.max(maxBacklog, net.linkBacklogNanos(l));
                }
            }
            double maxUse = 0;
            double sumUse = 0;
            for (int l = 0; l < links; l++) {
                double use = (net.linkBytes(l) - last[l]) * 8 / (10 * 1.5e6);
                maxUse = Math.max(maxUse, use);
                sumUse += use;
                last[l] = net.linkBytes(l);
            }
            long f = world.failuresDetected();
            System.out.printf("t=%5.0fs uplinks mean %.0f%% max %.0f%%, max backlog %.2fs, failures +%d, overflowed +%d%n",
                    world.simulation().now() / 1e9, 100 * sumUse / links, 100 * maxUse, maxBacklog / 1e9, f - lastFail,
                    net.messagesOverflowed() - lastOver);
            lastFail = f;
            lastOver = net.messagesOverflowed();
        }
    }
}
