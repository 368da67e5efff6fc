package io.riptide.simulator.discovery;

import io.riptide.core.hint.HintMessages.LatencyHint;
import io.riptide.core.id.Id;
import io.riptide.core.runtime.sim.Simulation;
import io.riptide.dolr.simulation.SimulatedOverlay;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The clients' hint stream: each client anycasts a latency hint to the cache-manager service every
 * period, at a phase of its own so the load is even, and notes which manager received each hint.
 */
public final class HintTraffic {
    private final SimulatedOverlay overlay;
    private final Simulation sim;
    private final Id service;
    private final ManagerStarts managers;
    private final long periodNanos;
    private final long endNanos;
    private final int ttl;
    private final List<Hint> hints = new ArrayList<>();
    private long originNanos;
    private long sequence;

    /** Hints to {@code service} every {@code periodNanos}, until {@code endNanos} after {@link #start}. */
    public HintTraffic(SimulatedOverlay overlay, Id service, ManagerStarts managers, long periodNanos, long endNanos, int ttl) {
        this.overlay = overlay;
        this.sim = overlay.simulation();
        this.service = service;
        this.managers = managers;
        this.periodNanos = periodNanos;
        this.endNanos = endNanos;
        this.ttl = ttl;
    }

    /** Schedules every client's hints from now on; times in the log count from now. */
    public void start(int[] clients, SplittableRandom random) {
        originNanos = sim.now();
        for (int client : clients) {
            long phase = random.nextLong(periodNanos);
            sim.at(phase, () -> send(client));
        }
    }

    private void send(int client) {
        long sent = sim.now() - originNanos;
        if (sent >= endNanos) {
            return;
        }
        // Any registered message serves as the payload; a latency hint is what a proxy really sends.
        LatencyHint payload = new LatencyHint("http://hints.example/" + client + "/" + sequence, service, 0, sequence++);
        if (overlay.isAlive(client)) {
            overlay.node(client).anycast(service, payload, ttl,
                    r -> hints.add(new Hint(client, sent, r.found() ? managers.indexOf(r.replica().address().port()) : -1)));
        }
        sim.at(periodNanos, () -> send(client));
    }

    /** The hints answered or failed so far, in order of sending (then client). */
    public List<Hint> hints() {
        List<Hint> sorted = new ArrayList<>(hints);
        sorted.sort(Comparator.comparingLong(Hint::sentNanos).thenComparingInt(Hint::client));
        return sorted;
    }
}
