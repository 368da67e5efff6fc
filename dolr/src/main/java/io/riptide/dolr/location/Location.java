package io.riptide.dolr.location;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.Cancellable;
import io.riptide.core.runtime.Env;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.runtime.PendingRequests;
import io.riptide.core.runtime.RoundTripEstimate;
import io.riptide.core.wire.WireMessage;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.bloom.LocalArea;
import io.riptide.dolr.location.LocationMessages.FailureReason;
import io.riptide.dolr.location.LocationMessages.Found;
import io.riptide.dolr.location.LocationMessages.HeadRead;
import io.riptide.dolr.location.LocationMessages.ListReplicas;
import io.riptide.dolr.location.LocationMessages.Locate;
import io.riptide.dolr.location.LocationMessages.LocateFailed;
import io.riptide.dolr.location.LocationMessages.ObjectDelivery;
import io.riptide.dolr.location.LocationMessages.PointerCopy;
import io.riptide.dolr.location.LocationMessages.PointerRecord;
import io.riptide.dolr.location.LocationMessages.Publish;
import io.riptide.dolr.location.LocationMessages.PublishAck;
import io.riptide.dolr.location.LocationMessages.ReadHead;
import io.riptide.dolr.location.LocationMessages.ReadReplica;
import io.riptide.dolr.location.LocationMessages.ReplicaList;
import io.riptide.dolr.location.LocationMessages.ReplicaRead;
import io.riptide.dolr.location.LocationMessages.Rivals;
import io.riptide.dolr.location.LocationMessages.WhereIs;
import io.riptide.dolr.location.PointerStore.Pointer;
import io.riptide.dolr.routing.HopChoice;
import io.riptide.dolr.routing.HopSender;
import io.riptide.dolr.routing.LeafSet;
import io.riptide.dolr.routing.PeerTable;
import io.riptide.dolr.routing.RouteForwarder;
import io.riptide.dolr.routing.RouteHandler;
import io.riptide.dolr.routing.RoutingMessages.Routed;
import io.riptide.dolr.store.OnLoop;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Tapestry-style object location. Publishing routes toward the GUID's root and leaves a pointer at
 * every hop (the root also copies it to its nearest leaf-set neighbours, so a root's failure loses
 * nothing). Locating first asks the local area's Bloom filters, then routes toward the root until the
 * first pointer, which sends the request to the nearest replica; the replica answers the requester
 * directly. A spent hop budget or a root without pointers fails fast.
 *
 * <p>A pointer's distance is the replica's from the holder, not from the requester. When the holder
 * is far from the requester and holds pointers to several replicas whose distances are too close for
 * that to decide (a service offered by several providers, each nearest to someone), it names them to
 * the requester ({@link Rivals}), which measures them and sends its request to its own nearest.
 */
public final class Location {
    private final Env env;
    private final DolrConfig config;
    private final RouteForwarder forwarder;
    private final HopSender hops;
    private final PointerStore pointers;
    private final Predicate<Id> holdsReplica;
    private final java.util.function.Function<Id, CompletableFuture<byte[]>> replicaData;
    private final java.util.function.Function<Id, CompletableFuture<byte[]>> replicaHead;
    private final Supplier<List<Id>> replicas;
    private int republishSlice;
    private long publishRetries;
    private final LocalArea area;
    private final LeafSet leafSet;
    private final PeerTable peers;
    private final Consumer<NodeHandle> onSuspect;
    private final ObjectHandler objects;
    private final java.util.function.Function<Id, List<NodeHandle>> slotBackups;
    private final BiConsumer<NodeHandle, LongConsumer> measure;
    /** Publish hops whose slot backups also get the pointer. */
    private static final int BACKUP_POINTER_HOPS = 2;
    // By request ID; a hedged locate's two attempts map to the same Pending.
    private final Map<Long, Pending> pending = new HashMap<>();
    // How long this node's locates usually take: one still unanswered after this is hedged.
    private final RoundTripEstimate locateTimes;
    private final PendingRequests<Boolean> publishAcks;
    private final PendingRequests<Optional<ReplicaList>> listings;
    private long nextRequest;
    private long located;
    private long failedLocates;
    private long hedged;
    private long hedgeWins;
    private long chosenByRequester;
    private long rootsAsked;
    // Further roots each replica's pointers go to (0: the GUID's own root only); see SaltedRoots.
    private int saltedRoots;

    /** The least a locate waits before it is hedged: below this a second route costs more than it saves. */
    public static final Duration MIN_HEDGE = Duration.ofMillis(50);
    /** Hedges are at most this share of locates (a budget, as gRPC throttles retries): more would add load where queues are already long. */
    static final double HEDGE_SHARE = 0.1;
    /** Hedges that may be spent at once after a quiet spell. */
    static final double MAX_HEDGE_TOKENS = 10;
    private double hedgeTokens = MAX_HEDGE_TOKENS;

    /** A requester's wait for an answer: one attempt, or two once hedged. */
    private static final class Pending {
        final long id;
        final Id guid;
        final long startedAt;
        final Consumer<LocateResult> done;
        WireMessage payload; // what to hand the replica this node chooses among rivals
        int ttl;
        Cancellable deadline = () -> { };
        Cancellable hedgeTimer = () -> { };
        long hedgeId; // 0 until hedged
        NodeHandle firstHop; // where the first attempt's deterministic route went first, if anywhere
        int outstanding = 1;

        Pending(long id, Id guid, long startedAt, Consumer<LocateResult> done) {
            this.id = id;
            this.guid = guid;
            this.startedAt = startedAt;
            this.done = done;
        }
    }

    public Location(Env env, DolrConfig config, RouteForwarder forwarder, HopSender hops, PointerStore pointers,
                    Predicate<Id> holdsReplica, java.util.function.Function<Id, CompletableFuture<byte[]>> replicaData,
                    java.util.function.Function<Id, CompletableFuture<byte[]>> replicaHead,
                    Supplier<List<Id>> replicas, LocalArea area, LeafSet leafSet,
                    PeerTable peers, Consumer<NodeHandle> onSuspect, ObjectHandler objects,
                    java.util.function.Function<Id, List<NodeHandle>> slotBackups,
                    BiConsumer<NodeHandle, LongConsumer> measure) {
        this.env = env;
        this.config = config;
        this.saltedRoots = config.saltedRoots();
        this.forwarder = forwarder;
        this.hops = hops;
        this.pointers = pointers;
        this.holdsReplica = holdsReplica;
        this.replicaData = replicaData;
        this.replicaHead = replicaHead;
        this.replicas = replicas;
        this.area = area;
        this.leafSet = leafSet;
        this.peers = peers;
        this.onSuspect = onSuspect;
        this.objects = objects;
        this.slotBackups = slotBackups;
        this.measure = measure;
        this.publishAcks = new PendingRequests<>(env);
        this.listings = new PendingRequests<>(env);
        Duration deadline = config.locateDeadline();
        this.locateTimes = new RoundTripEstimate(deadline.dividedBy(3), MIN_HEDGE, deadline.dividedBy(2));
    }

    /** Starts republishing this node's replicas and expiring stale pointers. */
    public void start() {
        env.periodic(config.republishInterval().dividedBy(REPUBLISH_SLICES), this::republishSlice);
        env.periodic(config.pointerTtl().dividedBy(4), () -> pointers.expire(env.nowNanos()));
    }


    /**
     * Each round of republishing is spread over its interval in this many slices (a replica's slice is
     * its GUID's hash), so every replica is still republished once an interval but a node holding
     * thousands does not send them in one burst: on a 1.5 Mb/s uplink such a burst (a publish and
     * its pointer copies per replica) outlasts the link's buffer, and what queues behind it is lost.
     */
    static final int REPUBLISH_SLICES = 60;

    private void republishSlice() {
        int slice = republishSlice;
        republishSlice = (slice + 1) % REPUBLISH_SLICES;
        for (Id guid : replicas.get()) {
            if (guid.slice(REPUBLISH_SLICES) == slice) {
                publish(guid);
            }
        }
    }

    // ---- publishing ----------------------------------------------------------------------------

    /**
     * Announces that this node holds a replica of {@code guid}. With salted roots on (an overlay that
     * expects hostile nodes), every root is asked to confirm, and a publish it does not confirm is
     * sent again by other first hops ({@link #PUBLISH_TRIES} in all): a hostile hop that drops the
     * publish and plants a pointer to itself would otherwise keep the replica out of that root's list.
     */
    public void publish(Id guid) {
        if (saltedRoots == 0) {
            forwarder.route(new Routed(guid, env.self(), 0, 0, new Publish(guid, env.self(), false, 0)));
            return;
        }
        for (int salt = 0; salt <= saltedRoots; salt++) {
            publishConfirmed(guid, SaltedRoots.key(guid, salt), new HashSet<>(), PUBLISH_TRIES);
        }
    }

    /** Tries a publish to each root makes, where roots confirm (salted roots on). */
    static final int PUBLISH_TRIES = 3;

    private void publishConfirmed(Id guid, Id rootKey, Set<Id> firstHopsTried, int triesLeft) {
        long ackId = publishAcks.add(config.locateDeadline(), rooted -> {
            if (!rooted && triesLeft > 1 && holdsReplica.test(guid)) {
                publishRetries++;
                publishConfirmed(guid, rootKey, firstHopsTried, triesLeft - 1);
            }
        }, () -> false);
        NodeHandle first = forwarder.route(new Routed(rootKey, env.self(), 0, 0, new Publish(guid, env.self(), false, ackId)),
                firstHopsTried);
        if (first != null) {
            firstHopsTried.add(first.id());
        }
    }

    /** Publishes sent again because their root did not confirm them (salted roots on). */
    public long publishRetries() {
        return publishRetries;
    }

    /**
     * Has this node's publishes also leave pointers on the routes to {@code roots} salted roots of
     * each GUID ({@link SaltedRoots}), where redundant reads look when the plain route fails. Every
     * node of a deployment should use the same number: readers look at the roots publishers use.
     */
    public void useSaltedRoots(int roots) {
        if (roots < 0 || roots > SaltedRoots.MAX) {
            throw new IllegalArgumentException("salted roots " + roots + " not in 0.." + SaltedRoots.MAX);
        }
        this.saltedRoots = roots;
    }

    /** How many salted roots this node's publishes reach besides the GUID's own. */
    public int saltedRoots() {
        return saltedRoots;
    }

    private void publishToSaltedRoots(Id guid, boolean withdraw) {
        for (int i = 1; i <= saltedRoots; i++) {
            forwarder.route(new Routed(SaltedRoots.key(guid, i), env.self(), 0, 0, new Publish(guid, env.self(), withdraw, 0)));
        }
    }

    /**
     * Announces a replica and tells {@code rooted} whether the publish reached the root within the
     * locate deadline: once it has, a locate from anywhere finds the replica.
     */
    public void publish(Id guid, Consumer<Boolean> rooted) {
        long ackId = publishAcks.add(config.locateDeadline(), rooted, () -> false);
        forwarder.route(new Routed(guid, env.self(), 0, 0, new Publish(guid, env.self(), false, ackId)));
        publishToSaltedRoots(guid, false);
    }

    /** The root confirmed a publish of ours. */
    public void onPublishAck(PublishAck ack) {
        publishAcks.complete(ack.ackId(), true);
    }

    /** Withdraws this node's pointers for {@code guid}. */
    public void unpublish(Id guid) {
        forwarder.route(new Routed(guid, env.self(), 0, 0, new Publish(guid, env.self(), true, 0)));
        publishToSaltedRoots(guid, true);
    }

    /** Route handler for {@link Publish}: a pointer at every hop, copies at the root. */
    public RouteHandler publishHandler() {
        return new RouteHandler() {
            @Override
            public boolean onHop(Routed message, boolean atRoot) {
                Publish p = (Publish) message.payload();
                if (p.withdraw()) {
                    pointers.remove(p.guid(), p.replica().id());
                } else {
                    pointers.put(p.guid(), p.replica(), message.pathNanos(), env.nowNanos() + config.pointerTtl().toNanos());
                    measureRivals(p.guid());
                }
                if (!atRoot && message.hops() < BACKUP_POINTER_HOPS) {
                    copyToBackups(p, message);
                }
                return true;
            }

            @Override
            public void onRoot(Routed message) {
                Publish p = (Publish) message.payload();
                long remaining = p.withdraw() ? 0 : config.pointerTtl().toMillis();
                PointerCopy copy = new PointerCopy(List.of(new PointerRecord(p.guid(), p.replica(), message.pathNanos(), remaining)));
                for (NodeHandle n : rootSetNeighbours()) {
                    env.send(n.address(), copy);
                }
                if (p.ackId() != 0) {
                    PublishAck ack = new PublishAck(p.guid(), p.ackId());
                    if (p.replica().id().equals(env.self().id())) {
                        onPublishAck(ack);
                    } else {
                        env.send(p.replica().address(), ack);
                    }
                }
            }
        };
    }

    /**
     * On the first hops of a publish, the pointer also goes to the backup candidates of the slot the
     * publish leaves through (Tapestry's "pointers to backups"): a nearby requester routes through a
     * different candidate of the same slot often, and should still meet the pointer a hop away.
     */
    private void copyToBackups(Publish p, Routed message) {
        long remaining = p.withdraw() ? 0 : config.pointerTtl().toMillis();
        PointerCopy copy = null;
        for (NodeHandle backup : slotBackups.apply(p.guid())) {
            if (copy == null) {
                copy = new PointerCopy(List.of(new PointerRecord(p.guid(), p.replica(), message.pathNanos(), remaining)));
            }
            env.send(backup.address(), copy);
        }
    }

    private List<NodeHandle> rootSetNeighbours() {
        List<NodeHandle> out = new ArrayList<>();
        List<NodeHandle> left = leafSet.left();
        List<NodeHandle> right = leafSet.right();
        for (int i = 0; i < config.pointerReplicas(); i++) {
            if (i < left.size() && !out.contains(left.get(i))) {
                out.add(left.get(i));
            }
            if (i < right.size() && !out.contains(right.get(i))) {
                out.add(right.get(i));
            }
        }
        return out;
    }

    /**
     * Pointers copied from {@code from}: a root, a publish hop (to its slot's backups), or a leaf-set
     * neighbour handing over. A record's distance is the replica's from the sender, so this node adds
     * its own distance to the sender: a copy sent across the wide area must not look as near as the
     * sender's pointer, or a locate meeting it first goes to a far replica over a near one.
     */
    public void onPointerCopy(NodeHandle from, PointerCopy copy) {
        long now = env.nowNanos();
        long rtt = peers.distance(from.id());
        // Not measured yet: assume the sender as far as the farthest peer heard lately.
        long toSender = (rtt >= 0 ? rtt : peers.recentHighRtt(now)) / 2;
        for (PointerRecord r : copy.pointers()) {
            if (r.remainingMillis() <= 0) {
                pointers.remove(r.guid(), r.replica().id());
            } else {
                long ttl = Math.min(r.remainingMillis(), config.pointerTtl().toMillis());
                long distance = r.replica().id().equals(env.self().id()) ? 0 : r.distanceNanos() + toSender;
                pointers.put(r.guid(), r.replica(), distance, now + ttl * 1_000_000L);
                measureRivals(r.guid());
            }
        }
    }

    /**
     * A pointer's distance starts as the length of the path its publish or copy took, which can be
     * far longer than the replica really is from here: a copy from the root adds the root's whole
     * path to the hop back. With one replica that does not matter; with several, a locate here goes
     * to the one that looks nearest, so their distances are measured (once per peer: the peer table
     * keeps them). Without this, a campus whose path to a service's root met a copy of a new nearby
     * provider's pointer went on using a farther one.
     */
    private void measureRivals(Id guid) {
        List<Pointer> found = pointers.lookup(guid, env.nowNanos());
        if (found.size() < 2) {
            return;
        }
        for (Pointer p : found) {
            NodeHandle replica = p.replica();
            if (!replica.id().equals(env.self().id())) {
                measure.accept(replica, rtt -> {
                    if (rtt >= 0) {
                        pointers.shorten(guid, replica.id(), rtt / 2);
                    }
                });
            }
        }
    }

    /**
     * A node joined this node's leaf set: hand it the pointers of objects whose root set (the root and
     * its nearest neighbours) now includes it, so location survives the root's failure.
     */
    public void onLeafAdded(NodeHandle added) {
        long now = env.nowNanos();
        List<PointerRecord> handover = new ArrayList<>();
        List<NodeHandle> known = new ArrayList<>(leafSet.members());
        known.add(env.self());
        int setSize = 2 * config.pointerReplicas() + 1;
        for (Id guid : pointers.guids()) {
            known.sort(Comparator.comparing((NodeHandle h) -> h.id().ringDistance(guid)).thenComparing(NodeHandle::id));
            List<NodeHandle> rootSet = known.subList(0, Math.min(setSize, known.size()));
            if (rootSet.contains(added) && rootSet.contains(env.self())) {
                for (Pointer p : pointers.lookup(guid, now)) {
                    handover.add(new PointerRecord(guid, p.replica(), p.distanceNanos(), (p.expiresAt() - now) / 1_000_000L));
                    if (handover.size() == LocationMessages.MAX_POINTERS) {
                        env.send(added.address(), new PointerCopy(handover));
                        handover = new ArrayList<>();
                    }
                }
            }
        }
        if (!handover.isEmpty()) {
            env.send(added.address(), new PointerCopy(handover));
        }
    }

    /** A peer failed: its replicas are gone. */
    public void onFailed(NodeHandle peer) {
        pointers.removeNode(peer.id());
    }

    // ---- locating ------------------------------------------------------------------------------

    /**
     * Finds a replica of {@code guid} within {@code ttl} hops and hands it {@code payload}
     * ({@link WhereIs} to just find it); {@code done} hears which replica answered, or why none did.
     *
     * <p>A find or a read ({@link WhereIs}, {@link ReadReplica}, {@link ReadHead}) still unanswered when
     * this node's locates usually have been ({@link #hedgeDelay}) is hedged: the same request goes again
     * by the deterministic route through another first hop, and by then avoids the hops the first attempt
     * found dead, so one dead or congested path costs the hedge delay rather than the deadline. Either attempt's answer ends the
     * wait; a fast failure of one waits for the other. Payloads delivered to the object are never sent
     * twice.
     */
    public void locate(Id guid, WireMessage payload, int ttl, boolean useBloom, Consumer<LocateResult> done) {
        Pending p = awaitAnswer(guid, done);
        p.payload = payload;
        p.ttl = ttl;
        int bloom = useBloom && config.bloomEnabled() ? config.bloomLevels() - 1 : 0;
        hedgeTokens = Math.min(MAX_HEDGE_TOKENS, hedgeTokens + HEDGE_SHARE);
        if (payload instanceof WhereIs || payload instanceof ReadHead) {
            p.firstHop = forwarder.nextHop(guid);
            p.hedgeTimer = env.schedule(locateTimes.timeout(), () -> hedge(p, ttl, payload));
        }
        onDirectLocate(new Locate(guid, env.self(), p.id, ttl, 0, bloom, payload), null);
    }

    private void hedge(Pending p, int ttl, WireMessage payload) {
        if (pending.get(p.id) != p) {
            return; // answered, or failed with nothing left to wait for
        }
        if (hedgeTokens < 1) {
            return; // over the hedge budget: when most locates are late, the path is congested, not broken
        }
        hedgeTokens -= 1;
        hedged++;
        p.hedgeId = ++nextRequest;
        p.outstanding++;
        pending.put(p.hedgeId, p);
        // Another first hop than the first attempt's, so one stalled path does not hold both.
        Locate again = new Locate(p.guid, env.self(), p.hedgeId, ttl, 0, 0, payload);
        forwarder.route(new Routed(p.guid, env.self(), 0, 0, again), p.firstHop == null ? Set.of() : Set.of(p.firstHop.id()));
    }

    /**
     * Reads {@code guid} by the deterministic route toward {@code routeKey} (the GUID itself or one of
     * its {@link SaltedRoots}), the first hop none of {@code avoid}, with no Bloom step and no hedge:
     * one of a redundant read's independent attempts. Returns the first hop taken (null: this node
     * is that key's root).
     */
    public NodeHandle readVia(Id guid, Id routeKey, Set<Id> avoid, int ttl, Consumer<LocateResult> done) {
        Pending p = awaitAnswer(guid, done);
        p.payload = new ReadReplica();
        p.ttl = ttl;
        Locate request = new Locate(guid, env.self(), p.id, ttl, 0, 0, p.payload);
        if (holdsReplica.test(guid)) {
            deliverHere(request);
            return null;
        }
        return forwarder.route(new Routed(routeKey, env.self(), 0, 0, request), avoid);
    }

    /** How long a locate waits now before it is hedged. */
    public Duration hedgeDelay() {
        return locateTimes.timeout();
    }

    /**
     * Reads {@code guid} from the replica at {@code replica}, not the nearest one. Should that node no
     * longer hold it, the request goes on as a plain read, so {@code done} names whoever answered.
     */
    public void readAt(NodeHandle replica, Id guid, int ttl, Consumer<LocateResult> done) {
        long id = awaitAnswer(guid, done).id;
        Locate request = new Locate(guid, env.self(), id, ttl, 0, 0, new ReadReplica());
        if (replica.id().equals(env.self().id())) {
            onDelivery(new ObjectDelivery(request));
            return;
        }
        hops.send(replica, new ObjectDelivery(request.step(0)), () -> finish(id, null, FailureReason.TIMEOUT, 1, null));
    }

    private Pending awaitAnswer(Id guid, Consumer<LocateResult> done) {
        Pending p = new Pending(++nextRequest, guid, env.nowNanos(), done);
        p.deadline = env.schedule(config.locateDeadline(), () -> {
            if (pending.get(p.id) == p) {
                end(p, p.id, null, FailureReason.TIMEOUT, -1, null);
            }
        });
        pending.put(p.id, p);
        return p;
    }

    /**
     * Asks {@code guid}'s root for every replica its pointers name: {@code done} hears them (empty
     * when none is published), or nothing at all (an empty Optional) if the root did not answer.
     */
    public void listReplicas(Id guid, Consumer<Optional<List<NodeHandle>>> done) {
        listReplicasVia(guid, guid, Set.of(), done);
    }

    /**
     * As {@link #listReplicas}, but asks the root of {@code routeKey} (the GUID's own or one of its
     * {@link SaltedRoots}, where publishes leave pointers too), the first hop none of {@code avoid}:
     * a redundant read's way round false pointers, which a pointer holder would follow before the
     * true one. Returns the first hop taken (null: this node is that key's root).
     */
    public NodeHandle listReplicasVia(Id guid, Id routeKey, Set<Id> avoid, Consumer<Optional<List<NodeHandle>>> done) {
        // A list for another GUID under our request ID (a confused or lying node) counts as no answer.
        long id = listings.add(config.locateDeadline(),
                reply -> done.accept(reply.filter(list -> list.guid().equals(guid)).map(ReplicaList::replicas)), Optional::empty);
        return forwarder.route(new Routed(routeKey, env.self(), 0, 0, new ListReplicas(guid, env.self(), id)), avoid);
    }

    /** Route handler for {@link ListReplicas}: passes every hop, and the root answers. */
    public RouteHandler listHandler() {
        return new RouteHandler() {
            @Override
            public boolean onHop(Routed message, boolean atRoot) {
                return true; // on to the root, which alone is sure to hold every pointer
            }

            @Override
            public HopChoice hopChoice() {
                return HopChoice.NEAR_CLOSEST_TO_KEY; // nothing on the way is asked
            }

            @Override
            public void onRoot(Routed message) {
                ListReplicas request = (ListReplicas) message.payload();
                List<NodeHandle> holders = new ArrayList<>();
                if (holdsReplica.test(request.guid())) {
                    holders.add(env.self());
                }
                livePointers(request.guid()).forEach(p -> holders.add(p.replica()));
                ReplicaList answer = new ReplicaList(request.requestId(), request.guid(),
                        holders.stream().distinct().limit(LocationMessages.MAX_POINTERS).toList());
                if (request.requester().id().equals(env.self().id())) {
                    onReplicaList(answer);
                } else {
                    env.send(request.requester().address(), answer);
                }
            }
        };
    }

    /** The root's answer to a {@link #listReplicas} of this node's. */
    public void onReplicaList(ReplicaList list) {
        listings.complete(list.requestId(), Optional.of(list));
    }

    private void finish(long requestId, NodeHandle replica, FailureReason failure, int hopCount, byte[] data) {
        Pending p = pending.get(requestId);
        if (p == null) {
            return;
        }
        if (replica == null && p.outstanding > 1) {
            // One attempt failed; the other may yet answer.
            p.outstanding--;
            pending.remove(requestId);
            return;
        }
        end(p, requestId, replica, failure, hopCount, data);
    }

    private void end(Pending p, long answeredId, NodeHandle replica, FailureReason failure, int hopCount, byte[] data) {
        pending.remove(p.id);
        if (p.hedgeId != 0) {
            pending.remove(p.hedgeId);
        }
        p.deadline.cancel();
        p.hedgeTimer.cancel();
        long elapsed = env.nowNanos() - p.startedAt;
        if (replica != null) {
            located++;
            if (config.bloomEnabled() && !replica.id().equals(env.self().id())) {
                area.answeredBy(replica, elapsed); // a nearby replica's filter may be worth keeping
            }
            if (answeredId == p.hedgeId) {
                hedgeWins++;
            }
            // The first attempt's time; when the hedge won, the first took at least this long.
            locateTimes.sample(elapsed);
        } else {
            failedLocates++;
        }
        p.done.accept(new LocateResult(p.guid, replica, failure, hopCount, elapsed, data));
    }

    /** A replica's answer. */
    public void onFound(NodeHandle from, Found found) {
        finish(found.requestId(), from, null, found.hops(), null);
    }

    /** A replica's answer to a read. */
    public void onReplicaRead(NodeHandle from, ReplicaRead read) {
        if (!forGuid(read.requestId(), read.guid())) {
            return;
        }
        finish(read.requestId(), from, null, read.hops(), read.data());
    }

    /** Whether request {@code id} is for {@code guid}: an answer for another object (a confused or lying node) is ignored. */
    private boolean forGuid(long id, Id guid) {
        Pending p = pending.get(id);
        return p == null || p.guid.equals(guid);
    }

    /** A replica's answer to a digest-first read: its head, carried as the result's data. */
    public void onHeadRead(NodeHandle from, HeadRead read) {
        finish(read.requestId(), from, null, read.hops(), read.head());
    }

    /** A fast failure. */
    public void onLocateFailed(LocateFailed failed) {
        if (!forGuid(failed.requestId(), failed.guid())) {
            return;
        }
        finish(failed.requestId(), null, failed.reason(), failed.hops(), null);
    }

    /**
     * A locate at this node outside deterministic routing: just issued here, or sent here because
     * this node's Bloom filter (as its neighbour saw it) claimed the object. {@code from} is the
     * neighbour that sent it, or null.
     */
    public void onDirectLocate(Locate request, NodeHandle from) {
        if (holdsReplica.test(request.guid())) {
            deliverHere(request);
            return;
        }
        if (request.bloomHops() > 0 && request.hops() < request.ttl()) {
            Id requester = request.requester().id();
            List<LocalArea.Match> matches = area.matches(request.guid(), request.bloomHops(),
                    id -> id.equals(requester) || (from != null && id.equals(from.id())) || peers.isDead(id, env.nowNanos()));
            if (!matches.isEmpty()) {
                tryBloom(request, matches, 0);
                return;
            }
        }
        routeOn(request);
    }

    private void tryBloom(Locate request, List<LocalArea.Match> matches, int index) {
        if (index >= matches.size() || index >= 2) {
            routeOn(request);
            return;
        }
        LocalArea.Match m = matches.get(index);
        hops.send(m.neighbour(), request.step(m.level() - 1), () -> {
            onSuspect.accept(m.neighbour());
            tryBloom(request, matches, index + 1);
        });
    }

    private void routeOn(Locate request) {
        Locate deterministic = request.atHops(request.hops());
        forwarder.route(new Routed(request.guid(), env.self(), request.hops(), 0, deterministic));
    }

    /** Route handler for {@link Locate}: stop at the first pointer, fail fast at the root or when the budget is spent. */
    public RouteHandler locateHandler() {
        return new RouteHandler() {
            @Override
            public boolean onHop(Routed message, boolean atRoot) {
                Locate request = ((Locate) message.payload()).atHops(message.hops());
                if (holdsReplica.test(request.guid())) {
                    deliverHere(request);
                    return false;
                }
                List<Pointer> found = livePointers(request.guid());
                if (!found.isEmpty()) {
                    List<NodeHandle> rivals = rivals(request, found, message.pathNanos());
                    if (rivals.size() > 1) {
                        nameRivals(request, rivals);
                    } else {
                        followPointers(request, found, 0);
                    }
                    return false;
                }
                if (atRoot) {
                    askNextRoot(request);
                    return false;
                }
                if (request.hops() + 1 > request.ttl()) {
                    fail(request, FailureReason.TTL_EXPIRED);
                    return false;
                }
                return true;
            }

            @Override
            public void onRoot(Routed message) {
                onHop(message, true);
            }
        };
    }

    private List<Pointer> livePointers(Id guid) {
        long now = env.nowNanos();
        List<Pointer> out = new ArrayList<>();
        for (Pointer p : pointers.lookup(guid, now)) {
            if (p.replica().id().equals(env.self().id())) {
                pointers.remove(guid, p.replica().id()); // our own, but the replica is gone
            } else if (!peers.isDead(p.replica().id(), now)) {
                out.add(p);
            }
        }
        return out;
    }

    /**
     * The replicas that might be the requester's nearest, by the triangle inequality: this node is at
     * most {@code pathNanos} from the requester, so a replica {@code d} from here is between
     * {@code d - path} and {@code d + path} from it, and any replica within twice the path of the
     * nearest pointer's distance might beat it. Reads keep the holder's choice: their answer carries
     * the object, and a detour through the requester would add a round trip to every one.
     */
    private List<NodeHandle> rivals(Locate request, List<Pointer> found, long pathNanos) {
        if (found.size() < 2 || request.payload() instanceof ReadReplica || request.payload() instanceof ReadHead
                || request.hops() + 1 > request.ttl()) {
            return List.of();
        }
        long bound = found.get(0).distanceNanos() + 2 * pathNanos;
        List<Pointer> within = new ArrayList<>(found.subList(1, found.size()));
        within.removeIf(p -> p.distanceNanos() > bound);
        // Beyond the holder's own nearest, the likeliest to lie near the requester first: those about
        // as far from here as the requester is (pointers near this node are all about as far from it).
        within.sort(Comparator.comparingLong(p -> Math.abs(p.distanceNanos() - pathNanos)));
        List<NodeHandle> out = new ArrayList<>(List.of(found.get(0).replica()));
        for (Pointer p : within) {
            if (out.size() < LocationMessages.MAX_RIVALS) {
                out.add(p.replica());
            }
        }
        return out;
    }

    /**
     * This node took itself for the GUID's root and holds no pointer. Right after joins its leaf set
     * may lack a node nearer the GUID (the true root, which holds the pointers, or one of its
     * neighbours, which hold copies): the request goes once to its leaf-set member nearest the GUID,
     * which routes it on by its own leaf set. A second root without pointers answers NOT_FOUND.
     */
    private void askNextRoot(Locate request) {
        NodeHandle next = null;
        if (!request.rootChecked() && request.hops() + 1 <= request.ttl()) {
            long now = env.nowNanos();
            for (NodeHandle h : leafSet.members()) {
                if (!h.id().equals(request.requester().id()) && !peers.isDead(h.id(), now)
                        && (next == null || request.guid().compareRingDistance(h.id(), next.id()) < 0)) {
                    next = h;
                }
            }
        }
        if (next == null) {
            fail(request, FailureReason.NOT_FOUND);
            return;
        }
        rootsAsked++;
        hops.send(next, new ObjectDelivery(request.rootWasChecked().step(0)), () -> fail(request, FailureReason.NOT_FOUND));
    }

    private void nameRivals(Locate request, List<NodeHandle> rivals) {
        Rivals named = new Rivals(request.requestId(), request.guid(), request.hops(), rivals);
        if (request.requester().id().equals(env.self().id())) {
            onRivals(named);
        } else {
            env.send(request.requester().address(), named);
        }
    }

    /** A pointer holder named several replicas that might be this node's nearest: measure them and send to the nearest. */
    public void onRivals(Rivals rivals) {
        Pending p = pending.get(rivals.requestId());
        if (p == null || !p.guid.equals(rivals.guid()) || p.payload == null || rivals.replicas().isEmpty()) {
            return; // answered already, or not a request of ours
        }
        long attempt = rivals.requestId();
        NearestFirst.order(env, peers, measure, rivals.replicas(), locateTimes.timeout(), ordered -> {
            if (pending.get(attempt) == p) {
                chosenByRequester++;
                deliverTo(p, attempt, rivals.hops(), ordered, 0);
            }
        });
    }

    private void deliverTo(Pending p, long attempt, int hopsSoFar, List<NodeHandle> ordered, int index) {
        if (index >= ordered.size() || pending.get(attempt) != p) {
            finish(attempt, null, FailureReason.TIMEOUT, hopsSoFar, null);
            return;
        }
        NodeHandle replica = ordered.get(index);
        Locate request = new Locate(p.guid, env.self(), attempt, p.ttl, hopsSoFar + 1, 0, p.payload);
        if (replica.id().equals(env.self().id())) {
            onDelivery(new ObjectDelivery(request));
            return;
        }
        hops.send(replica, new ObjectDelivery(request), () -> {
            onSuspect.accept(replica);
            deliverTo(p, attempt, hopsSoFar, ordered, index + 1);
        });
    }

    private void followPointers(Locate request, List<Pointer> found, int index) {
        if (index >= found.size()) {
            routeOn(request);
            return;
        }
        if (request.hops() + 1 > request.ttl()) {
            fail(request, FailureReason.TTL_EXPIRED);
            return;
        }
        NodeHandle replica = found.get(index).replica();
        hops.send(replica, new ObjectDelivery(request.step(0)), () -> {
            // Only suspected: a slow replica is skipped while under suspicion, and its pointers go
            // when membership confirms the failure (onFailed). Removing the pointer here would lose
            // a live object until its next republish.
            onSuspect.accept(replica);
            followPointers(request, found, index + 1);
        });
    }

    /** A located request reached the node a pointer named. */
    public void onDelivery(ObjectDelivery delivery) {
        Locate request = delivery.request();
        if (holdsReplica.test(request.guid())) {
            deliverHere(request);
        } else {
            // The pointer was stale: this node no longer holds the object. Keep looking.
            routeOn(request);
        }
    }

    private void deliverHere(Locate request) {
        NodeHandle requester = request.requester();
        boolean self = requester.id().equals(env.self().id());
        if (request.payload() instanceof ReadReplica) {
            OnLoop.then(env, replicaData.apply(request.guid()), data -> {
                if (data == null) {
                    routeOn(request); // evicted between the check and now, or lost by the tier
                    return;
                }
                ReplicaRead read = new ReplicaRead(request.requestId(), request.guid(), request.hops(), data);
                if (self) {
                    onReplicaRead(env.self(), read);
                } else {
                    env.send(requester.address(), read);
                }
            });
            return;
        }
        if (request.payload() instanceof ReadHead) {
            OnLoop.then(env, replicaHead.apply(request.guid()), head -> {
                if (head == null) {
                    routeOn(request);
                    return;
                }
                HeadRead read = new HeadRead(request.requestId(), request.guid(), request.hops(), head);
                if (self) {
                    onHeadRead(env.self(), read);
                } else {
                    env.send(requester.address(), read);
                }
            });
            return;
        }
        Found found = new Found(request.requestId(), request.guid(), request.hops());
        if (self) {
            onFound(env.self(), found);
        } else {
            env.send(requester.address(), found);
        }
        if (!(request.payload() instanceof WhereIs)) {
            objects.deliverToObject(request.guid(), request.payload(), requester, request.requestId(), request.hops());
        }
    }

    private void fail(Locate request, FailureReason reason) {
        LocateFailed failed = new LocateFailed(request.requestId(), request.guid(), reason, request.hops());
        if (request.requester().id().equals(env.self().id())) {
            onLocateFailed(failed);
        } else {
            env.send(request.requester().address(), failed);
        }
    }

    /** Locates answered by a replica. */
    public long located() {
        return located;
    }

    /** Locates that failed (not found, budget spent, or timed out). */
    public long failedLocates() {
        return failedLocates;
    }

    /** Locates answered, failed and hedged so far. */
    public LocateStats stats() {
        return new LocateStats(located, failedLocates, hedged, hedgeWins, chosenByRequester, rootsAsked);
    }

    /** Locates still waiting. */
    public int inFlight() {
        return (int) pending.values().stream().distinct().count();
    }
}
