package io.riptide.core.runtime;

import io.riptide.core.wire.WireMessage;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;
import java.util.random.RandomGenerator;

/**
 * The runtime seam: everything protocol code may ask of the world. Time, timers, messages to other
 * nodes, randomness and hand-off of heavy work to a SEDA stage.
 *
 * <p>Protocol code uses nothing else (no wall clock, no sleeping, no {@code new Random()}, no Netty),
 * so the same handlers run for real on a Netty event loop and in the simulator under virtual time.
 * All callbacks (messages, timers, stage completions) run on the node's single event loop, one at a
 * time, so protocol state needs no locks.
 */
public interface Env {
    /** This node's ID and listening address. */
    NodeHandle self();

    /** Monotonic time in nanoseconds (virtual in simulation). Only differences are meaningful. */
    long nowNanos();

    /**
     * Wall-clock time in milliseconds since the epoch, for what the web dates (HTTP Date headers,
     * certificates, heartbeats). Virtual in simulation, where it starts at {@code SimEnv.EPOCH_MILLIS}.
     * Use {@link #nowNanos()} for durations.
     */
    long wallClockMillis();

    /** Runs {@code task} on the node's loop after {@code delay}. */
    Cancellable schedule(Duration delay, Runnable task);

    /**
     * Runs {@code task} every {@code period}, the first time after a random fraction of a period so
     * that the nodes of an overlay do not tick in step.
     */
    default void periodic(Duration period, Runnable task) {
        long first = 1 + (long) (random().nextDouble() * period.toNanos());
        schedule(Duration.ofNanos(first), new Runnable() {
            @Override
            public void run() {
                task.run();
                schedule(period, this);
            }
        });
    }

    /** Runs {@code task} on the node's loop as soon as possible, after the current event. */
    void execute(Runnable task);

    /**
     * Sends {@code message} to the node listening at {@code to}. Delivery is best effort, as on a
     * network: a message to a dead or unreachable node is lost without notice; protocols that care
     * detect that with timeouts.
     */
    void send(NodeAddress to, WireMessage message);

    /** This node's source of randomness (seeded in simulation). */
    RandomGenerator random();

    /**
     * Hands {@code work} to the named stage; {@code done} later runs on the node's loop with the
     * result or the failure. Returns false, and never calls {@code done}, when the stage refuses the
     * work because its queue is full: the caller degrades instead of waiting.
     */
    <T> boolean submit(String stage, Callable<T> work, BiConsumer<T, Throwable> done);
}
