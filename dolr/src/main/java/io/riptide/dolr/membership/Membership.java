package io.riptide.dolr.membership;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.Cancellable;
import io.riptide.core.runtime.Env;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.throttle.Throttle;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.membership.MembershipMessages.Announce;
import io.riptide.dolr.membership.MembershipMessages.Join;
import io.riptide.dolr.membership.MembershipMessages.JoinRequest;
import io.riptide.dolr.membership.MembershipMessages.JoinState;
import io.riptide.dolr.membership.MembershipMessages.LeafSetGossip;
import io.riptide.dolr.membership.MembershipMessages.LeafSetRequest;
import io.riptide.dolr.membership.MembershipMessages.Leave;
import io.riptide.dolr.membership.MembershipMessages.Ping;
import io.riptide.dolr.membership.MembershipMessages.Pong;
import io.riptide.dolr.membership.MembershipMessages.RowReply;
import io.riptide.dolr.membership.MembershipMessages.RowRequest;
import io.riptide.dolr.routing.LeafSet;
import io.riptide.dolr.routing.PeerTable;
import io.riptide.dolr.routing.RouteForwarder;
import io.riptide.dolr.routing.RouteHandler;
import io.riptide.dolr.routing.RoutingMessages.Routed;
import io.riptide.dolr.routing.RoutingTable;
import io.riptide.dolr.secure.SourceGroup;
import io.riptide.dolr.secure.SourceLimit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Keeps a node in the overlay: joins through any known node, keeps the leaf set alive and
 * consistent with heartbeats that carry leaf sets, leases routing-table entries, declares silent
 * peers failed and repairs around them, and keeps looking for nearer routing-table candidates
 * (proximity neighbour selection).
 */
public final class Membership implements RouteHandler {
    private final Env env;
    private final DolrConfig config;
    private final RoutingTable table;
    private final LeafSet leafSet;
    private final PeerTable peers;
    private final Prober prober;
    private final RouteForwarder forwarder;
    private final MembershipListener listener;
    private final Supplier<List<NodeHandle>> localNeighbours;
    private final Map<Id, Long> leafSince = new HashMap<>();
    private final GossipContents gossipContents = new GossipContents();
    // At most one correction per sender per heartbeat, the rate at which an honest sender gossips.
    private final Throttle<Id> corrections;
    private final SourceLimit sourceLimit;
    // Joins this node starts for each source (address prefix) a minute: see onJoinRequest.
    private final Throttle<String> joinsBySource;
    private long joinsRefused;
    private long correctionsSent;
    private boolean joined;
    private boolean maintainedOnce;
    /** A leaf-set repair is scheduled for the end of this turn of the loop (failures batch into one). */
    private boolean leafRepairDue;
    private NodeAddress bootstrap;
    private Cancellable joinRetry;
    private int joinAttempts;
    private long failures;
    private long candidatesSkipped;
    private long departures;

    public Membership(Env env, DolrConfig config, RoutingTable table, LeafSet leafSet, PeerTable peers, Prober prober,
                      RouteForwarder forwarder, MembershipListener listener, Supplier<List<NodeHandle>> localNeighbours) {
        this.env = env;
        this.config = config;
        this.table = table;
        this.leafSet = leafSet;
        this.peers = peers;
        this.prober = prober;
        this.forwarder = forwarder;
        this.listener = listener;
        this.localNeighbours = localNeighbours;
        this.corrections = Throttle.oncePer(config.heartbeatInterval(), 256);
        this.sourceLimit = new SourceLimit(config.sourceLimits(), this::routingState);
        this.joinsBySource = Throttle.perWindow(JOIN_WINDOW, joinsPerSource(config), MAX_JOIN_SOURCES);
    }

    /** The window over which joins are counted per source. */
    static final Duration JOIN_WINDOW = Duration.ofMinutes(1);
    /** Sources whose joins are remembered, at most (the oldest forgotten first). */
    static final int MAX_JOIN_SOURCES = 4096;

    /**
     * Joins one source may start through this node in {@link #JOIN_WINDOW}: as many as its limit of
     * node IDs could ask for if each retried at the join timeout all the while. A Sybil's join costs
     * every node on its path a {@code JoinState} of table rows, so a source that joins more than its
     * IDs could is only spending others' uplinks.
     */
    static int joinsPerSource(DolrConfig config) {
        long retries = Math.max(1, JOIN_WINDOW.toNanos() / Math.max(1, config.joinTimeout().toNanos()));
        return (int) Math.min(Integer.MAX_VALUE, config.sourceLimits().idsPerSource() * retries);
    }

    private Iterable<NodeHandle> routingState() {
        List<NodeHandle> all = new ArrayList<>(table.all());
        all.addAll(leafSet.members());
        return all;
    }

    public boolean isJoined() {
        return joined;
    }

    /** Peers declared failed so far. */
    public long failures() {
        return failures;
    }

    /** Starts a new overlay with this node alone in it. */
    public void startAlone() {
        becomeJoined();
    }

    /** Joins the overlay that the node at {@code bootstrapAddress} belongs to; retries until it succeeds. */
    public void join(NodeAddress bootstrapAddress) {
        this.bootstrap = bootstrapAddress;
        sendJoinRequest();
    }

    private void sendJoinRequest() {
        if (joined) {
            return;
        }
        joinAttempts++;
        env.send(bootstrap, new JoinRequest(env.self()));
        joinRetry = env.schedule(config.joinTimeout(), this::sendJoinRequest);
    }

    /** How many join requests this node has sent. */
    public int joinAttempts() {
        return joinAttempts;
    }

    private void becomeJoined() {
        if (joined) {
            return;
        }
        joined = true;
        if (joinRetry != null) {
            joinRetry.cancel();
        }
        for (NodeHandle member : leafSet.members()) {
            env.send(member.address(), new Announce());
        }
        startTimers();
        listener.onJoined();
    }

    private void startTimers() {
        env.periodic(config.heartbeatInterval(), this::heartbeat);
        // Checking twice per lease bounds the time a failed entry lingers to about 1.5 leases.
        env.periodic(config.tableCheckInterval().dividedBy(2), this::checkTable);
        env.periodic(config.maintenanceInterval(), this::maintain);
    }


    // ---- joining -------------------------------------------------------------------------------

    /** A new node asks this one to route its join. */
    public void onJoinRequest(NodeHandle from, JoinRequest request) {
        if (!joined || !request.joiner().id().equals(from.id())) {
            return;
        }
        String source = SourceGroup.of(from.address(), config.sourceLimits());
        if (source != null && !joinsBySource.admit(source, env.nowNanos())) {
            joinsRefused++; // unanswered: the joiner retries at its join timeout, as after a loss
            return;
        }
        peers.rejoined(from.id());
        forwarder.route(new Routed(request.joiner().id(), request.joiner(), 0, 0, new Join(request.joiner())));
    }

    @Override
    public boolean onHop(Routed message, boolean atRoot) {
        NodeHandle joiner = ((Join) message.payload()).joiner();
        if (joiner.id().equals(env.self().id())) {
            return false;
        }
        peers.rejoined(joiner.id());
        int shared = env.self().id().sharedPrefixLength(joiner.id());
        List<NodeHandle> rows = new ArrayList<>();
        for (int row = 0; row <= Math.min(shared, Id.DIGITS - 1); row++) {
            rows.addAll(table.row(row));
        }
        rows.removeIf(h -> h.id().equals(joiner.id()));
        List<NodeHandle> leaves = atRoot ? without(leafSet.members(), joiner.id()) : List.of();
        env.send(joiner.address(), new JoinState(atRoot, rows, leaves));
        return true;
    }

    @Override
    public void onRoot(Routed message) {
        // The root already answered in onHop; the join ends here.
    }

    /**
     * A join is never routed to the joiner itself. Its ID is known already when it restarts (same
     * key, same ID) before every peer has declared its last incarnation failed: those peers would
     * route its join to it, as the node nearest the key, where it ends unanswered, and the node
     * would never join (it answers pings, so nobody ever drops it). Its root is the nearest other node.
     */
    @Override
    public boolean bypasses(Routed message, Id id) {
        return message.payload() instanceof Join join && join.joiner().id().equals(id);
    }

    private static List<NodeHandle> without(List<NodeHandle> list, Id id) {
        List<NodeHandle> out = new ArrayList<>(list);
        out.removeIf(h -> h.id().equals(id));
        return out;
    }

    /** A node on the join path sent its state. */
    public void onJoinState(NodeHandle from, JoinState state) {
        learn(from);
        for (NodeHandle h : state.table()) {
            learn(h);
        }
        for (NodeHandle h : state.leafSet()) {
            learn(h);
        }
        if (state.root() && !joined) {
            addToLeafSet(from);
            for (NodeHandle h : state.leafSet()) {
                addToLeafSet(h);
            }
            becomeJoined();
        }
    }

    /** A node that just joined announced itself: to its leaf set at once, to the rest of its table after its first round. */
    public void onAnnounce(NodeHandle from) {
        peers.rejoined(from.id());
        peers.heard(from, env.nowNanos());
        addToLeafSet(from);
        learn(from);
    }

    // ---- learning peers --------------------------------------------------------------------------

    /** Considers {@code peer} for the routing state, measuring its RTT first if needed. */
    public void learn(NodeHandle peer) {
        Id id = peer.id();
        long now = env.nowNanos();
        if (id.equals(env.self().id()) || peers.isDead(id, now)) {
            return;
        }
        long rtt = peers.distance(id);
        if (rtt >= 0 && peers.lastHeard(id) > now - config.heartbeatInterval().toNanos()) {
            offerMeasured(peer, rtt);
            return;
        }
        prober.probe(peer, sample -> {
            if (sample >= 0) {
                long distance = peers.distance(id); // the sample is folded in already
                offerMeasured(peer, distance >= 0 ? Math.min(distance, sample) : sample);
            } else if (table.contains(id) || leafSet.contains(id)) {
                fail(peer);
            }
        });
    }

    /** Learns {@code peer} only if some part of the routing state has room for it: for peers met in passing. */
    public void learnIfUseful(NodeHandle peer) {
        Id id = peer.id();
        if (id.equals(env.self().id()) || peers.isMeasured(id) || prober.isProbing(id)) {
            return;
        }
        int row = table.rowOf(id);
        if (leafSet.wouldAccept(id) || table.slotSize(row, id.digit(row)) < config.slotCandidates()) {
            learn(peer);
        }
    }

    /** A live peer with a known RTT: offer it to the routing table, the leaf set and listeners. */
    public void offerMeasured(NodeHandle peer, long rttNanos) {
        if ((table.wouldKeep(peer.id(), rttNanos) || leafSet.wouldAccept(peer.id())) && !sourceLimit.admits(peer)) {
            // One more ID from a source that has the most allowed: not a routing candidate, nor a
            // local neighbour (a machine's free keys must not crowd out other machines anywhere).
            return;
        }
        if (!joined && bootstrap != null && leafSet.size() == 0) {
            // Before the root answers, fill the table but leave the leaf set to the root's view.
            table.offer(peer, rttNanos);
            listener.onMeasured(peer, rttNanos);
            return;
        }
        table.offer(peer, rttNanos);
        addToLeafSet(peer);
        listener.onMeasured(peer, rttNanos);
    }

    private void addToLeafSet(NodeHandle peer) {
        if (peers.isDead(peer.id(), env.nowNanos())) {
            return;
        }
        if (leafSet.wouldAccept(peer.id()) && !sourceLimit.admits(peer)) {
            return;
        }
        if (leafSet.add(peer)) {
            leafSince.put(peer.id(), env.nowNanos());
            // The newcomer may have pushed others out of the leaf set.
            leafSince.keySet().removeIf(id -> !leafSet.contains(id));
            listener.onLeafAdded(peer);
        }
    }

    // ---- keep-alive, failure detection and repair ------------------------------------------------

    private void heartbeat() {
        long now = env.nowNanos();
        // Heartbeats queue behind everything else on a busy uplink: allow for the slowest recent round trip.
        long limit = Math.max(config.failAfter().toNanos(),
                2 * peers.recentHighRtt(now) + config.heartbeatInterval().toNanos());
        for (NodeHandle member : leafSet.members()) {
            long since = Math.max(peers.lastHeard(member.id()), leafSince.getOrDefault(member.id(), now));
            if (now - since > limit) {
                fail(member);
            } else if (now - since > limit / 2) {
                // Half the limit without a heartbeat: ask directly, since a lost heartbeat, or a member
                // whose own leaf set does not include this node (it knows nearer ones), is silent but
                // alive. An answer refreshes when it was last heard; none, and the limit fails it.
                prober.probe(member, rtt -> { });
            }
        }
        List<NodeHandle> members = leafSet.members();
        gossipContents.beginPeriod(members);
        LeafSetGossip full = new LeafSetGossip(members);
        for (NodeHandle member : members) {
            List<NodeHandle> contents = gossipContents.forMember(member, members);
            env.send(member.address(), contents == members ? full : new LeafSetGossip(contents));
        }
    }

    /** A leaf-set member's heartbeat. */
    public void onLeafSetGossip(NodeHandle from, LeafSetGossip gossip) {
        long now = env.nowNanos();
        peers.heard(from, now);
        if (!leafSet.contains(from.id()) && !leafSet.wouldAccept(from.id()) && corrections.admit(from.id(), now)) {
            // The sender counts this node among its nearest, but this node knows enough nodes nearer to
            // the sender that the sender is not among its own: the sender's view is wrong. Tell it the
            // side of this node's set that faces it: all nearer to it than this node is. Without this, a
            // node whose join a false root answered keeps a leaf set of far nodes that never answer with
            // their sets, and its true neighbours never hear of it (10,000 nodes, seed 3: three nodes of
            // one stub knew only each other and far nodes, and keys between them went to the wrong root).
            Id self = env.self().id();
            boolean clockwise = self.clockwiseTo(from.id()).compareTo(from.id().clockwiseTo(self)) < 0;
            env.send(from.address(), new LeafSetGossip(clockwise ? leafSet.right() : leafSet.left()));
            correctionsSent++;
        }
        addToLeafSet(from);
        for (NodeHandle h : gossip.leafSet()) {
            if (h.id().equals(env.self().id()) || !leafSet.wouldAccept(h.id())) {
                continue;
            }
            if (!peers.isDead(h.id(), now)) {
                // Second-hand members are checked before they are taken: the sender may not yet know they failed.
                learn(h);
            } else if (!peers.hasDeparted(h.id(), now)) {
                // Failed here but listed by a member that hears it: perhaps a false alarm while the
                // uplinks queued (two neighbours declaring each other failed then ignore each other for
                // the mark's 70 s, and keys between them route to the wrong root). Ask it directly: an
                // answer clears the mark.
                prober.probe(h, rtt -> {
                    if (rtt >= 0) {
                        learn(h);
                    }
                });
            }
        }
    }

    private void checkTable() {
        long now = env.nowNanos();
        long lease = config.tableCheckInterval().toNanos();
        for (NodeHandle entry : table.all()) {
            // Not heard from within the lease, or its distance rests on too few samples (the table
            // chose it by distance, and so do pointers and the local area).
            boolean silent = now - peers.lastHeard(entry.id()) > lease && !leafSet.contains(entry.id());
            if (silent || peers.wantsDistanceSample(entry.id(), now)) {
                prober.probe(entry, rtt -> {
                    if (rtt >= 0) {
                        table.offer(entry, peers.distance(entry.id()));
                    } else if (silent) {
                        fail(entry); // a peer heard from lately is not failed for one lost sample
                    }
                });
            }
        }
    }

    private void maintain() {
        // Each round one random entry of every row is asked for that row (Castro et al.'s rule):
        // asking one row a round left the deep rows of a 10,000-node overlay unconverged a minute
        // after joining. The replies' RTTs keep the probes to candidates that could beat a slot.
        // (Asking every entry in the first round, Castro et al.'s second join phase, added nothing
        // at 10,000 nodes and queued a stub's uplink for seconds while the first requests ran.)
        boolean firstRound = !maintainedOnce;
        maintainedOnce = true;
        int rows = table.populatedRows();
        for (int row = 0; row < rows; row++) {
            List<NodeHandle> entries = table.row(row);
            if (entries.isEmpty()) {
                continue;
            }
            NodeHandle peer = entries.get(env.random().nextInt(entries.size()));
            env.send(peer.address(), new RowRequest(row));
        }
        if (firstRound) {
            announceToTable();
        }
        List<NodeHandle> near = localNeighbours.get();
        if (!near.isEmpty()) {
            NodeHandle peer = near.get(env.random().nextInt(near.size()));
            env.send(peer.address(), new RowRequest(-1));
        }
    }

    /**
     * Tells every node in this one's routing table that it joined (Pastry's join sends the new
     * node's state to the nodes in its tables). They are near it by construction, so it is a likely
     * candidate for their own tables, and otherwise they learn of it only if a ping finds a slot with
     * room: earlier nodes' full slots kept their first, farther picks, and routes at 10,000 nodes a
     * minute after the joins went 1.54 times the direct delay, 1.47 with this.
     */
    private void announceToTable() {
        for (NodeHandle entry : table.all()) {
            if (!leafSet.contains(entry.id())) {
                env.send(entry.address(), new Announce());
            }
        }
    }

    /** A peer asks for this node's whole leaf set. */
    public void onLeafSetRequest(NodeHandle from) {
        env.send(from.address(), new LeafSetGossip(without(leafSet.members(), from.id())));
    }

    /** A peer asks for a routing-table row, or (row -1) for this node's local neighbours. */
    public void onRowRequest(NodeHandle from, RowRequest request) {
        List<NodeHandle> entries = without(request.row() < 0 ? localNeighbours.get() : table.row(request.row()), from.id());
        List<Integer> rtts = new ArrayList<>(entries.size());
        for (NodeHandle h : entries) {
            long rtt = peers.distance(h.id());
            rtts.add(rtt < 0 ? -1 : (int) Math.min(Integer.MAX_VALUE, rtt / 1_000));
        }
        env.send(from.address(), new RowReply(request.row(), entries, rtts));
    }

    /**
     * A peer's routing-table row or local neighbours: candidates to measure, except those that could
     * not change this node's state. An entry's distance is known if measured before, else bounded
     * below by the triangle inequality from the sender's figure; one its slot would not keep at that
     * distance, and the leaf set would not take, is skipped. On a busy uplink such probes crowd out
     * the ones that could improve the table.
     */
    public void onRowReply(NodeHandle from, RowReply reply) {
        long toSender = peers.distance(from.id());
        for (int i = 0; i < reply.entries().size(); i++) {
            NodeHandle h = reply.entries().get(i);
            long known = peers.distance(h.id());
            long atLeast = known >= 0 ? known : triangleLowerBound(toSender, reply.rttNanos(i));
            if (atLeast >= 0 && !table.wouldKeep(h.id(), atLeast) && !leafSet.wouldAccept(h.id())) {
                candidatesSkipped++;
                continue;
            }
            learn(h);
        }
    }

    /** The least RTT to a node that is {@code viaSecond} from a peer {@code toFirst} away, or -1 if either is unknown. */
    static long triangleLowerBound(long toFirst, long viaSecond) {
        return toFirst < 0 || viaSecond < 0 ? -1 : Math.abs(toFirst - viaSecond);
    }

    /** Leaf sets sent to a node that gossiped to this one although it belongs in none of this one's sides. */
    public long correctionsSent() {
        return correctionsSent;
    }

    /** Nodes refused a place in the routing state because their source address had the most IDs allowed. */
    public long refusedOverSourceLimit() {
        return sourceLimit.refused();
    }

    /** Join requests left unanswered because their source had started its most joins through this node this minute. */
    public long joinsRefused() {
        return joinsRefused;
    }

    /** The source (address prefix) of the last node refused over the per-source limit, or null. */
    public String lastSourceRefused() {
        return sourceLimit.lastRefusedSource();
    }

    /** Row-reply entries not probed because they could not have changed the routing state. */
    public long candidatesSkipped() {
        return candidatesSkipped;
    }

    /** A hop to {@code peer} went unacknowledged: stop routing through it and check whether it lives. */
    public void suspect(NodeHandle peer) {
        long now = env.nowNanos();
        peers.markDead(peer, now + config.failAfter().toNanos());
        prober.probe(peer, rtt -> {
            if (rtt < 0) {
                fail(peer);
            }
        });
    }

    /** Declares {@code peer} failed: out of the table and leaf set, not re-learned second-hand for a while. */
    public void fail(NodeHandle peer) {
        drop(peer, true);
    }

    /** Takes {@code peer} out of the routing state and repairs the gap; {@code failed}: count it as a failure. */
    private void drop(NodeHandle peer, boolean failed) {
        long now = env.nowNanos();
        if (failed) {
            peers.markDead(peer, now + 10 * config.failAfter().toNanos());
        } else {
            peers.markDeparted(peer, now + 10 * config.failAfter().toNanos());
        }
        int row = table.rowOf(peer.id());
        boolean inTable = table.remove(peer.id());
        boolean inLeafSet = leafSet.remove(peer.id());
        leafSince.remove(peer.id());
        if (!inTable && !inLeafSet) {
            listener.onFailed(peer);
            return;
        }
        if (failed) {
            failures++;
        }
        listener.onFailed(peer);
        if (inTable && row < Id.DIGITS && table.slotSize(row, peer.id().digit(row)) == 0) {
            // The slot emptied: a peer in the same row may know another node for it.
            List<NodeHandle> rowPeers = table.row(row);
            if (!rowPeers.isEmpty()) {
                NodeHandle ask = rowPeers.get(env.random().nextInt(rowPeers.size()));
                env.send(ask.address(), new RowRequest(row));
            }
        }
        if (inLeafSet && !leafRepairDue) {
            // Several members found failed at once (one heartbeat's check, a burst of goodbyes) share
            // one repair: after a mass failure, a request per lost member queued on the uplinks just
            // when lookups needed them.
            leafRepairDue = true;
            env.schedule(Duration.ZERO, this::repairLeafSet);
        }
    }

    /**
     * Asks the remaining far edges for their leaf sets to refill the gap at once: they know the nodes
     * just beyond it. (Heartbeats carry only news, so waiting for them could take a minute.) They get
     * this node's set too, as it may tell them of nodes they lack.
     */
    private void repairLeafSet() {
        leafRepairDue = false;
        Set<NodeHandle> edges = new LinkedHashSet<>();
        if (leafSet.leftEdge() != null) {
            edges.add(leafSet.leftEdge());
        }
        if (leafSet.rightEdge() != null) {
            edges.add(leafSet.rightEdge());
        }
        LeafSetGossip gossip = new LeafSetGossip(leafSet.members());
        for (NodeHandle edge : edges) {
            env.send(edge.address(), gossip);
            env.send(edge.address(), new LeafSetRequest());
        }
    }

    /**
     * Says goodbye to every node that routes through this one (leaf set and routing table), so they
     * stop sending here at once. Best effort: a peer that misses it notices the silence as usual.
     */
    public void leave() {
        Set<NodeHandle> told = new LinkedHashSet<>(leafSet.members());
        told.addAll(table.all());
        for (NodeHandle peer : told) {
            env.send(peer.address(), new Leave());
        }
    }

    /** {@code from} is shutting down: out of the routing state now, as if it had failed. */
    public void onLeave(NodeHandle from) {
        departures++;
        drop(from, false);
    }

    /** Peers that announced their own departure. */
    public long departures() {
        return departures;
    }

    /** Answers a ping, and considers the pinging peer for the routing state. */
    public void onPing(NodeHandle from, Ping ping) {
        env.send(from.address(), new Pong(ping.nonce()));
        if (ping.member() && joined) {
            learnIfUseful(from);
        }
    }

    /** Passes a pong to the prober. */
    public void onPong(NodeHandle from, Pong pong) {
        prober.onPong(from, pong);
    }
}
