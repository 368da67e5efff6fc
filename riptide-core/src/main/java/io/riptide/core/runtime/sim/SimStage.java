package io.riptide.core.runtime.sim;

import io.riptide.core.stage.StageMetrics;
import java.util.ArrayDeque;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;

/**
 * One stage on one simulated host, as {@link io.riptide.core.stage.Stage} is over TCP: a bounded
 * queue whose admission refuses when full, up to {@code maxThreads} events in service at once, each
 * holding one of the host's cores ({@link SimCpu}) for the stage's service time, and the result handed
 * to the caller's callback when that time is up. All in virtual time on the simulation's one thread,
 * first come first served, so a seed still fixes the run.
 *
 * <p>The work itself runs when its service starts (as a worker thread would run it then), which is
 * at once when a thread and a core are free: an idle stage behaves exactly as the simulator's old
 * inline stages did (work run in {@code submit}, result after the service time).
 */
final class SimStage {
    private final SimStageSpec spec;
    private final Simulation sim;
    private final SimCpu cpu;
    private final BooleanSupplier alive;
    private final ArrayDeque<Job<?>> queue = new ArrayDeque<>();
    private final long startNanos;
    private int serving;
    private long accepted;
    private long refused;
    private long completed;
    private long failed;
    private long started;
    private long waitTotal;
    private long waitMax;

    SimStage(SimStageSpec spec, Simulation sim, SimCpu cpu, BooleanSupplier alive) {
        this.spec = spec;
        this.sim = sim;
        this.cpu = cpu;
        this.alive = alive;
        this.startNanos = sim.now();
    }

    /** Queues {@code work}, or returns false at once (never calling {@code done}) when the queue is full. */
    <T> boolean submit(Callable<T> work, BiConsumer<T, Throwable> done) {
        if (queue.size() >= spec.config().queueCapacity()) {
            refused++;
            return false;
        }
        accepted++;
        queue.add(new Job<>(work, done, sim.now()));
        startWhatFits();
        return true;
    }

    private void startWhatFits() {
        while (serving < spec.config().maxThreads() && !queue.isEmpty()) {
            serving++;
            serve(queue.poll());
        }
    }

    private <T> void serve(Job<T> job) {
        long service = spec.serviceNanos();
        if (service == 0) {
            job.start();
            sim.at(0, () -> finish(job));
        } else {
            cpu.run(service, job::start, () -> finish(job));
        }
    }

    private <T> void finish(Job<T> job) {
        serving--;
        if (job.failure == null) {
            completed++;
        } else {
            failed++;
        }
        startWhatFits();
        if (alive.getAsBoolean()) {
            job.done.accept(job.result, job.failure);
        }
    }

    /** This stage's counters, as a real stage reports them; times are virtual. */
    StageMetrics metrics() {
        long finished = completed + failed;
        long elapsed = sim.now() - startNanos;
        return new StageMetrics(spec.name(), queue.size(), spec.config().maxThreads(), accepted, refused, completed, failed,
                started == 0 ? 0 : waitTotal / started, waitMax, finished == 0 ? 0 : spec.serviceNanos(),
                spec.serviceNanos(), elapsed <= 0 ? 0 : finished * 1e9 / elapsed, 0, started, waitTotal);
    }

    /** One queued event; it keeps its outcome between the start and the end of its service. */
    private final class Job<T> {
        final Callable<T> work;
        final BiConsumer<T, Throwable> done;
        final long enqueuedNanos;
        T result;
        Throwable failure;

        Job(Callable<T> work, BiConsumer<T, Throwable> done, long enqueuedNanos) {
            this.work = work;
            this.done = done;
            this.enqueuedNanos = enqueuedNanos;
        }

        void start() {
            long waited = sim.now() - enqueuedNanos;
            started++;
            waitTotal += waited;
            waitMax = Math.max(waitMax, waited);
            try {
                result = work.call();
            } catch (Exception e) {
                failure = e;
            }
        }
    }
}
