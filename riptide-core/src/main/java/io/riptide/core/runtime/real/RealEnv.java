package io.riptide.core.runtime.real;

import io.netty.channel.EventLoop;
import io.riptide.core.runtime.Cancellable;
import io.riptide.core.runtime.Env;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.stage.StageRegistry;
import io.riptide.core.wire.WireMessage;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.random.RandomGenerator;

/**
 * The real runtime: a node's handlers run on one Netty event loop, timers are that loop's timers,
 * messages go out through a {@link Transport}, and heavy work goes to SEDA stages and comes back to
 * the loop.
 */
public final class RealEnv implements Env {
    private final EventLoop loop;
    private final NodeHandle self;
    private final Transport transport;
    private final StageRegistry stages;
    private final RandomGenerator random;
    private final Clock wallClock;

    public RealEnv(EventLoop loop, NodeHandle self, Transport transport, StageRegistry stages, RandomGenerator random) {
        this(loop, self, transport, stages, random, Clock.systemUTC());
    }

    /** As above, dating what the web dates by {@code wallClock} (tests move it to age copies without waiting). */
    public RealEnv(EventLoop loop, NodeHandle self, Transport transport, StageRegistry stages, RandomGenerator random,
                   Clock wallClock) {
        this.loop = loop;
        this.self = self;
        this.transport = transport;
        this.stages = stages;
        this.random = random;
        this.wallClock = wallClock;
    }

    /** The event loop all of this node's protocol code runs on. */
    public EventLoop loop() {
        return loop;
    }

    @Override
    public NodeHandle self() {
        return self;
    }

    @Override
    public long nowNanos() {
        return System.nanoTime();
    }

    @Override
    public long wallClockMillis() {
        return wallClock.millis();
    }

    @Override
    public Cancellable schedule(Duration delay, Runnable task) {
        ScheduledFuture<?> f = loop.schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS);
        return () -> f.cancel(false);
    }

    @Override
    public void execute(Runnable task) {
        loop.execute(task);
    }

    @Override
    public void send(NodeAddress to, WireMessage message) {
        transport.send(to, message);
    }

    @Override
    public RandomGenerator random() {
        return random;
    }

    @Override
    public <T> boolean submit(String stage, Callable<T> work, BiConsumer<T, Throwable> done) {
        return stages.submit(stage, work, done, loop);
    }
}
