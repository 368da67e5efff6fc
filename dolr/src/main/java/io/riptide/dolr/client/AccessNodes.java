package io.riptide.dolr.client;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.Env;
import io.riptide.core.runtime.MessageHandler;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.runtime.PendingRequests;
import io.riptide.core.wire.Answer;
import io.riptide.core.wire.Question;
import io.riptide.core.wire.WireMessage;
import io.riptide.dolr.client.ClientMessages.ClientAnswer;
import io.riptide.dolr.client.ClientMessages.ClientAnycast;
import io.riptide.dolr.client.ClientMessages.ClientAsk;
import io.riptide.dolr.client.ClientMessages.ClientReadReply;
import io.riptide.dolr.membership.MembershipMessages.Ping;
import io.riptide.dolr.membership.MembershipMessages.Pong;
import io.riptide.dolr.membership.MembershipMessages.RowReply;
import io.riptide.dolr.membership.MembershipMessages.RowRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A client's view of the overlay: the nearest few nodes it sends its requests through. It starts from
 * configured seeds, measures their RTT, asks the nearest for its local neighbours to find nearer
 * ones, and keeps re-measuring. An access node whose connection is lost ({@link #unreachable}) or that
 * lets a read reach its deadline is marked down at once and the next nearest takes over; a down node
 * is pinged again with a backoff ({@link DownNodes}) and used again once it answers. Reads are hedged
 * ({@link HedgedReads}). The client never joins, so it never churns anyone's routing state.
 */
public final class AccessNodes implements MessageHandler, OverlayAccess {
    /** An access node and its measured round-trip time. */
    public record Access(NodeHandle node, long rttNanos) {
    }

    /** At most this many discovered seeds are kept: announcements are unauthenticated, and every seed is pinged each period. */
    public static final int MAX_DISCOVERED = 64;

    private final Env env;
    /** Configured seeds first, then any added later with {@link #addSeed}; kept for good. */
    private final List<NodeAddress> seeds;
    /** Seeds found on the local network, apart from the configured ones: bounded, and dropped when withdrawn. */
    private final Set<NodeAddress> discovered = new LinkedHashSet<>();
    private long discoveredRefused;
    private final int keep;
    private final Duration probeEvery;
    private final Duration deadline;
    private final HedgedReads reads;
    private final DownNodes down;
    private final PendingRequests<Optional<Answer>> asks;
    private final Map<Long, Probe> probes = new HashMap<>();
    private final Map<Id, Access> known = new LinkedHashMap<>();
    private final Set<Id> explored = new HashSet<>();
    private long nextNonce;

    private record Probe(NodeAddress to, long sentAt) {
    }

    /**
     * @param keep       how many of the nearest nodes to use (requests go to the nearest; the rest stand by)
     * @param probeEvery how often seeds and access nodes are measured again
     * @param deadline   how long a read may take before it fails and its access node is marked down
     */
    public AccessNodes(Env env, List<NodeAddress> seeds, int keep, Duration probeEvery, Duration deadline) {
        this.env = env;
        this.seeds = new ArrayList<>(seeds);
        this.keep = keep;
        this.probeEvery = probeEvery;
        this.deadline = deadline;
        this.reads = new HedgedReads(env, deadline, this::liveNodes, this::markDown);
        this.down = new DownNodes(env, probeEvery, this::ping);
        this.asks = new PendingRequests<>(env);
    }

    /** Measures the seeds now and then every probe period. */
    public void start() {
        refresh();
        env.periodic(probeEvery, this::refresh);
    }

    /**
     * Adds a seed after the start, such as a node found on the local network, and measures it at once;
     * from then on it is measured every period like the others. A seed already known is ignored.
     */
    public void addSeed(NodeAddress seed) {
        if (!seeds.contains(seed)) {
            seeds.add(seed);
            discovered.remove(seed);
            ping(seed);
        }
    }

    /**
     * Adds a seed found on the local network and measures it at once; from then on it is measured
     * every period until {@link #removeDiscovered} drops it. Ignored if already a seed; refused (and
     * counted) when {@link #MAX_DISCOVERED} are already kept. True if it was added.
     */
    public boolean addDiscovered(NodeAddress seed) {
        if (seeds.contains(seed) || discovered.contains(seed)) {
            return false;
        }
        if (discovered.size() >= MAX_DISCOVERED) {
            discoveredRefused++;
            return false;
        }
        discovered.add(seed);
        ping(seed);
        return true;
    }

    /**
     * Drops a seed found on the local network, its service withdrawn or expired: it is no longer
     * measured. A configured seed is never dropped. True if it was a discovered seed.
     */
    public boolean removeDiscovered(NodeAddress seed) {
        return discovered.remove(seed);
    }

    /** The seeds measured each period: configured (and {@link #addSeed added}), then discovered. */
    public List<NodeAddress> seeds() {
        List<NodeAddress> all = new ArrayList<>(seeds);
        all.addAll(discovered);
        return List.copyOf(all);
    }

    /** The seeds found on the local network and not withdrawn, in the order found. */
    public List<NodeAddress> discovered() {
        return List.copyOf(discovered);
    }

    /** Discovered seeds refused so far because {@link #MAX_DISCOVERED} were already kept. */
    public long discoveredRefused() {
        return discoveredRefused;
    }

    private void refresh() {
        for (NodeAddress seed : seeds()) {
            ping(seed);
        }
        for (Access a : active()) {
            ping(a.node().address());
        }
        List<Access> nearest = active();
        if (!nearest.isEmpty()) {
            explore(nearest.get(0).node());
        }
        // Looking only around the nearest can stall in a local minimum (its rows hold nobody nearer):
        // each period one more known node, nearest first, is looked around too.
        explored.retainAll(known.keySet());
        reads.retain(known.keySet());
        List<Access> all = new ArrayList<>(known.values());
        all.sort(Comparator.comparingLong(Access::rttNanos));
        for (Access a : all) {
            if (explored.add(a.node().id())) {
                explore(a.node());
                break;
            }
        }
        long now = env.nowNanos();
        probes.values().removeIf(p -> now - p.sentAt() > probeEvery.toNanos());
    }

    /**
     * Asks {@code node} for its local neighbours (nearer nodes, if it is near) and its first routing
     * row (nodes all over the network, some of them maybe nearer still): candidates to measure.
     */
    private void explore(NodeHandle node) {
        env.send(node.address(), new RowRequest(-1));
        env.send(node.address(), new RowRequest(0));
    }

    private void ping(NodeAddress to) {
        long nonce = ++nextNonce;
        probes.put(nonce, new Probe(to, env.nowNanos()));
        env.send(to, new Ping(nonce, false));
    }

    /** The access nodes in use, nearest first. */
    public List<Access> active() {
        List<Access> all = new ArrayList<>(known.values());
        all.sort(Comparator.comparingLong(Access::rttNanos));
        return all.size() > keep ? new ArrayList<>(all.subList(0, keep)) : all;
    }

    /** The access nodes in use, nearest first, without their RTTs. */
    private List<NodeHandle> liveNodes() {
        List<Access> nearest = active();
        List<NodeHandle> nodes = new ArrayList<>(nearest.size());
        nearest.forEach(a -> nodes.add(a.node()));
        return nodes;
    }

    /** The access nodes down now, pinged again in the background until they answer. */
    public List<NodeHandle> down() {
        return down.nodes();
    }

    /**
     * The transport lost its connection to {@code address} (closed, reset, refused, or its handshake
     * failed): an access node there is marked down at once, and reads waiting on it go to the next
     * live access node now rather than at their deadline.
     */
    public void unreachable(NodeAddress address) {
        List<NodeHandle> there = new ArrayList<>();
        for (Access a : known.values()) {
            if (a.node().address().equals(address)) {
                there.add(a.node());
            }
        }
        there.forEach(n -> markDown(n, "connection lost"));
        reads.lost(address);
    }

    private void markDown(NodeHandle node, String why) {
        List<Access> before = active();
        if (known.remove(node.id()) == null) {
            return; // already down, or no longer an access node
        }
        down.markDown(node, why);
        reads.forget(node.id());
        List<Access> after = active();
        if (!after.isEmpty() && !before.get(0).node().equals(after.get(0).node())) {
            explore(after.get(0).node()); // a new nearest node: look around it
        }
    }

    @Override
    public void onMessage(NodeHandle from, WireMessage message) {
        if (message instanceof Pong pong) {
            Probe p = probes.remove(pong.nonce());
            if (p != null) {
                boolean back = down.up(from.id());
                List<Access> before = active();
                known.put(from.id(), new Access(from, env.nowNanos() - p.sentAt()));
                if (back) {
                    ping(from.address()); // that round trip included a new connection: measure it again on the open one
                }
                trim();
                List<Access> after = active();
                if (before.isEmpty() || !before.get(0).node().equals(after.get(0).node())) {
                    explore(after.get(0).node()); // a new nearest node: look around it
                }
            }
        } else if (message instanceof RowReply reply && reply.row() <= 0) {
            for (NodeHandle h : reply.entries()) {
                // A down node is pinged on its own backoff, not each time a neighbour names it.
                if (!known.containsKey(h.id()) && !down.isDown(h.id())) {
                    ping(h.address());
                }
            }
        } else if (message instanceof ClientReadReply reply) {
            reads.onReply(reply);
        } else if (message instanceof ClientAnswer answer) {
            asks.complete(answer.requestId(), Optional.ofNullable(answer.answer()));
        }
    }

    private void trim() {
        // Keep a few more than are used, so a failure has someone to fall back on without waiting.
        if (known.size() > 4 * keep) {
            List<Access> all = new ArrayList<>(known.values());
            all.sort(Comparator.comparingLong(Access::rttNanos));
            known.clear();
            for (Access a : all.subList(0, 4 * keep)) {
                known.put(a.node().id(), a);
            }
            reads.retain(known.keySet());
        }
    }

    /**
     * Reads the nearest replica of {@code guid} through the nearest live access node, hedged to the
     * next nearest when late, and sent on at once when its access node's connection is lost
     * ({@link HedgedReads}).
     */
    @Override
    public void read(Id guid, int ttl, Consumer<ObjectRead> done) {
        reads.read(guid, ttl, done);
    }

    /** How long a read through the nearest access node waits before it is hedged to the second now. */
    public Duration hedgeDelay() {
        List<NodeHandle> nodes = liveNodes();
        return nodes.isEmpty() ? deadline.dividedBy(4) : reads.hedgeDelay(nodes.get(0));
    }

    /** Hedges, re-sends, and access nodes lost and down. */
    @Override
    public AccessFigures accessFigures() {
        return reads.figures(down.lost(), down.nodes());
    }

    /** Sends {@code payload} to the nearest provider of {@code service}, through the nearest access node. */
    @Override
    public void anycast(Id service, WireMessage payload, int ttl) {
        send(new ClientAnycast(service, ttl, payload));
    }

    /** As {@link #anycast}, falling back to {@code fallbackPayload} for {@code fallbackService} if {@code service} has no provider. */
    @Override
    public void anycast(Id service, WireMessage payload, Id fallbackService, WireMessage fallbackPayload, int ttl) {
        send(new ClientAnycast(service, ttl, payload, fallbackService, fallbackPayload));
    }

    /**
     * Asks {@code question} of the nearest provider of {@code service} through the nearest access
     * node, which relays the answer. Not hedged: a question may start work (a gateway's origin fetch)
     * that a second copy would repeat. Empty if no access node is known or none answered in time.
     */
    @Override
    public void ask(Id service, Question question, int ttl, Duration within, Consumer<Optional<Answer>> done) {
        List<Access> nearest = active();
        long millis = Math.min(within.toMillis(), ClientMessages.MAX_ASK_MILLIS);
        if (nearest.isEmpty() || millis <= 0) {
            done.accept(Optional.empty());
            return;
        }
        // The access node's own deadline is the one asked for; this side waits a little longer for its relay.
        long id = asks.add(Duration.ofMillis(millis).plus(deadline), done, Optional::empty);
        env.send(nearest.get(0).node().address(), new ClientAsk(id, service, ttl, millis, question));
    }

    @Override
    public Duration readDeadline() {
        return deadline;
    }

    private void send(ClientAnycast anycast) {
        List<Access> nearest = active();
        if (!nearest.isEmpty()) {
            env.send(nearest.get(0).node().address(), anycast);
        }
    }
}
