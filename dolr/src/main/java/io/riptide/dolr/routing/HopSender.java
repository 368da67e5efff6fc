package io.riptide.dolr.routing;

import io.riptide.core.runtime.Cancellable;
import io.riptide.core.runtime.Env;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.wire.WireMessage;
import io.riptide.dolr.routing.RoutingMessages.Hop;
import io.riptide.dolr.routing.RoutingMessages.HopAck;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Sends a message one overlay hop and waits for the neighbour's acknowledgement. A missing
 * acknowledgement is how a dead next hop is noticed while a message is in flight, so the caller can
 * route around it; each acknowledgement is also a free RTT sample.
 */
public final class HopSender {
    private final Env env;
    private final PeerTable peers;
    private final Duration floor;
    private final Map<Long, Pending> pending = new HashMap<>();
    private final Consumer<NodeHandle> onMeasured;
    private long nextHopId;

    private record Pending(NodeHandle to, long sentAt, Cancellable timer) {
    }

    /** {@code onMeasured} hears of each neighbour whose RTT an acknowledgement just refreshed. */
    public HopSender(Env env, PeerTable peers, Duration floor, Consumer<NodeHandle> onMeasured) {
        this.env = env;
        this.peers = peers;
        this.floor = floor;
        this.onMeasured = onMeasured;
    }

    /** How long to wait for {@code to}'s acknowledgement: three RTTs, at least the floor. */
    public Duration timeoutFor(NodeHandle to) {
        long rtt = peers.rtt(to.id());
        return rtt < 0 ? floor.multipliedBy(2) : Duration.ofNanos(Math.max(floor.toNanos(), 3 * rtt));
    }

    /** Sends {@code message} to {@code to}; {@code onTimeout} runs if no acknowledgement comes in time. */
    public void send(NodeHandle to, WireMessage message, Runnable onTimeout) {
        long hopId = ++nextHopId;
        Cancellable timer = env.schedule(timeoutFor(to), () -> {
            if (pending.remove(hopId) != null) {
                onTimeout.run();
            }
        });
        pending.put(hopId, new Pending(to, env.nowNanos(), timer));
        env.send(to.address(), new Hop(hopId, message));
    }

    /** Handles an acknowledgement from {@code from}. */
    public void onAck(NodeHandle from, HopAck ack) {
        Pending p = pending.get(ack.hopId());
        if (p == null || !p.to().id().equals(from.id())) {
            return; // late, duplicate, or forged by someone else
        }
        pending.remove(ack.hopId());
        p.timer().cancel();
        long now = env.nowNanos();
        peers.rttSample(from, now - p.sentAt(), now);
        onMeasured.accept(from);
    }

    /** Hops awaiting acknowledgement. */
    public int inFlight() {
        return pending.size();
    }
}
