package io.riptide.core.runtime.sim;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.riptide.core.id.Id;
import io.riptide.core.runtime.MessageHandler;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.wire.Frames;
import io.riptide.core.wire.MessageCodec;
import io.riptide.core.wire.WireException;
import io.riptide.core.wire.WireMessage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The simulated network: hosts at topology vertices, messages delivered after the latency model's
 * delay, lost when the receiver is down. Messages travel as objects; with a codec set, each one is
 * also encoded to a frame and decoded again, which proves the wire form at simulation scale.
 */
public final class SimNetwork {
    private final Simulation sim;
    private final LatencyModel latency;
    // Indexed by vertex: looked up for every message delivered.
    private final List<SimEnv> hosts = new ArrayList<>();
    private final Map<String, Long> stageServiceNanos = new HashMap<>();
    // Wire checks run for every simulated message: leak tracking of these short-lived buffers would
    // cost more than the simulation itself, and each one is released in the same method.
    private final UnpooledByteBufAllocator unpooledUntracked = new UnpooledByteBufAllocator(false, true);
    private MessageCodec wireCheck;
    private long messagesSent;
    private long messagesDropped;

    public SimNetwork(Simulation sim, LatencyModel latency) {
        this.sim = sim;
        this.latency = latency;
    }

    public Simulation simulation() {
        return sim;
    }

    /** Round-trips every message through {@code codec}'s wire form (slower; for tests). */
    public void checkWireFormat(MessageCodec codec) {
        this.wireCheck = codec;
    }

    /** Models work handed to {@code stage} as taking {@code nanos} of virtual time. */
    public void setStageServiceTime(String stage, long nanos) {
        stageServiceNanos.put(stage, nanos);
    }

    long stageServiceNanos(String stage) {
        return stageServiceNanos.getOrDefault(stage, 0L);
    }

    /**
     * Starts a host with ID {@code id} at {@code vertex}. {@code node} is given the host's
     * {@link SimEnv} and returns the handler for its incoming messages.
     */
    public SimEnv start(Id id, int vertex, Function<SimEnv, MessageHandler> node) {
        if (vertex < 0) {
            throw new IllegalArgumentException("negative vertex " + vertex);
        }
        while (hosts.size() <= vertex) {
            hosts.add(null);
        }
        if (hosts.get(vertex) != null && hosts.get(vertex).isAlive()) {
            throw new IllegalStateException("vertex " + vertex + " already hosts a live node");
        }
        SimEnv env = new SimEnv(this, new NodeHandle(id, NodeAddress.simulated(vertex)), sim.newRandom());
        hosts.set(vertex, env);
        env.attach(node.apply(env));
        return env;
    }

    /** Crashes the host at {@code vertex}: it stops receiving and its timers never fire. */
    public void kill(int vertex) {
        SimEnv env = host(vertex);
        if (env != null) {
            env.die();
        }
    }

    /** Whether a live host is at {@code vertex}. */
    public boolean isAlive(int vertex) {
        SimEnv env = host(vertex);
        return env != null && env.isAlive();
    }

    private SimEnv host(int vertex) {
        return vertex >= 0 && vertex < hosts.size() ? hosts.get(vertex) : null;
    }

    /** One-way latency between two vertices. */
    public long latencyNanos(int from, int to) {
        return latency.latencyNanos(from, to);
    }

    public long messagesSent() {
        return messagesSent;
    }

    public long messagesDropped() {
        return messagesDropped;
    }

    void send(SimEnv from, NodeAddress to, WireMessage message) {
        if (!NodeAddress.SIMULATED_HOST.equals(to.host())) {
            messagesDropped++;
            return;
        }
        messagesSent++;
        WireMessage delivered = wireCheck == null ? message : roundTrip(message);
        int fromVertex = from.self().address().port();
        NodeHandle sender = from.self();
        sim.at(latency.latencyNanos(fromVertex, to.port()), () -> {
            SimEnv target = host(to.port());
            if (target == null || !target.isAlive()) {
                messagesDropped++;
                return;
            }
            target.deliver(sender, delivered);
        });
    }

    private WireMessage roundTrip(WireMessage message) {
        ByteBuf frame = Frames.encode(wireCheck, message, unpooledUntracked);
        try {
            frame.skipBytes(4);
            return Frames.decode(wireCheck, frame);
        } catch (WireException e) {
            throw new IllegalStateException("message does not survive its wire form: " + message, e);
        } finally {
            frame.release();
        }
    }
}
