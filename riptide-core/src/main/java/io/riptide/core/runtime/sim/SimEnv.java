package io.riptide.core.runtime.sim;

import io.riptide.core.runtime.Cancellable;
import io.riptide.core.runtime.Env;
import io.riptide.core.runtime.MessageHandler;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.wire.WireMessage;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;
import java.util.random.RandomGenerator;

/**
 * One simulated host's view of the world: virtual time, the simulation's event queue for timers,
 * the simulated network for messages, and stage work run inline with a modelled service time.
 */
public final class SimEnv implements Env {
    /** The wall-clock time at which every simulation starts: 2026-01-01T00:00:00Z. */
    public static final long EPOCH_MILLIS = 1_767_225_600_000L;

    private final SimNetwork network;
    private final NodeHandle self;
    private final SplittableRandom random;
    private MessageHandler handler;
    private boolean alive = true;

    SimEnv(SimNetwork network, NodeHandle self, SplittableRandom random) {
        this.network = network;
        this.self = self;
        this.random = random;
    }

    void attach(MessageHandler handler) {
        this.handler = handler;
    }

    void die() {
        alive = false;
    }

    /** Whether this host is up. */
    public boolean isAlive() {
        return alive;
    }

    void deliver(NodeHandle from, WireMessage message) {
        if (alive && handler != null) {
            handler.onMessage(from, message);
        }
    }

    @Override
    public NodeHandle self() {
        return self;
    }

    @Override
    public long nowNanos() {
        return network.simulation().now();
    }

    @Override
    public long wallClockMillis() {
        return EPOCH_MILLIS + network.simulation().now() / 1_000_000L;
    }

    @Override
    public Cancellable schedule(Duration delay, Runnable task) {
        return network.simulation().at(delay.toNanos(), () -> {
            if (alive) {
                task.run();
            }
        });
    }

    @Override
    public void execute(Runnable task) {
        network.simulation().at(0, () -> {
            if (alive) {
                task.run();
            }
        });
    }

    @Override
    public void send(NodeAddress to, WireMessage message) {
        if (alive) {
            network.send(this, to, message);
        }
    }

    @Override
    public RandomGenerator random() {
        return random;
    }

    @Override
    public <T> boolean submit(String stage, Callable<T> work, BiConsumer<T, Throwable> done) {
        T result = null;
        Throwable failure = null;
        try {
            result = work.call();
        } catch (Exception e) {
            failure = e;
        }
        T r = result;
        Throwable f = failure;
        network.simulation().at(network.stageServiceNanos(stage), () -> {
            if (alive) {
                done.accept(r, f);
            }
        });
        return true;
    }
}
