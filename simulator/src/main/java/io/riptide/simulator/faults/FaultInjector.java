package io.riptide.simulator.faults;

import io.riptide.core.runtime.sim.SimNetwork;
import io.riptide.core.runtime.sim.Simulation;
import io.riptide.dolr.simulation.SimulatedDisk;
import io.riptide.dolr.simulation.SimulatedOverlay;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntUnaryOperator;

/**
 * Applies a {@link FaultPlan} to a simulated overlay, each fault at its time, through the seams the
 * runtime offers and nothing else: the network drops, doubles and delays messages and cuts stubs
 * off ({@link SimNetwork}), a crashed node is killed and later started again on its disk
 * ({@link SimulatedOverlay#restart}), a host's wall clock is stepped ({@link SimNetwork#setClockSkew})
 * and a disk's reads slowed ({@link SimulatedDisk#setReadDelay}). Protocol code is not touched.
 * Overlapping windows of one kind of network fault take the worst of them.
 */
public final class FaultInjector {
    private final SimulatedOverlay overlay;
    private final SimNetwork network;
    private final Simulation sim;
    private final IntUnaryOperator stubOf;
    private final List<Fault> lossy = new ArrayList<>();
    private final List<Fault> doubled = new ArrayList<>();
    private final List<Fault> delayed = new ArrayList<>();
    private final Map<FaultKind, Integer> injected = new EnumMap<>(FaultKind.class);
    private final Set<Integer> down = new HashSet<>();
    private long restarts;

    /** An injector for {@code overlay}, whose hosts' stubs {@code stubOf} gives (for partitions). */
    public FaultInjector(SimulatedOverlay overlay, IntUnaryOperator stubOf) {
        this.overlay = overlay;
        this.network = overlay.network();
        this.sim = overlay.simulation();
        this.stubOf = stubOf;
        for (FaultKind k : FaultKind.values()) {
            injected.put(k, 0);
        }
    }

    /** Schedules every fault of {@code plan}; each starts and heals at its time as the simulation runs. */
    public void schedule(FaultPlan plan) {
        for (Fault f : plan.faults()) {
            if (f.startNanos() < sim.now()) {
                throw new IllegalArgumentException("a fault planned in the past: " + f);
            }
            sim.at(f.startNanos() - sim.now(), () -> start(f));
            if (f.heals()) {
                sim.at(f.endNanos() - sim.now(), () -> end(f));
            }
        }
    }

    private void start(Fault f) {
        injected.merge(f.kind(), 1, Integer::sum);
        switch (f.kind()) {
            case LOSS -> {
                lossy.add(f);
                applyNetworkLevels();
            }
            case DUPLICATION -> {
                doubled.add(f);
                applyNetworkLevels();
            }
            case REORDERING -> {
                delayed.add(f);
                applyNetworkLevels();
            }
            case PARTITION -> {
                Set<Integer> stubs = new HashSet<>(f.vertices());
                network.partition(v -> stubs.contains(stubOf.applyAsInt(v)), Duration.ofNanos(f.endNanos() - f.startNanos()));
            }
            case CRASH -> {
                int v = f.vertices().get(0);
                if (overlay.isAlive(v)) {
                    overlay.kill(v);
                    down.add(v);
                }
            }
            case CLOCK_SKEW -> {
                int v = f.vertices().get(0);
                network.setClockSkew(v, Duration.ofNanos(network.clockSkewNanos(v) + f.nanos()));
            }
            case SLOW_DISK -> {
                SimulatedDisk disk = overlay.disk(f.vertices().get(0));
                if (disk != null) {
                    disk.setReadDelay(Duration.ofNanos(Math.max(disk.readDelay().toNanos(), f.nanos())));
                }
            }
        }
    }

    private void end(Fault f) {
        switch (f.kind()) {
            case LOSS -> {
                lossy.remove(f);
                applyNetworkLevels();
            }
            case DUPLICATION -> {
                doubled.remove(f);
                applyNetworkLevels();
            }
            case REORDERING -> {
                delayed.remove(f);
                applyNetworkLevels();
            }
            case PARTITION -> {
                // The network heals the cut itself, on the same schedule.
            }
            case CRASH -> {
                int v = f.vertices().get(0);
                if (down.remove(v)) {
                    overlay.restart(v);
                    restarts++;
                }
            }
            case CLOCK_SKEW -> {
                // Permanent: never scheduled.
            }
            case SLOW_DISK -> {
                SimulatedDisk disk = overlay.disk(f.vertices().get(0));
                if (disk != null) {
                    disk.setReadDelay(Duration.ZERO);
                }
            }
        }
    }

    private void applyNetworkLevels() {
        network.setLoss(lossy.stream().mapToDouble(Fault::probability).max().orElse(0));
        network.setDuplication(doubled.stream().mapToDouble(Fault::probability).max().orElse(0));
        network.setJitter(delayed.stream().mapToDouble(Fault::probability).max().orElse(0),
                Duration.ofNanos(delayed.stream().mapToLong(Fault::nanos).max().orElse(0)));
    }

    /** Faults started so far, by kind (every kind listed). */
    public Map<FaultKind, Integer> injected() {
        return Map.copyOf(injected);
    }

    /** Crashed nodes started again so far. */
    public long restarts() {
        return restarts;
    }

    /** Whether any fault that heals is still in force (a network fault, a partition, a node down, a slow disk). */
    public boolean anyActive() {
        return !lossy.isEmpty() || !doubled.isEmpty() || !delayed.isEmpty() || network.partitions() > 0 || !down.isEmpty()
                || slowDisks();
    }

    private boolean slowDisks() {
        for (int v : overlay.liveVertices()) {
            SimulatedDisk d = overlay.disk(v);
            if (d != null && !d.readDelay().isZero()) {
                return true;
            }
        }
        return false;
    }
}
