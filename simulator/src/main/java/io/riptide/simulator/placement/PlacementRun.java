package io.riptide.simulator.placement;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.sim.Simulation;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.simulation.SimulatedOverlay;
import io.riptide.simulator.overlay.OverlayBuild;
import io.riptide.simulator.workload.DistinctBodies;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One run of the placement-load experiment on a freshly built overlay: the primary copy is stored,
 * the cache managers create replicas in the given mode, the overlay is given time to publish them
 * and advertise them in Bloom filters, and then the clients' steady reads are tallied.
 */
public final class PlacementRun {
    /** Between successive replica creations, so each can see the replicas made before it (as a manager reacting to hints would). */
    private static final Duration CREATE_SPACING = Duration.ofMillis(200);

    /** What a run measured. */
    public record Outcome(PlacementMode mode, ServedCounts counts, int replicas, double meanClimb, int failedPlacements,
                          long reads, double virtualSeconds, long events, long messages) {
    }

    private final OverlayBuild build;
    private final DolrConfig config;
    private final LoadSetup setup;
    private final LoadPlan plan;

    public PlacementRun(OverlayBuild build, DolrConfig config, LoadSetup setup, LoadPlan plan) {
        this.build = build;
        this.config = config;
        this.setup = setup;
        this.plan = plan;
    }

    /**
     * Places replicas of {@code guids} in {@code mode}, runs the load, and says what happened. All
     * primaries are on the primary's node; the i-th client (in {@link LoadSetup#clients()} order)
     * reads {@code guids[i % n]}. Each object gets its own body of {@code data}'s length.
     */
    public Outcome run(PlacementMode mode, List<Id> guids, byte[] data) {
        Simulation sim = build.simulation();
        SimulatedOverlay overlay = build.overlay();
        for (Id guid : guids) {
            overlay.node(setup.primary()).storeReplica(guid, DistinctBodies.of(guid, data.length));
        }
        sim.runFor(Duration.ofSeconds(2).toNanos());
        List<Integer> clients = setup.clients();
        List<Id> readBy = new ArrayList<>(clients.size());
        for (int i = 0; i < clients.size(); i++) {
            readBy.add(guids.get(i % guids.size()));
        }

        List<Integer> climbs = new ArrayList<>();
        int[] failed = new int[1];
        if (mode == PlacementMode.LOCAL) {
            for (LoadSetup.ClientStub stub : setup.stubs()) {
                OverlayNode manager = overlay.node(stub.manager());
                // The manager replicates every object its stub's clients read, once each.
                Set<Id> wanted = new LinkedHashSet<>();
                for (int client : stub.clients()) {
                    wanted.add(readBy.get(clients.indexOf(client)));
                }
                for (Id guid : wanted) {
                    manager.read(guid, plan.ttl(), r -> {
                        if (!r.found() || r.data() == null || !manager.storeReplica(guid, r.data())) {
                            failed[0]++;
                        }
                    });
                    sim.runFor(CREATE_SPACING.toNanos());
                }
            }
        } else {
            for (int i = 0; i < clients.size(); i++) {
                OverlayNode node = overlay.node(clients.get(i));
                Id guid = readBy.get(i);
                node.read(guid, plan.ttl(), r -> {
                    // A replica k hops up must sit below where this read found the object, or it adds nothing.
                    int k = r.found() ? Math.max(1, Math.min(plan.climb(), r.hops() - 1)) : plan.climb();
                    climbs.add(k);
                    node.place(guid, k, p -> failed[0] += p.ok() ? 0 : 1);
                });
                sim.runFor(CREATE_SPACING.toNanos());
            }
        }
        // Long enough for every placement to finish, its publish to land, and neighbours to pull fresh Bloom filters twice.
        sim.runFor(config.locateDeadline().plus(config.bloomRefresh().multipliedBy(2)).toNanos());
        int replicas = 0;
        for (Id guid : guids) {
            replicas += countReplicas(overlay, guid) - 1;
        }

        ReadLoad load = new ReadLoad(sim, overlay, readBy, plan.ttl());
        ServedCounts counts = load.run(clients, plan.phaseNanos(), plan.period().toNanos(), plan.window().toNanos(),
                config.locateDeadline().toNanos());
        double meanClimb = climbs.stream().mapToInt(Integer::intValue).average().orElse(0);
        return new Outcome(mode, counts, replicas, meanClimb, failed[0], counts.answered() + counts.unansweredCount(),
                sim.now() / 1e9, sim.eventsRun(), overlay.network().messagesSent());
    }

    private static int countReplicas(SimulatedOverlay overlay, Id guid) {
        int n = 0;
        for (int v : overlay.liveVertices()) {
            if (overlay.node(v).replicas().contains(guid)) {
                n++;
            }
        }
        return n;
    }
}
