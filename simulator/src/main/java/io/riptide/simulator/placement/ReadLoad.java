package io.riptide.simulator.placement;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.sim.Simulation;
import io.riptide.dolr.simulation.SimulatedOverlay;
import java.util.List;

/**
 * A steady stream of reads of one object: each client reads it once per period, starting at its own
 * phase, for a window of virtual time; tallies which node answered each read.
 */
public final class ReadLoad {
    private final Simulation sim;
    private final SimulatedOverlay overlay;
    private final Id guid;
    private final int ttl;

    public ReadLoad(Simulation sim, SimulatedOverlay overlay, Id guid, int ttl) {
        this.sim = sim;
        this.overlay = overlay;
        this.guid = guid;
        this.ttl = ttl;
    }

    /**
     * Runs the load for {@code windowNanos}: client {@code i} reads at {@code phaseNanos[i]}, then every
     * {@code periodNanos}; then waits {@code drainNanos} for the last answers. Returns the tally.
     */
    public ServedCounts run(List<Integer> clients, long[] phaseNanos, long periodNanos, long windowNanos, long drainNanos) {
        if (phaseNanos.length != clients.size()) {
            throw new IllegalArgumentException(clients.size() + " clients but " + phaseNanos.length + " phases");
        }
        ServedCounts counts = new ServedCounts();
        long end = sim.now() + windowNanos;
        for (int i = 0; i < clients.size(); i++) {
            int client = clients.get(i);
            sim.at(phaseNanos[i], () -> readEvery(client, periodNanos, end, counts));
        }
        sim.runUntil(end);
        sim.runFor(drainNanos);
        return counts;
    }

    private void readEvery(int client, long periodNanos, long end, ServedCounts counts) {
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
        sim.at(periodNanos, () -> readEvery(client, periodNanos, end, counts));
    }
}
