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
import io.riptide.simulator.scenario.ScenarioOptions;
import io.riptide.simulator.topology.TopologyParams;
import io.riptide.simulator.topology.TransitStubTopology;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.SplittableRandom;

/**
 * The common first act of the overlay experiments: a transit-stub topology, an overlay node on every
 * host joining one after another through a node of its own stub, and a period of maintenance for the
 * routing state to settle.
 */
public final class OverlayBuild {
    private final TransitStubTopology topology;
    private final Simulation sim;
    private final SimulatedOverlay overlay;
    private final ProbeRecorder probes;
    private final int joined;

    private OverlayBuild(TransitStubTopology topology, Simulation sim, SimulatedOverlay overlay, ProbeRecorder probes, int joined) {
        this.topology = topology;
        this.sim = sim;
        this.overlay = overlay;
        this.probes = probes;
        this.joined = joined;
    }

    /**
     * Builds it from the scenario options {@code nodes}, {@code hosts-per-stub}, {@code join-rate}
     * (joins per virtual second; default the larger of 50 and nodes/20), {@code settle-s} and
     * {@code links} (default true, as the paper's network: messages between stubs also queue on the
     * 1.5 Mb/s stub uplinks by their wire size, so a busy stub's link congests; false: latency only).
     */
    public static OverlayBuild build(ScenarioOptions options, long seed, DolrConfig config, Progress progress) {
        return build(options, seed, config, progress, 1000);
    }

    /** As {@link #build(ScenarioOptions, long, DolrConfig, Progress)}, with {@code defaultNodes} when {@code nodes} is absent. */
    public static OverlayBuild build(ScenarioOptions options, long seed, DolrConfig config, Progress progress, int defaultNodes) {
        return build(options, seed, config, progress, defaultNodes, topology -> Map.of());
    }

    /**
     * As above, the vertices in the map {@code agents} makes from the topology (before any node
     * joins) running those agents (a cache manager, a gateway) instead of the plain probe recorder.
     */
    public static OverlayBuild build(ScenarioOptions options, long seed, DolrConfig config, Progress progress, int defaultNodes,
                                     Function<TransitStubTopology, Map<Integer, Function<OverlayNode, OverlayApplication>>> agents) {
        int nodes = options.getInt("nodes", defaultNodes, 2, 200_000);
        int perStub = options.getInt("hosts-per-stub", TopologyParams.DEFAULT_HOSTS_PER_STUB, 1, 10_000);
        // Larger overlays join faster so the build's virtual time (and its cost) stays bounded.
        double joinRate = options.getDouble("join-rate", Math.max(50, nodes / 20.0), 0.1, 100_000);
        int settle = options.getInt("settle-s", 60, 0, 86_400);
        boolean links = options.getBoolean("links", true);

        TransitStubTopology topology = TransitStubTopology.generate(TopologyParams.forHosts(nodes).withHostsPerStub(perStub), seed);
        Simulation sim = new Simulation(seed);
        ProbeRecorder probes = new ProbeRecorder(sim::now);
        SimulatedOverlay overlay = new SimulatedOverlay(sim, topology, config, topology::stubOf, probes::applicationFor);
        if (links) {
            overlay.network().setLinks(topology, ProbeMessages.register(DolrCodec.create()));
        }
        // Every host runs its stages as a deployment's would (the gateway's crypto, the proxy's), on its cores.
        HostStages.define(overlay.network(), SimulatedProxies.PAPER);

        List<Integer> order = new ArrayList<>();
        for (int v = 0; v < nodes; v++) {
            order.add(v);
        }
        SplittableRandom shuffle = new SplittableRandom(seed ^ 0x5eed);
        for (int i = order.size() - 1; i > 0; i--) {
            int j = shuffle.nextInt(i + 1);
            int t = order.get(i);
            order.set(i, order.get(j));
            order.set(j, t);
        }
        Map<Integer, Function<OverlayNode, OverlayApplication>> chosen = agents.apply(topology);
        progress.begin("joining " + nodes + " nodes", nodes);
        Duration spacing = Duration.ofNanos((long) (1e9 / joinRate));
        int joined = overlay.addAll(order, chosen, spacing, Duration.ofSeconds(120), progress::step);
        progress.finish();

        progress.begin("settling (" + settle + " virtual s)", settle);
        for (int s = 0; s < settle; s++) {
            sim.runFor(Duration.ofSeconds(1).toNanos());
            progress.step();
        }
        progress.finish();
        return new OverlayBuild(topology, sim, overlay, probes, joined);
    }

    public TransitStubTopology topology() {
        return topology;
    }

    public Simulation simulation() {
        return sim;
    }

    public SimulatedOverlay overlay() {
        return overlay;
    }

    public ProbeRecorder probes() {
        return probes;
    }

    /** Nodes that finished joining. */
    public int joined() {
        return joined;
    }
}
