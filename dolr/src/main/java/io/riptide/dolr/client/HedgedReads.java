package io.riptide.dolr.client;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.Cancellable;
import io.riptide.core.runtime.Env;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.runtime.PendingRequests;
import io.riptide.dolr.client.ClientMessages.ClientRead;
import io.riptide.dolr.client.ClientMessages.ClientReadReply;
import io.riptide.dolr.location.LocationMessages.FailureReason;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A client's reads through its access nodes, each sent to the nearest live one and, when it is late,
 * hedged to the next: "late" is later than 95% of recent answers through that node
 * ({@link ReadLatencies}), at least {@link #MIN_HEDGE}, at most a quarter of the deadline, and hedges
 * are bounded by a {@link HedgeBudget}. The first answer wins; later ones are only measured. An access
 * node whose connection is lost ({@link #lost}) costs its reads nothing more: each is sent at once to
 * the next live node not yet tried. A node that hangs with its connection open is told apart from a slow
 * overlay by its silence ({@link Silence}): when it has answered nothing for {@link #hungAfter} while
 * reads waited on it, and another access node has just answered promptly a read sent during that
 * silence, it is marked down and its reads are sent on as a lost node's are; when every node is slow,
 * none is. Runs on the client's loop.
 */
final class HedgedReads {
    /** The least a read waits before it is hedged: below this a second read costs more than it saves. */
    static final Duration MIN_HEDGE = Duration.ofMillis(5);
    /** Hedged reads at most, per read sent, in the long run (Dean and Barroso hedge about 5% of requests). */
    static final double HEDGE_RATIO = 0.1;
    /** Hedges that may be sent at once before the budget is earned again by reads. */
    static final int HEDGE_BURST = 10;
    /**
     * The least silence that marks a node hung: longer than a collection pause or a busy host's stall, far
     * shorter than a read's deadline. The silence must also be several of the node's hedge delays.
     */
    static final Duration MIN_HUNG = Duration.ofMillis(500);
    /** Hedge delays (the node's 95th percentile) of silence before a node may be called hung. */
    static final int HUNG_HEDGE_DELAYS = 8;

    private final Env env;
    private final Duration deadline;
    private final Duration maxHedge;
    private final Supplier<List<NodeHandle>> live;
    private final BiConsumer<NodeHandle, String> down;
    private final PendingRequests<ClientReadReply> pending;
    private final Map<Long, Attempt> inFlight = new HashMap<>();
    private final Map<Id, ReadLatencies> byNode = new HashMap<>();
    private final Map<Id, Silence> silences = new HashMap<>();
    private final ReadLatencies all = new ReadLatencies();
    private final HedgeBudget budget;
    private long hedged;
    private long hedgeWins;
    private long resent;
    private long hung;

    /** One read asked for by the client, across the access nodes it was sent through. */
    private final class Read {
        final Id guid;
        final int ttl;
        final long start;
        final Consumer<ObjectRead> done;
        final Set<Id> tried = new HashSet<>();
        int outstanding;
        boolean finished;
        boolean hedged;
        Cancellable hedgeTimer;
        /** An access node's answer that it could not read in time, kept in case no other answers. */
        ClientReadReply gaveUp;

        Read(Id guid, int ttl, Consumer<ObjectRead> done) {
            this.guid = guid;
            this.ttl = ttl;
            this.start = env.nowNanos();
            this.done = done;
        }

        long leftNanos() {
            return deadline.toNanos() - (env.nowNanos() - start);
        }
    }

    /** One {@code ClientRead} sent through one access node. */
    private static final class Attempt {
        final Read read;
        final NodeHandle via;
        final long sentAt;
        final boolean hedge;
        /** Its node's silence when it was sent (a node forgotten and back has a new one). */
        Silence silence;
        long id;
        /** Its access node's connection was lost: no answer will come. */
        boolean lost;

        Attempt(Read read, NodeHandle via, long sentAt, boolean hedge) {
            this.read = read;
            this.via = via;
            this.sentAt = sentAt;
            this.hedge = hedge;
        }
    }

    /**
     * @param deadline   how long a read may take in all
     * @param live       the live access nodes, nearest first
     * @param down       told of an access node to mark down, and why: it let a read reach its deadline
     *                   unanswered, or it hung
     */
    HedgedReads(Env env, Duration deadline, Supplier<List<NodeHandle>> live, BiConsumer<NodeHandle, String> down) {
        this(env, deadline, live, down, new HedgeBudget(HEDGE_RATIO, HEDGE_BURST));
    }

    HedgedReads(Env env, Duration deadline, Supplier<List<NodeHandle>> live, BiConsumer<NodeHandle, String> down, HedgeBudget budget) {
        this.env = env;
        this.deadline = deadline;
        this.maxHedge = deadline.dividedBy(4);
        this.live = live;
        this.down = down;
        this.pending = new PendingRequests<>(env);
        this.budget = budget;
    }

    /** Reads {@code guid} through the nearest live access node; {@code done} runs once, within the deadline. */
    void read(Id guid, int ttl, Consumer<ObjectRead> done) {
        List<NodeHandle> nodes = live.get();
        if (nodes.isEmpty()) {
            done.accept(ObjectRead.failed(guid, FailureReason.TIMEOUT));
            return;
        }
        budget.onRead();
        Read read = new Read(guid, ttl, done);
        send(read, nodes.get(0), false);
        hedgeLater(read, nodes.get(0));
    }

    /** An access node's answer to one of these reads. */
    void onReply(ClientReadReply reply) {
        pending.complete(reply.requestId(), reply);
    }

    /**
     * The connection to {@code address} was lost: reads waiting on it are sent at once to the next
     * live access node they have not tried (or fail now, if there is none and nothing else is on its way).
     */
    void lost(NodeAddress address) {
        List<Attempt> theirs = new ArrayList<>();
        for (Attempt a : inFlight.values()) {
            if (a.via.address().equals(address)) {
                theirs.add(a);
            }
        }
        for (Attempt a : theirs) {
            a.lost = true;
            pending.complete(a.id, null);
        }
    }

    /** Forgets what was measured of {@code node} (down, or no longer an access node): it starts afresh if it comes back. */
    void forget(Id node) {
        byNode.remove(node);
        silences.remove(node);
    }

    /** Keeps measurements only of {@code nodes}. */
    void retain(Set<Id> nodes) {
        byNode.keySet().retainAll(nodes);
        silences.keySet().retainAll(nodes);
    }

    /** How long a read through {@code via} waits before it is hedged. */
    Duration hedgeDelay(NodeHandle via) {
        return hedgeDelay(via.id());
    }

    private Duration hedgeDelay(Id via) {
        ReadLatencies own = byNode.get(via);
        long p95 = own != null && own.known() ? own.p95() : all.known() ? all.p95() : maxHedge.toNanos();
        long floor = Math.min(MIN_HEDGE.toNanos(), maxHedge.toNanos());
        return Duration.ofNanos(Math.max(floor, Math.min(maxHedge.toNanos(), p95)));
    }

    /**
     * How long {@code via} may answer nothing while reads wait on it before it is called hung: eight of its
     * hedge delays, at least {@link #MIN_HUNG}, at most half the deadline (past that the deadline decides).
     */
    Duration hungAfter(NodeHandle via) {
        return hungAfter(via.id());
    }

    private Duration hungAfter(Id via) {
        long eight = hedgeDelay(via).toNanos() * HUNG_HEDGE_DELAYS;
        return Duration.ofNanos(Math.min(deadline.toNanos() / 2, Math.max(MIN_HUNG.toNanos(), eight)));
    }

    /** What has been counted so far (without the down nodes, which are {@link AccessNodes}' to tell). */
    AccessFigures figures(long nodesLost, List<NodeHandle> down) {
        return new AccessFigures(hedged, hedgeWins, budget.refused(), resent, nodesLost, hung, down);
    }

    private void send(Read read, NodeHandle via, boolean hedge) {
        read.tried.add(via.id());
        read.outstanding++;
        Attempt a = new Attempt(read, via, env.nowNanos(), hedge);
        a.id = pending.add(Duration.ofNanos(Math.max(1, read.leftNanos())), reply -> answered(a, reply), () -> null);
        inFlight.put(a.id, a);
        a.silence = silences.computeIfAbsent(via.id(), id -> new Silence());
        a.silence.sent(a.sentAt);
        env.send(via.address(), new ClientRead(a.id, read.guid, read.ttl));
    }

    private void hedgeLater(Read read, NodeHandle primary) {
        if (read.hedged) {
            return; // one hedge per read: a third copy would cost more than it could save
        }
        if (read.hedgeTimer != null) {
            read.hedgeTimer.cancel();
        }
        Duration wait = hedgeDelay(primary);
        if (wait.toNanos() < read.leftNanos()) {
            read.hedgeTimer = env.schedule(wait, () -> hedge(read));
        }
    }

    private void hedge(Read read) {
        read.hedgeTimer = null;
        if (read.finished || read.hedged) {
            return;
        }
        NodeHandle next = untried(read);
        if (next == null || !budget.tryHedge()) {
            return;
        }
        read.hedged = true;
        hedged++;
        send(read, next, true);
    }

    /** An attempt ended: {@code reply} is its access node's answer, or null if it was lost or reached the deadline. */
    private void answered(Attempt a, ClientReadReply reply) {
        inFlight.remove(a.id);
        Read read = a.read;
        read.outstanding--;
        boolean timedOut = reply == null && !a.lost;
        long now = env.nowNanos();
        if (reply != null) {
            a.silence.answered(now);
        } else {
            a.silence.abandoned();
        }
        if (reply != null && reply.failure() != FailureReason.TIMEOUT) {
            // Measured even when another attempt answered first: a slow node must not look fast.
            long took = env.nowNanos() - a.sentAt;
            byNode.computeIfAbsent(a.via.id(), id -> new ReadLatencies()).add(took);
            all.add(took);
        }
        if (!read.finished) {
            if (reply != null && reply.failure() != FailureReason.TIMEOUT) {
                // A copy, or an answer as final as one (no replica): the first such answer is the read's.
                if (a.hedge) {
                    hedgeWins++;
                }
                finish(read, reply);
            } else {
                if (reply != null) {
                    read.gaveUp = reply;
                }
                retryOrGiveUp(read);
            }
        }
        if (timedOut) {
            down.accept(a.via, "a read went unanswered");
        }
        if (reply != null) {
            markHung(a, now - a.sentAt);
        }
    }

    /**
     * {@code answered}, sent through another node, came back in {@code took}: a node silent for longer than
     * its {@link #hungAfter} since before that read was sent is hung, not slow, for the overlay and the
     * client's own network just answered promptly. It is marked down and its reads sent on.
     */
    private void markHung(Attempt answered, long took) {
        long now = env.nowNanos();
        Map<Id, Long> silent = new HashMap<>();
        for (Map.Entry<Id, Silence> e : silences.entrySet()) {
            Silence s = e.getValue();
            if (e.getKey().equals(answered.via.id()) || s.since() < 0 || answered.sentAt < s.since()) {
                continue; // the one that answered, one nothing waits on, or a silence that began after the read was sent
            }
            long limit = hungAfter(e.getKey()).toNanos();
            if (s.silentFor(now) >= limit && took < limit) {
                silent.put(e.getKey(), s.silentFor(now));
            }
        }
        for (Map.Entry<Id, Long> e : silent.entrySet()) {
            NodeHandle node = waitingOn(e.getKey());
            if (node == null) {
                continue;
            }
            hung++;
            down.accept(node, String.format(Locale.ROOT, "hung: answered nothing for %d ms while %s answered in %d ms",
                    e.getValue() / 1_000_000, answered.via.address(), took / 1_000_000));
            lost(node.address());
        }
    }

    /** The access node some read now waits on whose id is {@code id}, or null. */
    private NodeHandle waitingOn(Id id) {
        for (Attempt a : inFlight.values()) {
            if (a.via.id().equals(id)) {
                return a.via;
            }
        }
        return null;
    }

    /** An attempt gave nothing: wait for another on its way, else try the next live node while time is left. */
    private void retryOrGiveUp(Read read) {
        if (read.outstanding > 0) {
            return;
        }
        NodeHandle next = read.leftNanos() > 0 ? untried(read) : null;
        if (next != null) {
            resent++;
            send(read, next, false);
            hedgeLater(read, next);
            return;
        }
        finish(read, read.gaveUp != null ? read.gaveUp
                : new ClientReadReply(0, read.guid, FailureReason.TIMEOUT, 0, new byte[0]));
    }

    private void finish(Read read, ClientReadReply reply) {
        read.finished = true;
        if (read.hedgeTimer != null) {
            read.hedgeTimer.cancel();
            read.hedgeTimer = null;
        }
        read.done.accept(ObjectRead.of(reply));
    }

    private NodeHandle untried(Read read) {
        for (NodeHandle n : live.get()) {
            if (!read.tried.contains(n.id())) {
                return n;
            }
        }
        return null;
    }
}
