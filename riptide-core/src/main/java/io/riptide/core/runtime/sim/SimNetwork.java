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
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntPredicate;

/**
 * The simulated network: hosts at topology vertices, messages delivered after the latency model's
 * delay, lost when the receiver is down. Messages travel as objects; with a codec set, each one is
 * also encoded to a frame and decoded again, which proves the wire form at simulation scale.
 *
 * <p>Optionally ({@link #setLinks}) messages also queue: each bandwidth-limited link on the path
 * takes the message's frame size over the link's bandwidth to send it, store and forward, so a
 * saturated link delays what follows as a real one does. A link is shared fairly between the host
 * pairs using it ({@link SharedLink}): each pair's messages cross in order, as on one connection,
 * and the pairs split the bandwidth, as TCP connections sharing a bottleneck do. Host access links
 * ({@link #setAccessLink}, e.g. an origin server's 10 Mb/s line) are shared the same way. A link's
 * buffer is finite, as a router's (or a sender's bounded per-peer queue) is: a message that would
 * wait longer than the buffer ({@link #DEFAULT_BUFFER_NANOS} unless set) is dropped there and
 * counted ({@link #messagesOverflowed}). Without that bound an overloaded link's queue, and every
 * message's delay across it, would grow without limit, which no real network does.
 *
 * <p>Faults on demand, for fault-injection runs: loss ({@link #setLoss}), duplication
 * ({@link #setDuplication}: a second copy, travelling on its own), reordering beyond the latency
 * model ({@link #setJitter}: a random extra delay per message, after the queued links, so one pair's
 * messages may overtake each other) and partitions ({@link #partition}), any number at once, each
 * healing when told or on a schedule. Their draws come from a random stream of their own, so a run
 * that uses none of them draws exactly as before, and one that does is fixed by its seed.
 */
public final class SimNetwork {
    /** How long a message may wait for a queued link before the link's buffer overflows: one second. */
    public static final long DEFAULT_BUFFER_NANOS = 1_000_000_000L;
    /** Cores per simulated host unless set: the 2 of the machines Riptide's figures are measured on. */
    public static final int DEFAULT_CORES = 2;

    private final Simulation sim;
    private final LatencyModel latency;
    // Indexed by vertex: looked up for every message delivered.
    private final List<SimEnv> hosts = new ArrayList<>();
    private final Map<String, Long> stageServiceNanos = new HashMap<>();
    private final Map<String, SimStageSpec> stageSpecs = new HashMap<>();
    private int cores = DEFAULT_CORES;
    // Wire checks run for every simulated message: leak tracking of these short-lived buffers would
    // cost more than the simulation itself, and each one is released in the same method.
    private final UnpooledByteBufAllocator unpooledUntracked = new UnpooledByteBufAllocator(false, true);
    private MessageCodec wireCheck;
    private Consumer<WireMessage> tap = m -> { };
    private SendObserver observer = (from, to, m) -> { };
    private long messagesSent;
    private long messagesDropped;
    // Link queueing (null: latency only).
    private LinkModel links;
    private MessageCodec sizer;
    private SharedLink[] shared;
    private int[] pathBuffer;
    private final Map<Integer, AccessLink> accessLinks = new HashMap<>();
    private static final SharedLink[] NO_LINKS = new SharedLink[0];
    private long bufferNanos = DEFAULT_BUFFER_NANOS;
    private long queueingNanos;
    private long maxQueueingNanos;
    private long messagesOverflowed;
    // Loss and partitions, on demand; a random stream of their own keeps other draws unchanged.
    private final SplittableRandom lossRandom;
    private double lossProbability;
    private final List<Cut> cuts = new ArrayList<>();
    private long messagesLost;
    // Duplication and jitter: split from the loss stream on first use, so runs without them draw as before.
    private SplittableRandom faultRandom;
    private double duplicateProbability;
    private double jitterProbability;
    private long maxJitterNanos;
    private long messagesDuplicated;
    private long messagesJittered;
    // Each vertex's wall-clock skew (the machine's clock, so it outlives a restart of the node there).
    private final Map<Integer, Long> clockSkewNanos = new HashMap<>();

    /** A host's own line to the network: shared like a link, in each direction. */
    private record AccessLink(SharedLink up, SharedLink down) {
    }

    public SimNetwork(Simulation sim, LatencyModel latency) {
        this.sim = sim;
        this.latency = latency;
        this.lossRandom = sim.newRandom();
    }

    /**
     * Makes messages queue on {@code model}'s links; {@code codec} gives each message's size (its
     * frame), so every message type sent must be registered in it.
     */
    public void setLinks(LinkModel model, MessageCodec codec) {
        this.links = model;
        this.sizer = codec;
        this.shared = new SharedLink[model.linkCount()];
        for (int l = 0; l < shared.length; l++) {
            shared[l] = new SharedLink(sim, model.bitsPerSecond(l));
        }
        this.pathBuffer = new int[model.maxPathLength()];
    }

    /** Sets how long a message may wait for a queued link before it is dropped there (a link's buffer, in time). */
    public void setLinkBuffer(java.time.Duration buffer) {
        if (buffer.isNegative() || buffer.isZero()) {
            throw new IllegalArgumentException("link buffer must be positive, got " + buffer);
        }
        this.bufferNanos = buffer.toNanos();
    }

    /**
     * Gives the host at {@code vertex} a line of {@code bitsPerSecond} in each direction that all its
     * messages queue on (requires {@link #setLinks} for message sizes).
     */
    public void setAccessLink(int vertex, long bitsPerSecond) {
        if (sizer == null) {
            throw new IllegalStateException("set links (and so message sizes) before access links");
        }
        if (bitsPerSecond <= 0) {
            throw new IllegalArgumentException("bandwidth must be positive, got " + bitsPerSecond);
        }
        accessLinks.put(vertex, new AccessLink(new SharedLink(sim, bitsPerSecond), new SharedLink(sim, bitsPerSecond)));
    }

    /** Drops each message between two different hosts with probability {@code p} (0 turns loss off). */
    public void setLoss(double p) {
        if (p < 0 || p > 1) {
            throw new IllegalArgumentException("loss probability must be in [0, 1], got " + p);
        }
        this.lossProbability = p;
    }

    /**
     * Delivers each message between two different hosts twice with probability {@code p} (0 turns
     * duplication off): the copy crosses the links and the latency model on its own, as a packet
     * retransmitted by a confused middlebox, or a request a client sent again, would.
     */
    public void setDuplication(double p) {
        if (p < 0 || p > 1) {
            throw new IllegalArgumentException("duplication probability must be in [0, 1], got " + p);
        }
        this.duplicateProbability = p;
    }

    /**
     * Delays each message between two different hosts, with probability {@code p}, by a further
     * uniform random time below {@code max} after its latency (0 or a zero {@code max} turns it off),
     * so messages overtake each other, one pair's included: reordering beyond the latency model.
     */
    public void setJitter(double p, java.time.Duration max) {
        if (p < 0 || p > 1) {
            throw new IllegalArgumentException("jitter probability must be in [0, 1], got " + p);
        }
        if (max.isNegative()) {
            throw new IllegalArgumentException("negative jitter " + max);
        }
        this.jitterProbability = p;
        this.maxJitterNanos = max.toNanos();
    }

    private SplittableRandom faultRandom() {
        if (faultRandom == null) {
            faultRandom = lossRandom.split();
        }
        return faultRandom;
    }

    /** One partition of the network: messages between a host on its side and one off it are dropped until it heals. */
    public final class Cut {
        private final IntPredicate side;

        private Cut(IntPredicate side) {
            this.side = side;
        }

        /** Ends this partition (others stay); nothing if it has healed already. */
        public void heal() {
            cuts.remove(this);
        }

        /** Whether it still cuts the network. */
        public boolean active() {
            return cuts.contains(this);
        }

        boolean separates(int a, int b) {
            return side.test(a) != side.test(b);
        }
    }

    /**
     * Cuts the network in two: messages between a host on {@code side} and one off it are dropped,
     * including those already in flight, until the returned cut heals (or {@link #heal}). Several
     * cuts may stand at once; a message is dropped if any separates its ends.
     */
    public Cut partition(IntPredicate side) {
        Cut cut = new Cut(side);
        cuts.add(cut);
        return cut;
    }

    /** As {@link #partition(IntPredicate)}, healing by itself {@code duration} from now. */
    public Cut partition(IntPredicate side, java.time.Duration duration) {
        Cut cut = partition(side);
        sim.at(duration.toNanos(), cut::heal);
        return cut;
    }

    /** Ends every partition. */
    public void heal() {
        cuts.clear();
    }

    /** Partitions standing now. */
    public int partitions() {
        return cuts.size();
    }

    private boolean cut(int a, int b) {
        for (int i = 0; i < cuts.size(); i++) {
            if (cuts.get(i).separates(a, b)) {
                return true;
            }
        }
        return false;
    }

    /** Second copies delivered by {@link #setDuplication} (sent; a copy may still be lost or overflow). */
    public long messagesDuplicated() {
        return messagesDuplicated;
    }

    /** Messages (copies included) given an extra delay by {@link #setJitter}. */
    public long messagesJittered() {
        return messagesJittered;
    }

    /**
     * Sets the wall clock of the host at {@code vertex} (now and after any restart there) {@code skew}
     * ahead of true time (behind, if negative): what {@link SimEnv#wallClockMillis} reads. Its
     * monotonic clock, which only durations are read from, is not moved.
     */
    public void setClockSkew(int vertex, java.time.Duration skew) {
        long nanos = skew.toNanos();
        if (nanos == 0) {
            clockSkewNanos.remove(vertex);
        } else {
            clockSkewNanos.put(vertex, nanos);
        }
        SimEnv env = host(vertex);
        if (env != null) {
            env.setClockSkew(nanos);
        }
    }

    /** The wall-clock skew of the host at {@code vertex}, in nanoseconds (0 unless set). */
    public long clockSkewNanos(int vertex) {
        return clockSkewNanos.getOrDefault(vertex, 0L);
    }

    /** Messages dropped by loss or a partition (also counted in {@link #messagesDropped}). */
    public long messagesLost() {
        return messagesLost;
    }

    /** Messages dropped because a queued link's buffer was full (also counted in {@link #messagesDropped}). */
    public long messagesOverflowed() {
        return messagesOverflowed;
    }

    /** Total time messages spent waiting for and crossing queued links, in nanoseconds. */
    public long queueingNanos() {
        return queueingNanos;
    }

    /** The longest any one message spent on queued links, in nanoseconds. */
    public long maxQueueingNanos() {
        return maxQueueingNanos;
    }

    /** Bytes sent over {@code link} so far. */
    public long linkBytes(int link) {
        return shared[link].bytes;
    }

    /** How long {@code link} would take to send what it has been given, if given nothing more, in nanoseconds. */
    public long linkBacklogNanos(int link) {
        return shared[link].backlogNanos();
    }

    /** Bytes the host at {@code vertex} sent and received over its access link. */
    public long accessLinkBytes(int vertex) {
        AccessLink a = accessLinks.get(vertex);
        return a == null ? 0 : a.up().bytes + a.down().bytes;
    }

    public Simulation simulation() {
        return sim;
    }

    /** Round-trips every message through {@code codec}'s wire form (slower; for tests). */
    public void checkWireFormat(MessageCodec codec) {
        this.wireCheck = codec;
    }

    /** Shows every message sent (before loss or delivery) to {@code tap}: for traces and wire-format tests. */
    public void tap(Consumer<WireMessage> tap) {
        this.tap = tap;
    }

    /** Sees each message sent with its sender's and receiver's vertices, before loss or delivery. */
    @FunctionalInterface
    public interface SendObserver {
        /** {@code message} was sent from the host at {@code fromVertex} to {@code toVertex}. */
        void sent(int fromVertex, int toVertex, WireMessage message);
    }

    /**
     * Shows every message sent between simulated hosts (before loss or delivery) to {@code observer},
     * with the vertices it goes between: for experiments that count what crosses which links.
     */
    public void observe(SendObserver observer) {
        this.observer = observer;
    }

    /**
     * Models work handed to {@code stage}, a stage not {@linkplain #defineStage defined}, as taking
     * {@code nanos} of virtual time, unbounded and using no core (the model before stages were
     * defined; kept for tests that need only a delay).
     */
    public void setStageServiceTime(String stage, long nanos) {
        stageServiceNanos.put(stage, nanos);
    }

    long stageServiceNanos(String stage) {
        return stageServiceNanos.getOrDefault(stage, 0L);
    }

    /**
     * Gives every host the stage {@code spec} describes: its queue bound and threads as over TCP, and
     * its service time on the host's cores. A host builds the stage when it first submits to it, from
     * the definition at that time, so define stages before the agents that use them start.
     */
    public void defineStage(SimStageSpec spec) {
        stageSpecs.put(spec.name(), spec);
    }

    /** The definition of {@code stage}, or null if it is not modelled. */
    public SimStageSpec stageSpec(String stage) {
        return stageSpecs.get(stage);
    }

    /** Sets how many cores each host's stages share, for hosts that have not used a stage yet. */
    public void setCores(int cores) {
        if (cores < 1) {
            throw new IllegalArgumentException("a host needs at least one core, got " + cores);
        }
        this.cores = cores;
    }

    /** Cores per host. */
    public int cores() {
        return cores;
    }

    /** The host at {@code vertex} (live or not), or null if none was started there. */
    public SimEnv env(int vertex) {
        return host(vertex);
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
        env.setClockSkew(clockSkewNanos(vertex));
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
        tap.accept(message);
        WireMessage delivered = wireCheck == null ? message : roundTrip(message);
        int fromVertex = from.self().address().port();
        int toVertex = to.port();
        observer.sent(fromVertex, toVertex, message);
        if (fromVertex != toVertex && (cut(fromVertex, toVertex)
                || (lossProbability > 0 && lossRandom.nextDouble() < lossProbability))) {
            messagesLost++;
            messagesDropped++;
            return;
        }
        boolean twice = duplicateProbability > 0 && fromVertex != toVertex && faultRandom().nextDouble() < duplicateProbability;
        dispatch(from.self(), fromVertex, toVertex, message, delivered);
        if (twice) {
            messagesDuplicated++;
            dispatch(from.self(), fromVertex, toVertex, message, wireCheck == null ? message : roundTrip(message));
        }
    }

    /** Sends one copy of {@code message} on its way: over the queued links, then the latency (and any jitter). */
    private void dispatch(NodeHandle sender, int fromVertex, int toVertex, WireMessage message, WireMessage delivered) {
        Runnable deliver = () -> {
            SimEnv target = host(toVertex);
            if (target == null || !target.isAlive()) {
                messagesDropped++;
                return;
            }
            if (cut(fromVertex, toVertex)) {
                messagesLost++;
                messagesDropped++;
                return;
            }
            target.deliver(sender, delivered);
        };
        long propagation = latency.latencyNanos(fromVertex, toVertex) + jitterNanos(fromVertex, toVertex);
        SharedLink[] path = queuedPath(fromVertex, toVertex);
        if (path.length == 0) {
            sim.at(propagation, deliver);
            return;
        }
        new Transit(path, (long) fromVertex << 32 | toVertex, frameBytes(message), sim.now(), () -> sim.at(propagation, deliver))
                .cross(0);
    }

    private long jitterNanos(int fromVertex, int toVertex) {
        if (jitterProbability <= 0 || maxJitterNanos <= 0 || fromVertex == toVertex
                || faultRandom().nextDouble() >= jitterProbability) {
            return 0;
        }
        messagesJittered++;
        return (long) (faultRandom().nextDouble() * maxJitterNanos);
    }

    /** The queued links from {@code from} to {@code to} in the order crossed (store and forward). */
    private SharedLink[] queuedPath(int from, int to) {
        if (links == null || from == to) {
            return NO_LINKS;
        }
        AccessLink up = accessLinks.get(from);
        AccessLink down = accessLinks.get(to);
        int hops = links.path(from, to, pathBuffer);
        SharedLink[] path = new SharedLink[hops + (up == null ? 0 : 1) + (down == null ? 0 : 1)];
        int i = 0;
        if (up != null) {
            path[i++] = up.up();
        }
        for (int h = 0; h < hops; h++) {
            path[i++] = shared[pathBuffer[h]];
        }
        if (down != null) {
            path[i] = down.down();
        }
        return path;
    }

    /**
     * A message crossing its queued links one after another: each link takes it once the one
     * before has sent all of it; a full buffer drops it there, having used the links before.
     */
    private final class Transit {
        private final SharedLink[] path;
        private final long flow;
        private final long bytes;
        private final long startNanos;
        private final Runnable arrived;

        Transit(SharedLink[] path, long flow, long bytes, long startNanos, Runnable arrived) {
            this.path = path;
            this.flow = flow;
            this.bytes = bytes;
            this.startNanos = startNanos;
            this.arrived = arrived;
        }

        void cross(int hop) {
            if (hop == path.length) {
                long spent = sim.now() - startNanos;
                queueingNanos += spent;
                maxQueueingNanos = Math.max(maxQueueingNanos, spent);
                arrived.run();
                return;
            }
            if (!path[hop].offer(flow, bytes, bufferNanos, () -> cross(hop + 1))) {
                messagesOverflowed++;
                messagesDropped++;
            }
        }
    }

    private long frameBytes(WireMessage message) {
        ByteBuf frame = Frames.encode(sizer, message, unpooledUntracked);
        try {
            return frame.readableBytes();
        } finally {
            frame.release();
        }
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
