package io.riptide.dolr.dissemination;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.Env;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.dolr.delta.ContentDigest;
import io.riptide.dolr.delta.DeltaDecoder;
import io.riptide.dolr.delta.DeltaEncoder;
import io.riptide.dolr.delta.MalformedDeltaException;
import io.riptide.dolr.dissemination.TreeMessages.Attach;
import io.riptide.dolr.dissemination.TreeMessages.Attached;
import io.riptide.dolr.dissemination.TreeMessages.Beat;
import io.riptide.dolr.dissemination.TreeMessages.Detach;
import io.riptide.dolr.dissemination.TreeMessages.Here;
import io.riptide.dolr.dissemination.TreeMessages.Nearby;
import io.riptide.dolr.dissemination.TreeMessages.Seek;
import io.riptide.dolr.dissemination.TreeMessages.Update;
import io.riptide.dolr.location.LocationMessages;
import io.riptide.dolr.store.OnLoop;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Dissemination trees: per object, every replica tied into a tree rooted at the primary copy.
 * Updates and the root's beats flow down; a member that stops hearing beats re-attaches to its
 * nearest live ancestor (each member knows its whole path to the root), and an attach that would
 * make a loop (the asker is an ancestor of the receiver) is refused. A new replica attaches to the
 * replica it copied from, which the overlay's location (Bloom filters first) found nearest, so
 * parents tend to be in the child's own stub and each stub's outside link is crossed once.
 */
public final class Dissemination {
    private final Env env;
    private final Duration beat;
    private final int missedBeats;
    private final Function<Id, CompletableFuture<byte[]>> read;
    private final BiConsumer<Id, byte[]> write;
    private final Supplier<List<NodeHandle>> neighbours;
    private final Map<Id, Tree> trees = new HashMap<>();
    private final RecentSeekers seekers;
    // Most members one seek measures; bounds what answers, real or forged, can make this node send.
    private static final int MAX_SEEK_PROBES = 64;
    // Seeks per attach (gaps 1, 2, 4... silence periods): bounds the cost of a member whose stub has no other.
    private static final int SEEK_ROUNDS = 4;
    // Trees whose last seeker a node remembers, to introduce the next one to it.
    private static final int REMEMBERED_SEEKER_TREES = 256;
    // Marks a seek answer already measured, so duplicates (via several neighbours) are ignored.
    private static final long MEASURED = Long.MIN_VALUE;
    private long fullSent;
    private long fullBytesSent;
    private long deltasSent;
    private long deltaBytesSent;
    private long deltasApplied;
    private long deltasRefused;
    private long corruptUpdates;

    private static final class Tree {
        boolean root;
        NodeHandle parent;
        List<NodeHandle> path = List.of();
        final Map<Id, NodeHandle> children = new LinkedHashMap<>();
        long stamp;
        long lastHeard;
        // The last delta refused for want of its base; relayed on once the full data it describes arrives.
        Update refused;
        // Locality: RTTs measured by attaches and seeks, and the nearer member being moved to.
        long attachSentAt;
        long parentRtt;
        long seekStartedAt = Long.MIN_VALUE;
        final Map<Id, Long> seekSentAt = new HashMap<>();
        NodeHandle moveTarget;
        long moveRtt;
        List<NodeHandle> candidates = List.of();
    }

    /**
     * @param read  this node's copy of an object (null if none), read from its store (continued on the loop)
     * @param write stores new data for an object received through the tree
     * @param neighbours this node's nearest peers by RTT, nearest first (its local area)
     */
    public Dissemination(Env env, Duration beat, int missedBeats, Function<Id, CompletableFuture<byte[]>> read, BiConsumer<Id, byte[]> write,
            Supplier<List<NodeHandle>> neighbours) {
        this.env = env;
        this.neighbours = neighbours;
        this.beat = beat;
        this.missedBeats = missedBeats;
        this.read = read;
        this.write = write;
        // As long as a member goes on seeking: its rounds' gaps double from one silence period.
        this.seekers = new RecentSeekers(REMEMBERED_SEEKER_TREES, beat.toNanos() * missedBeats << SEEK_ROUNDS);
    }

    /** Starts the beat and repair timer. */
    public void start() {
        env.periodic(beat, this::tick);
    }

    /** This node holds the primary copy of {@code guid}: it is the root of its tree. */
    public void startTree(Id guid, long stamp) {
        Tree t = trees.computeIfAbsent(guid, g -> new Tree());
        t.root = true;
        t.parent = null;
        t.path = List.of();
        t.stamp = Math.max(t.stamp, stamp);
        t.lastHeard = env.nowNanos();
    }

    /** This node holds a replica of {@code guid} copied from {@code parent}: attach as its child. */
    public void join(Id guid, NodeHandle parent) {
        if (parent.id().equals(env.self().id())) {
            return;
        }
        Tree t = trees.computeIfAbsent(guid, g -> new Tree());
        if (t.root) {
            return;
        }
        t.lastHeard = env.nowNanos();
        t.candidates = List.of(parent);
        t.attachSentAt = t.lastHeard;
        env.send(parent.address(), new Attach(guid, t.stamp));
    }

    /** The replica of {@code guid} here is gone: leave its tree (children re-attach when beats stop). */
    public void leave(Id guid) {
        Tree t = trees.remove(guid);
        if (t != null && t.parent != null) {
            env.send(t.parent.address(), new Detach(guid));
        }
    }

    /** At the root: new data for {@code guid}; stored here and pushed down. Returns false if this node is not its root. */
    public boolean publish(Id guid, byte[] data, long stamp) {
        Tree t = trees.get(guid);
        if (t == null || !t.root) {
            return false;
        }
        t.stamp = Math.max(t.stamp + 1, stamp);
        OnLoop.then(env, read.apply(guid), previous -> {
            write.accept(guid, data);
            pushDown(guid, t, previous, data, ContentDigest.of(data));
        });
        return true;
    }

    /** This node's place in {@code guid}'s tree, or null if it is no member. */
    public TreeView view(Id guid) {
        Tree t = trees.get(guid);
        return t == null ? null : new TreeView(t.parent, t.path, List.copyOf(t.children.values()), t.stamp, t.root);
    }

    /** Up to {@code max} of the objects whose trees this node belongs to, for status pages. */
    public List<Id> guids(int max) {
        return trees.keySet().stream().limit(max).toList();
    }

    /** Trees this node belongs to. */
    public int size() {
        return trees.size();
    }

    private List<NodeHandle> pathBelow(Tree t) {
        List<NodeHandle> p = new ArrayList<>(t.path);
        p.add(env.self());
        return p.size() > TreeMessages.MAX_DEPTH ? p.subList(p.size() - TreeMessages.MAX_DEPTH, p.size()) : p;
    }

    private void sendDown(Id guid, Tree t, io.riptide.core.wire.WireMessage message) {
        for (NodeHandle child : t.children.values()) {
            env.send(child.address(), message);
        }
    }

    /** Someone asks to become a child. */
    public void onAttach(NodeHandle from, Attach attach) {
        Tree t = trees.get(attach.guid());
        boolean ancestor = t != null && t.path.stream().anyMatch(h -> h.id().equals(from.id()));
        // Two members moving to each other: the one with the larger ID yields, so one of them moves.
        boolean crossing = t != null && t.moveTarget != null && t.moveTarget.id().equals(from.id())
                && env.self().id().compareTo(from.id()) > 0;
        if (t == null || ancestor || crossing || from.id().equals(env.self().id()) || (!t.root && t.parent == null)) {
            env.send(from.address(), new Attached(attach.guid(), false, List.of(), 0, new byte[0]));
            return;
        }
        t.children.put(from.id(), from);
        CompletableFuture<byte[]> copy = t.stamp > attach.stamp() ? read.apply(attach.guid()) : CompletableFuture.completedFuture(null);
        OnLoop.then(env, copy, data ->
                env.send(from.address(), new Attached(attach.guid(), true, pathBelow(t), t.stamp, data == null ? new byte[0] : data)));
    }

    /** The answer to this node's attach. */
    public void onAttached(NodeHandle from, Attached a) {
        Tree t = trees.get(a.guid());
        if (t == null || t.root) {
            return;
        }
        boolean move = t.moveTarget != null && t.moveTarget.id().equals(from.id());
        if (move) {
            t.moveTarget = null;
            if (!a.accepted()) {
                return; // stay where we are
            }
            if (!t.children.isEmpty()) {
                // Only a member without children may move: it is nobody's ancestor, so no loop can form.
                env.send(from.address(), new Detach(a.guid()));
                return;
            }
        } else if (!a.accepted()) {
            tryNextCandidate(a.guid(), t, from);
            return;
        }
        boolean newParent = t.parent == null || !t.parent.id().equals(from.id());
        if (t.parent != null && newParent) {
            env.send(t.parent.address(), new Detach(a.guid())); // moved to a new parent
        }
        if (move) {
            t.parentRtt = t.moveRtt;
        } else if (newParent) {
            t.parentRtt = env.nowNanos() - t.attachSentAt;
        }
        t.parent = from;
        t.path = a.path();
        t.lastHeard = env.nowNanos();
        t.candidates = List.of();
        if (newParent && !move) {
            seekNearer(a.guid(), t, 0);
        }
        if (a.stamp() > t.stamp && a.data().length > 0) {
            Update refused = t.refused;
            t.refused = null;
            OnLoop.then(env, read.apply(a.guid()), previous -> {
                if (a.stamp() <= t.stamp) {
                    return; // a newer version arrived while the old one was read
                }
                byte[] digest = ContentDigest.of(a.data());
                t.stamp = a.stamp();
                write.accept(a.guid(), a.data());
                if (refused != null && refused.stamp() == a.stamp() && Arrays.equals(refused.digest(), digest)) {
                    // The children most likely hold the base this member lacked: pass the delta on as it came.
                    relay(a.guid(), t, refused);
                } else {
                    pushDown(a.guid(), t, previous, a.data(), digest);
                }
            });
        }
    }

    private void tryNextCandidate(Id guid, Tree t, NodeHandle refused) {
        List<NodeHandle> rest = new ArrayList<>(t.candidates);
        rest.removeIf(h -> h.id().equals(refused.id()));
        t.candidates = rest;
        if (!rest.isEmpty()) {
            env.send(rest.get(0).address(), new Attach(guid, t.stamp));
        }
    }

    /** A child left. */
    public void onDetach(NodeHandle from, Detach d) {
        Tree t = trees.get(d.guid());
        if (t != null) {
            t.children.remove(from.id());
        }
    }

    /** New data from above. */
    public void onUpdate(NodeHandle from, Update u) {
        Tree t = trees.get(u.guid());
        if (t == null || t.root || t.parent == null || !t.parent.id().equals(from.id())) {
            return; // only a member's parent may send it updates
        }
        t.lastHeard = env.nowNanos();
        t.path = u.path();
        if (u.stamp() <= t.stamp) {
            return; // never step back to an older version
        }
        OnLoop.then(env, read.apply(u.guid()), previous -> {
            if (u.stamp() <= t.stamp) {
                return; // a newer version arrived while the old one was read
            }
            byte[] data = u.isDelta() ? applyDelta(previous, u) : u.body();
            if (data == null || !Arrays.equals(ContentDigest.of(data), u.digest())) {
                // Not the version the root published: keep the old one and ask the parent for the full
                // data (an attach from an older stamp is answered with it). Should that answer be lost,
                // the next beat, carrying the newer stamp, asks again.
                if (u.isDelta()) {
                    deltasRefused++;
                } else {
                    corruptUpdates++;
                }
                t.refused = u.isDelta() ? u : null;
                env.send(from.address(), new Attach(u.guid(), t.stamp));
                return;
            }
            t.stamp = u.stamp();
            t.refused = null;
            write.accept(u.guid(), data);
            if (u.isDelta()) {
                deltasApplied++;
                relay(u.guid(), t, u); // the children hold what this member held: the same delta fits them
            } else {
                pushDown(u.guid(), t, previous, data, u.digest());
            }
        });
    }

    /** The delta in {@code u} applied to {@code previous}, or null if there is no base or it is not the delta's. */
    private byte[] applyDelta(byte[] previous, Update u) {
        if (previous == null || !Arrays.equals(ContentDigest.of(previous), u.base())) {
            return null;
        }
        try {
            return DeltaDecoder.apply(previous, u.body(), LocationMessages.MAX_READ_BYTES);
        } catch (MalformedDeltaException e) {
            return null;
        }
    }

    /**
     * Sends new {@code data} to the children: as a delta from the {@code previous} data this member
     * held, when that is clearly smaller, else in full. A child refuses a delta whose base it does not
     * hold and asks for the full data, costing a round trip and the full data on top of the delta;
     * so a delta must save at least a quarter of the full data to be worth that risk.
     */
    private void pushDown(Id guid, Tree t, byte[] previous, byte[] data, byte[] digest) {
        if (t.children.isEmpty()) {
            return;
        }
        if (previous != null && previous.length > 0 && !Arrays.equals(previous, data)) {
            byte[] delta = DeltaEncoder.encode(previous, data);
            if ((long) delta.length + ContentDigest.BYTES <= data.length - data.length / 4L) {
                relay(guid, t, new Update(guid, t.stamp, pathBelow(t), digest, ContentDigest.of(previous), delta));
                return;
            }
        }
        relay(guid, t, new Update(guid, t.stamp, pathBelow(t), digest, new byte[0], data));
    }

    /** Sends {@code u}'s content to every child, with this member's stamp and path. */
    private void relay(Id guid, Tree t, Update u) {
        Update out = new Update(guid, t.stamp, pathBelow(t), u.digest(), u.base(), u.body());
        for (NodeHandle child : t.children.values()) {
            env.send(child.address(), out);
            if (out.isDelta()) {
                deltasSent++;
                deltaBytesSent += out.body().length;
            } else {
                fullSent++;
                fullBytesSent += out.body().length;
            }
        }
    }

    /** What this node's tree updates cost and how its deltas fared. */
    public TreeStats stats() {
        return new TreeStats(fullSent, fullBytesSent, deltasSent, deltaBytesSent, deltasApplied, deltasRefused, corruptUpdates);
    }

    /** The root's beat, relayed by the parent. */
    public void onBeat(NodeHandle from, Beat b) {
        Tree t = trees.get(b.guid());
        if (t == null || t.root || t.parent == null || !t.parent.id().equals(from.id())) {
            return;
        }
        t.lastHeard = env.nowNanos();
        t.path = b.path();
        if (b.stamp() > t.stamp) {
            env.send(from.address(), new Attach(b.guid(), t.stamp)); // an update was lost: ask again
        }
        sendDown(b.guid(), t, new Beat(b.guid(), Math.max(t.stamp, b.stamp()), pathBelow(t)));
    }

    // ---- locality: moving to a much nearer member -------------------------------------------------

    /**
     * The new parent is not one of this node's nearest neighbours: perhaps a nearer member exists
     * that location did not find (the Bloom filters lag new replicas by a refresh period or more).
     * Asks the local area, two neighbour hops deep, and looks again {@link #SEEK_ROUNDS} times in all,
     * each gap twice the last: a member that joins nearby later may not see this one (neighbour lists
     * are not symmetric, so its seek can miss this node while this node's reaches it).
     */
    private void seekNearer(Id guid, Tree t, int round) {
        List<NodeHandle> area = neighbours.get();
        if (t.parent == null || !t.children.isEmpty() || area.stream().anyMatch(h -> h.id().equals(t.parent.id()))) {
            return;
        }
        long now = env.nowNanos();
        t.seekStartedAt = now;
        t.seekSentAt.clear();
        for (NodeHandle n : area) {
            t.seekSentAt.put(n.id(), now);
            env.send(n.address(), new Seek(guid, env.self(), 1));
        }
        if (round + 1 < SEEK_ROUNDS) {
            // Jittered, so members that joined together do not look (and collide) together again.
            Duration later = beat.multipliedBy((long) missedBeats << round)
                    .plusNanos((long) (env.random().nextDouble() * beat.toNanos()));
            env.schedule(later, () -> {
                if (trees.get(guid) == t && !t.root) {
                    seekNearer(guid, t, round + 1);
                }
            });
        }
    }

    /**
     * Someone looks for a member near it: answer if this node is one; else introduce it to the member
     * that last sought through here, if one did recently (their own areas may miss each other), and
     * pass a first-hop seek on to the neighbours.
     */
    public void onSeek(NodeHandle from, Seek s) {
        if (s.origin().id().equals(env.self().id())) {
            return;
        }
        Tree t = trees.get(s.guid());
        if (t != null && (t.root || t.parent != null)) {
            env.send(s.origin().address(), new Here(s.guid()));
            return;
        }
        NodeHandle earlier = seekers.swap(s.guid(), s.origin(), env.nowNanos());
        if (earlier != null) {
            env.send(s.origin().address(), new Nearby(s.guid(), earlier));
        }
        if (s.hops() > 0 && from.id().equals(s.origin().id())) {
            // Only a seek straight from its origin fans out, so nobody can aim a flood at a third party.
            for (NodeHandle n : neighbours.get()) {
                if (!n.id().equals(s.origin().id())) {
                    env.send(n.address(), new Seek(s.guid(), s.origin(), s.hops() - 1));
                }
            }
        }
    }

    /** A node near this one knows another seeking member: probe it directly, as an unmeasured {@link Here}. */
    public void onNearby(NodeHandle from, Nearby n) {
        Tree t = trees.get(n.guid());
        NodeHandle member = n.member();
        if (!seeking(t, env.nowNanos()) || member.id().equals(env.self().id()) || member.id().equals(t.parent.id())
                || t.seekSentAt.containsKey(member.id()) || t.seekSentAt.size() >= MAX_SEEK_PROBES) {
            return;
        }
        t.seekSentAt.put(member.id(), env.nowNanos());
        env.send(member.address(), new Seek(n.guid(), env.self(), 0));
    }

    /** Whether {@code t} is a childless member in its latest seek's window, so may still move. */
    private boolean seeking(Tree t, long now) {
        return t != null && !t.root && t.parent != null && t.children.isEmpty()
                && now - t.seekStartedAt <= beat.toNanos() * missedBeats;
    }

    /**
     * A member answered a seek. Its RTT is known if the seek went to it directly; otherwise it is
     * asked directly, to measure it. A member at less than two thirds of the RTT of the current
     * parent becomes the new parent (a margin, so that each move gains clearly and moves end; across
     * a stub's uplink the RTT typically more than doubles, but a wide stub's far side can come close), if this node still has no children when it accepts.
     */
    public void onHere(NodeHandle from, Here h) {
        Tree t = trees.get(h.guid());
        long now = env.nowNanos();
        if (!seeking(t, now) || from.id().equals(t.parent.id())) {
            return;
        }
        Long sent = t.seekSentAt.get(from.id());
        if (sent == null) {
            if (t.seekSentAt.size() < MAX_SEEK_PROBES) {
                t.seekSentAt.put(from.id(), now);
                env.send(from.address(), new Seek(h.guid(), env.self(), 0));
            }
            return;
        }
        if (sent == MEASURED) {
            return;
        }
        long rtt = now - sent;
        t.seekSentAt.put(from.id(), MEASURED);
        boolean better = t.moveTarget == null ? rtt * 3 < t.parentRtt * 2 : rtt < t.moveRtt;
        if (better) {
            t.moveTarget = from;
            t.moveRtt = rtt;
            env.send(from.address(), new Attach(h.guid(), t.stamp));
        }
    }

    private void tick() {
        long now = env.nowNanos();
        long silence = beat.toNanos() * missedBeats;
        for (Map.Entry<Id, Tree> e : trees.entrySet()) {
            Id guid = e.getKey();
            Tree t = e.getValue();
            if (t.root) {
                sendDown(guid, t, new Beat(guid, t.stamp, pathBelow(t)));
            } else if (now - t.lastHeard > silence) {
                reattach(guid, t);
            }
        }
    }

    /** The parent went quiet: try the ancestors, nearest first, then the old parent last. */
    private void reattach(Id guid, Tree t) {
        List<NodeHandle> candidates = new ArrayList<>();
        for (int i = t.path.size() - 1; i >= 0; i--) {
            NodeHandle h = t.path.get(i);
            if (!h.id().equals(env.self().id()) && (t.parent == null || !h.id().equals(t.parent.id()))) {
                candidates.add(h);
            }
        }
        if (t.parent != null) {
            candidates.add(t.parent);
        }
        t.lastHeard = env.nowNanos(); // one round of attempts per silence period
        t.candidates = candidates;
        attemptNext(guid, t, t.lastHeard);
    }

    /**
     * Asks the next candidate; if no answer has moved the member on within a quarter beat (a dead
     * candidate answers nothing, a live one within a round trip), tries the one after it. An answer
     * that comes later is still taken (the member then detaches from whichever it had).
     */
    private void attemptNext(Id guid, Tree t, long round) {
        if (t.candidates.isEmpty() || trees.get(guid) != t || t.lastHeard != round) {
            return;
        }
        NodeHandle next = t.candidates.get(0);
        t.candidates = t.candidates.subList(1, t.candidates.size());
        t.attachSentAt = env.nowNanos();
        env.send(next.address(), new Attach(guid, t.stamp));
        // Not a whole beat per candidate: an orphan deep in a tree whose interior failed would take
        // a beat per dead ancestor and miss updates meanwhile.
        env.schedule(beat.dividedBy(4), () -> attemptNext(guid, t, round));
    }}
