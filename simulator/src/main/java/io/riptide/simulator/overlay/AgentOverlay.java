package io.riptide.simulator.overlay;

import io.riptide.core.runtime.sim.Simulation;
import io.riptide.dolr.DolrCodec;
import io.riptide.simulator.agents.SimulatedProxies;
import io.riptide.simulator.stages.HostStages;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.OverlayApplication;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.simulation.SimulatedOverlay;
import io.riptide.simulator.report.Progress;
import io.riptide.simulator.topology.TransitStubTopology;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * An overlay like {@link OverlayBuild}'s, on a topology the scenario chose its agents' places in:
 * chosen vertices run an agent (a gateway, a cache manager), the rest are plain nodes. Nodes join
 * one after another in a seeded random order, then the routing state settles.
 */
public record AgentOverlay(TransitStubTopology topology, Simulation simulation, SimulatedOverlay overlay, int joined) {

    /**
     * Joins a node on every host of {@code topology} at {@code joinRate} per virtual second, the
     * vertices in {@code agents} running theirs, and runs {@code settle} of maintenance. With
     * {@code links}, messages between stubs also queue on the stubs' 1.5 Mb/s uplinks by their wire size.
     */
    public static AgentOverlay build(TransitStubTopology topology, long seed, DolrConfig config, double joinRate, Duration settle,
            Map<Integer, Function<OverlayNode, OverlayApplication>> agents, boolean links, Progress progress) {
        return build(topology, seed, config, joinRate, settle, agents, links, overlay -> { }, progress);
    }

    /**
     * As above, {@code prepare} seeing the overlay before any node joins (to keep the nodes' replicas
     * on disks that outlive them, say).
     */
    public static AgentOverlay build(TransitStubTopology topology, long seed, DolrConfig config, double joinRate, Duration settle,
            Map<Integer, Function<OverlayNode, OverlayApplication>> agents, boolean links,
            java.util.function.Consumer<SimulatedOverlay> prepare, Progress progress) {
        Simulation sim = new Simulation(seed);
        SimulatedOverlay overlay = new SimulatedOverlay(sim, topology, config, topology::stubOf);
        prepare.accept(overlay);
        if (links) {
            overlay.network().setLinks(topology, DolrCodec.create());
        }
        // Every host runs its stages as a deployment's would (the gateway's crypto, the proxy's), on its cores.
        HostStages.define(overlay.network(), SimulatedProxies.PAPER);
        int n = topology.hostCount();
        List<Integer> order = new ArrayList<>();
        for (int v = 0; v < n; v++) {
            order.add(v);
        }
        SplittableRandom shuffle = new SplittableRandom(seed ^ 0x5eed);
        for (int i = order.size() - 1; i > 0; i--) {
            int j = shuffle.nextInt(i + 1);
            int t = order.get(i);
            order.set(i, order.get(j));
            order.set(j, t);
        }
        progress.begin("joining " + n + " nodes", n);
        long spacing = (long) (1e9 / joinRate);
        for (int v : order) {
            Function<OverlayNode, OverlayApplication> agent = agents.get(v);
            if (agent == null) {
                overlay.add(v);
            } else {
                overlay.add(v, agent);
            }
            sim.runFor(spacing);
            progress.step();
        }
        long end = sim.now() + Duration.ofSeconds(120).toNanos();
        while (sim.now() < end && joinedCount(overlay, n) < n) {
            sim.runFor(Duration.ofMillis(500).toNanos());
        }
        progress.finish();
        long settleS = settle.toSeconds();
        progress.begin("settling (" + settleS + " virtual s)", settleS);
        for (long s = 0; s < settleS; s++) {
            sim.runFor(Duration.ofSeconds(1).toNanos());
            progress.step();
        }
        progress.finish();
        return new AgentOverlay(topology, sim, overlay, joinedCount(overlay, n));
    }

    private static int joinedCount(SimulatedOverlay overlay, int n) {
        int joined = 0;
        for (int v = 0; v < n; v++) {
            OverlayNode node = overlay.node(v);
            if (node != null && node.isJoined()) {
                joined++;
            }
        }
        return joined;
    }

    /** Peers declared failed so far, summed over every node (after a settled build, all false). */
    public long failuresDetected() {
        long total = 0;
        for (int v = 0; v < topology.hostCount(); v++) {
            OverlayNode node = overlay.node(v);
            total += node == null ? 0 : node.failuresDetected();
        }
        return total;
    }

    /** Bytes sent so far over each queued stub link, by link ID. */
    public long[] linkBytes() {
        long[] bytes = new long[topology.linkCount()];
        for (int l = 0; l < bytes.length; l++) {
            bytes[l] = overlay.network().linkBytes(l);
        }
        return bytes;
    }

    /** Runs the simulation for {@code d} of virtual time. */
    public void run(Duration d) {
        simulation.runFor(d.toNanos());
    }
}
