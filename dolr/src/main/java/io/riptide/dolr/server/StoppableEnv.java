package io.riptide.dolr.server;

import io.riptide.core.runtime.Cancellable;
import io.riptide.core.runtime.Env;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.wire.WireMessage;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;
import java.util.random.RandomGenerator;

/**
 * An {@link Env} that goes silent once stopped: timers, tasks and stage completions of a closed
 * node no longer run, and nothing more is sent.
 *
 * <p>Needed because a node's loop may belong to a group that outlives it: the node's periodic
 * timers would otherwise tick there forever.
 */
final class StoppableEnv implements Env {
    private static final Cancellable NOTHING = () -> { };

    private final Env inner;
    private volatile boolean stopped;

    StoppableEnv(Env inner) {
        this.inner = inner;
    }

    /** From now on, nothing scheduled or submitted through this env runs. */
    void stop() {
        stopped = true;
    }

    boolean isStopped() {
        return stopped;
    }

    @Override
    public NodeHandle self() {
        return inner.self();
    }

    @Override
    public long nowNanos() {
        return inner.nowNanos();
    }

    @Override
    public long wallClockMillis() {
        return inner.wallClockMillis();
    }

    @Override
    public Cancellable schedule(Duration delay, Runnable task) {
        return stopped ? NOTHING : inner.schedule(delay, guarded(task));
    }

    @Override
    public void execute(Runnable task) {
        // A stopped node's loop may already be shut down, and would refuse the task.
        if (!stopped) {
            inner.execute(guarded(task));
        }
    }

    @Override
    public void send(NodeAddress to, WireMessage message) {
        if (!stopped) {
            inner.send(to, message);
        }
    }

    @Override
    public RandomGenerator random() {
        return inner.random();
    }

    @Override
    public <T> boolean submit(String stage, Callable<T> work, BiConsumer<T, Throwable> done) {
        return !stopped && inner.submit(stage, work, (result, failure) -> {
            if (!stopped) {
                done.accept(result, failure);
            }
        });
    }

    private Runnable guarded(Runnable task) {
        return () -> {
            if (!stopped) {
                task.run();
            }
        };
    }
}
