package io.riptide.core.runtime.sim;

import io.riptide.core.runtime.Cancellable;
import io.riptide.core.runtime.Env;
import io.riptide.core.runtime.MessageHandler;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.stage.StageMetrics;
import io.riptide.core.wire.WireMessage;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;
import java.util.random.RandomGenerator;

/**
 * One simulated host's view of the world: virtual time, the simulation's event queue for timers,
 * the simulated network for messages, and its own SEDA stages on its own cores.
 *
 * <p>A stage the network defines ({@link SimNetwork#defineStage}) is modelled as over TCP: a bounded
 * queue that refuses when full (so {@link #submit} returns false as the real one does), a number of
 * threads, and a service time on one of the host's {@link SimNetwork#cores} cores, which all its
 * stages share ({@link SimStage}, {@link SimCpu}). A stage the network does not define keeps the
 * simulator's older model: unbounded, the work run at once and its result after
 * {@link SimNetwork#setStageServiceTime}'s time (zero unless set), no core used.
 */
public final class SimEnv implements Env {
    /** The wall-clock time at which every simulation starts: 2026-01-01T00:00:00Z. */
    public static final long EPOCH_MILLIS = 1_767_225_600_000L;

    private final SimNetwork network;
    private final NodeHandle self;
    private final SplittableRandom random;
    private MessageHandler handler;
    private boolean alive = true;
    // How far this host's wall clock is ahead of true (virtual) time; behind if negative.
    private long clockSkewNanos;
    // Made on first use, so hosts that never submit (most of an overlay) cost nothing; a linked map so
    // reports list stages in the order they were first used.
    private final Map<String, SimStage> stages = new LinkedHashMap<>();
    private SimCpu cpu;

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
        return EPOCH_MILLIS + Math.floorDiv(network.simulation().now() + clockSkewNanos, 1_000_000L);
    }

    /** Sets this host's wall clock {@code nanos} ahead of true time (see {@link SimNetwork#setClockSkew}). */
    void setClockSkew(long nanos) {
        this.clockSkewNanos = nanos;
    }

    /** How far this host's wall clock is ahead of true time, in nanoseconds (negative: behind). */
    public long clockSkewNanos() {
        return clockSkewNanos;
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
        SimStage modelled = stage(stage);
        if (modelled != null) {
            return modelled.submit(work, done);
        }
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

    private SimStage stage(String name) {
        SimStage s = stages.get(name);
        if (s == null) {
            SimStageSpec spec = network.stageSpec(name);
            if (spec == null) {
                return null;
            }
            s = new SimStage(spec, network.simulation(), cpu(), this::isAlive);
            stages.put(name, s);
        }
        return s;
    }

    private SimCpu cpu() {
        if (cpu == null) {
            cpu = new SimCpu(network.simulation(), network.cores());
        }
        return cpu;
    }

    /** The counters of each modelled stage this host has used, by name (virtual times). */
    public Map<String, StageMetrics> stageMetrics() {
        Map<String, StageMetrics> out = new LinkedHashMap<>();
        stages.forEach((name, s) -> out.put(name, s.metrics()));
        return Collections.unmodifiableMap(out);
    }

    /** Core time this host's stages have used so far, in virtual nanoseconds (over all its cores). */
    public long cpuBusyNanos() {
        return cpu == null ? 0 : cpu.busyNanos();
    }

    /** This host's cores (those its modelled stages share). */
    public int cores() {
        return cpu == null ? network.cores() : cpu.cores();
    }
}
