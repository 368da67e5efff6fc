package io.riptide.simulator.placement;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.sim.Simulation;
import io.riptide.dolr.simulation.SimulatedOverlay;
import java.util.List;

/**
 * A steady stream of reads: each client reads its object once per period, starting at its own
 * phase, for a window of virtual time; tallies which node answered each read.
 */
public final class ReadLoad {
    private final Simulation sim;
    private final SimulatedOverlay overlay;
    // The object each client reads, by the client's index.
    private final List<Id> guids;
    private final int ttl;

    /** Client {@code i} (of the list given to {@link #run}) reads {@code guids.get(i)}. */
    public ReadLoad(Simulation sim, SimulatedOverlay overlay, List<Id> guids, int ttl) {
        this.sim = sim;
        this.overlay = overlay;
        this.guids = List.copyOf(guids);
        this.ttl = ttl;
    }

    /**
     * Runs the load for {@code windowNanos}: client {@code i} reads at {@code phaseNanos[i]}, then every
     * {@code periodNanos}; then waits {@code drainNanos} for the last answers. Returns the tally.
     */
    public ServedCounts run(List<Integer> clients, long[] phaseNanos, long periodNanos, long windowNanos, long drainNanos) {
        if (guids.size() != clients.size()) {
            throw new IllegalArgumentException(clients.size() + " clients but " + guids.size() + " objects");
        }
        if (phaseNanos.length != clients.size()) {
            throw new IllegalArgumentException(clients.size() + " clients but " + phaseNanos.length + " phases");
        }
        ServedCounts counts = new ServedCounts();
        long end = sim.now() + windowNanos;
        for (int i = 0; i < clients.size(); i++) {
            int client = clients.get(i);
            Id guid = guids.get(i);
            sim.at(phaseNanos[i], () -> readEvery(client, guid, periodNanos, end, counts));
        }
        sim.runUntil(end);
        sim.runFor(drainNanos);
        return counts;
    }

    private void readEvery(int client, Id guid, long periodNanos, long end, ServedCounts counts) {
        if (sim.now() >= end) {
            return;
        }
        overlay.node(client).read(guid, ttl, r -> {
            if (r.found()) {
                counts.served(r.replica().address().port());
            } else {
                counts.unanswered();
            }
        });
        sim.at(periodNanos, () -> readEvery(client, guid, periodNanos, end, counts));
    }
}
