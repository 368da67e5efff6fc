package io.riptide.dolr.membership;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.Cancellable;
import io.riptide.core.runtime.Env;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.dolr.membership.MembershipMessages.Ping;
import io.riptide.dolr.membership.MembershipMessages.Pong;
import io.riptide.dolr.routing.PeerTable;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.ArrayList;
import java.util.Map;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * Pings peers to measure round-trip time and to check they are alive. At most a bounded number of
 * pings are in flight and a bounded number wait; past that new candidates are dropped, so a flood of
 * handles from peers cannot make a node probe without limit.
 *
 * <p>Queueing, not only distance, delays answers: when the node's uplink is busy every far answer
 * is late. So a probe waits at least twice the slowest recent round trip ({@link
 * PeerTable#recentHighRtt}), up to {@value #MAX_STRETCH} times the base timeout, and an answer that
 * comes after its probe gave up still counts: it is a round-trip sample and proof of life, passed to
 * {@code onLateAnswer} so the peer can be taken back.
 */
public final class Prober {
    /** The longest a probe waits, in base timeouts. */
    static final int MAX_STRETCH = 8;

    private final Env env;
    private final PeerTable peers;
    private final Duration timeout;
    private final int maxInFlight;
    private final int maxQueue;
    private final BooleanSupplier member;
    private final Consumer<NodeHandle> onLateAnswer;
    private final Map<Long, InFlight> inFlight = new HashMap<>();
    private final ArrayDeque<Request> queue = new ArrayDeque<>();
    // Probes that timed out, still answerable (bounded: the oldest go first).
    private final Map<Long, InFlight> late;
    // Everyone waiting on a target's answer: a liveness check and an RTT measurement may ask at once.
    private final Map<Id, List<LongConsumer>> waiting = new HashMap<>();
    private long nextNonce;
    private long probesSent;
    private long probesDropped;
    private long lateAnswers;
    private long answersRefused;

    private record Request(NodeHandle target) {
    }

    private record InFlight(Request request, long sentAt, Cancellable timer) {
    }

    /** {@code member} tells whether this node has joined (its pings say so). */
    public Prober(Env env, PeerTable peers, Duration timeout, int maxInFlight, int maxQueue, BooleanSupplier member) {
        this(env, peers, timeout, maxInFlight, maxQueue, member, peer -> { });
    }

    /** As above; {@code onLateAnswer} hears of each peer whose answer came after its probe timed out. */
    public Prober(Env env, PeerTable peers, Duration timeout, int maxInFlight, int maxQueue, BooleanSupplier member,
                  Consumer<NodeHandle> onLateAnswer) {
        this.env = env;
        this.onLateAnswer = onLateAnswer;
        int lateCapacity = Math.max(16, 4 * maxInFlight);
        this.late = new LinkedHashMap<>() {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, InFlight> eldest) {
                return size() > lateCapacity;
            }
        };
        this.member = member;
        this.peers = peers;
        this.timeout = timeout;
        this.maxInFlight = maxInFlight;
        this.maxQueue = maxQueue;
    }

    /**
     * Pings {@code target}; {@code result} gets the RTT in nanoseconds, or -1 if no answer came in
     * time. A target already being probed is not probed twice: the request waits for the same answer.
     */
    public void probe(NodeHandle target, LongConsumer result) {
        if (target.id().equals(env.self().id())) {
            return;
        }
        List<LongConsumer> already = waiting.get(target.id());
        if (already != null) {
            already.add(result);
            return;
        }
        if (inFlight.size() >= maxInFlight && queue.size() >= maxQueue) {
            probesDropped++;
            return;
        }
        List<LongConsumer> callbacks = new ArrayList<>(2);
        callbacks.add(result);
        waiting.put(target.id(), callbacks);
        if (inFlight.size() < maxInFlight) {
            send(new Request(target));
        } else {
            queue.add(new Request(target));
        }
    }

    private void send(Request request) {
        long nonce = ++nextNonce;
        Cancellable timer = env.schedule(timeoutFor(request.target()), () -> {
            InFlight f = inFlight.remove(nonce);
            if (f != null) {
                late.put(nonce, f);
                finish(f.request(), -1);
            }
        });
        inFlight.put(nonce, new InFlight(request, env.nowNanos(), timer));
        probesSent++;
        env.send(request.target().address(), new Ping(nonce, member.getAsBoolean()));
    }

    /** How long a probe of {@code target} waits: the base timeout, stretched while round trips are slow. */
    Duration timeoutFor(NodeHandle target) {
        long slow = 2 * Math.max(peers.rtt(target.id()), peers.recentHighRtt(env.nowNanos()));
        long base = timeout.toNanos();
        return Duration.ofNanos(Math.min(MAX_STRETCH * base, Math.max(base, slow)));
    }

    private void finish(Request request, long rtt) {
        List<LongConsumer> callbacks = waiting.remove(request.target().id());
        if (callbacks != null) {
            callbacks.forEach(c -> c.accept(rtt));
        }
        while (inFlight.size() < maxInFlight && !queue.isEmpty()) {
            send(queue.poll());
        }
    }

    /** Handles a pong: records the RTT and reports it. */
    public void onPong(NodeHandle from, Pong pong) {
        InFlight f = inFlight.get(pong.nonce());
        if (f == null) {
            InFlight gaveUp = late.get(pong.nonce());
            if (gaveUp != null && answers(gaveUp.request().target(), from)) {
                late.remove(pong.nonce());
                lateAnswers++;
                long now = env.nowNanos();
                peers.rttSample(from, now - gaveUp.sentAt(), now);
                onLateAnswer.accept(from);
            }
            return;
        }
        if (!answers(f.request().target(), from)) {
            answersRefused++;
            return;
        }
        inFlight.remove(pong.nonce());
        f.timer().cancel();
        long now = env.nowNanos();
        long rtt = now - f.sentAt();
        peers.rttSample(from, rtt, now);
        finish(f.request(), rtt);
    }

    /**
     * Whether a pong {@code from} answers a ping of {@code target}: the same node ID, and the same
     * address. The ping went to the target's address, so a node that answers it from there, with the
     * ID the handle names, has proved the handle: this is how an entry learned second-hand (from a
     * peer's gossip, row or join state) is proved before it enters the routing state. Without the
     * address a node could have others dial a victim's address in its name and answer itself over its
     * own connection, guessing the nonce (which counts up).
     */
    private static boolean answers(NodeHandle target, NodeHandle from) {
        return target.id().equals(from.id()) && target.address().equals(from.address());
    }

    /** Pongs ignored because they came from another node ID or another address than the ping's target. */
    public long answersRefused() {
        return answersRefused;
    }

    /** Whether a probe of {@code id} is queued or in flight. */
    public boolean isProbing(Id id) {
        return waiting.containsKey(id);
    }

    public long probesSent() {
        return probesSent;
    }

    public long probesDropped() {
        return probesDropped;
    }

    /** Answers that came after their probe had timed out. */
    public long lateAnswers() {
        return lateAnswers;
    }
}
