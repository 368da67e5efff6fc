package io.riptide.core.runtime.sim;

import java.util.ArrayDeque;

/**
 * A simulated host's processor cores, shared by all its stages: a stage's thread needs a core for an
 * event's service time, and waits first-come first-served for one when all are busy (as threads wait
 * for the OS scheduler), so a host serving many requests saturates however many threads its stages
 * have. Work of zero service time never asks for a core.
 */
final class SimCpu {
    private final Simulation sim;
    private final int cores;
    private final ArrayDeque<Runnable> waiting = new ArrayDeque<>();
    private int busy;
    private long busyNanos;

    SimCpu(Simulation sim, int cores) {
        if (cores < 1) {
            throw new IllegalArgumentException("a host needs at least one core, got " + cores);
        }
        this.sim = sim;
        this.cores = cores;
    }

    /**
     * Runs {@code start} as soon as a core is free (at once if one is), then holds that core for
     * {@code nanos} and runs {@code finish} when it is released.
     */
    void run(long nanos, Runnable start, Runnable finish) {
        Runnable job = () -> {
            start.run();
            busyNanos += nanos;
            sim.at(nanos, () -> {
                busy--;
                next();
                finish.run();
            });
        };
        if (busy < cores) {
            busy++;
            job.run();
        } else {
            waiting.add(job);
        }
    }

    private void next() {
        Runnable job = waiting.poll();
        if (job != null) {
            busy++;
            job.run();
        }
    }

    int cores() {
        return cores;
    }

    /** Core time handed out so far (including what is still being served), in nanoseconds. */
    long busyNanos() {
        return busyNanos;
    }

    /** Work waiting for a core now. */
    int waiting() {
        return waiting.size();
    }
}
