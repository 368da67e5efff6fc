package io.riptide.dolr.dissemination;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.Env;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.wire.WireMessage;
import io.riptide.dolr.delta.ContentDigest;
import io.riptide.dolr.delta.DeltaDecoder;
import io.riptide.dolr.delta.DeltaEncoder;
import io.riptide.dolr.delta.MalformedDeltaException;
import io.riptide.dolr.dissemination.TreeMessages.Attach;
import io.riptide.dolr.dissemination.TreeMessages.Attached;
import io.riptide.dolr.dissemination.TreeMessages.Beats;
import io.riptide.dolr.dissemination.TreeMessages.Detach;
import io.riptide.dolr.dissemination.TreeMessages.Here;
import io.riptide.dolr.dissemination.TreeMessages.Nearby;
import io.riptide.dolr.dissemination.TreeMessages.Seek;
import io.riptide.dolr.dissemination.TreeMessages.TreeBeat;
import io.riptide.dolr.dissemination.TreeMessages.Update;
import io.riptide.dolr.location.LocationMessages;
import io.riptide.dolr.store.OnLoop;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Dissemination trees: per object, every replica tied into a tree rooted at the primary copy.
 * Updates flow down. Every beat a parent sends each child node one {@link Beats} for all the trees
 * they share, with a line for a tree only when it changed or its turn comes round (once every
 * {@link #LISTING_SLICES} beats), so a gateway rooting ten thousand trees does not send ten thousand
 * messages a beat over its uplink. A member whose parent falls silent, or stops listing the tree,
 * or says it left, re-attaches to its nearest live ancestor (each member knows its whole path to the
 * root), and an attach that would make a loop (the asker is an ancestor of the receiver) is refused. A new replica attaches to the
 * replica it copied from, which the overlay's location (Bloom filters first) found nearest, so
 * parents tend to be in the child's own stub and each stub's outside link is crossed once.
 */
public final class Dissemination {
    private final Env env;
    private final Duration beat;
    private final int missedBeats;
    private final Function<Id, CompletableFuture<byte[]>> read;
    private final BiConsumer<Id, byte[]> write;
    private final BiPredicate<Id, byte[]> admits;
    private final Supplier<List<NodeHandle>> neighbours;
    private final Map<Id, Tree> trees = new HashMap<>();
    // When each of this node's parents last beat, by node: a beat keeps every tree under it alive.
    private final Map<Id, Long> parentsHeard = new HashMap<>();
    private long beats;
    private final RecentSeekers seekers;
    // Most members one seek measures; bounds what answers, real or forged, can make this node send.
    private static final int MAX_SEEK_PROBES = 64;
    // Seeks per attach (gaps 1, 2, 4... silence periods): bounds the cost of a member whose stub has no other.
    private static final int SEEK_ROUNDS = 4;
    // Trees whose last seeker a node remembers, to introduce the next one to it.
    private static final int REMEMBERED_SEEKER_TREES = 256;
    // Marks a seek answer already measured, so duplicates (via several neighbours) are ignored.
    private static final long MEASURED = Long.MIN_VALUE;
    /**
     * A tree is listed in its parent's beat once every this many beats (a minute, as republishing),
     * by its GUID's slice, besides at once after a change: the listing repairs a lost update or path,
     * and a member not listed for {@code missedBeats} such periods was dropped by its parent without
     * hearing so, and re-attaches.
     */
    public static final int LISTING_SLICES = 30;
    private long fullSent;
    private long fullBytesSent;
    private long deltasSent;
    private long deltaBytesSent;
    private long deltasApplied;
    private long deltasRefused;
    private long corruptUpdates;

    private static final class Tree {
        boolean root;
        // A root whose data was evicted: it keeps the tree while it has children, for the next version.
        boolean dataless;
        NodeHandle parent;
        List<NodeHandle> path = List.of();
        final Map<Id, NodeHandle> children = new LinkedHashMap<>();
        long stamp;
        long lastHeard;
        // When the parent last listed this tree in a beat (or otherwise showed it holds this member).
        long lastListed;
        // The stamp or path changed since the last beat: list it in the next one.
        boolean changed;
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
        this(env, beat, missedBeats, read, write, (guid, data) -> true, neighbours);
    }

    /**
     * As above, with {@code admits} judging every version that comes from a parent before it is stored
     * or passed on: a refused one (forged, older than this node has seen, junk over a signed object) is
     * neither, and the member keeps what it held. Its stamp moves on all the same, so the parent is not
     * asked for the same refused data at every beat; the next genuine version comes as usual.
     */
    public Dissemination(Env env, Duration beat, int missedBeats, Function<Id, CompletableFuture<byte[]>> read, BiConsumer<Id, byte[]> write,
            BiPredicate<Id, byte[]> admits, Supplier<List<NodeHandle>> neighbours) {
        this.env = env;
        this.admits = admits;
        this.neighbours = neighbours;
        this.beat = beat;
        this.missedBeats = missedBeats;
        this.read = read;
        this.write = write;
        // As long as a member goes on seeking: its rounds' gaps double from one silence period.
        this.seekers = new RecentSeekers(REMEMBERED_SEEKER_TREES, beat.toNanos() * missedBeats << SEEK_ROUNDS);
    }

    /** Hands {@code m} to its handler here if it is a tree message; false if it is not one. */
    public boolean handle(NodeHandle from, WireMessage m) {
        if (m instanceof Attach a) {
            onAttach(from, a);
        } else if (m instanceof Attached a) {
            onAttached(from, a);
        } else if (m instanceof Update u) {
            onUpdate(from, u);
        } else if (m instanceof Beats b) {
            onBeats(from, b);
        } else if (m instanceof Detach d) {
            onDetach(from, d);
        } else if (m instanceof Seek s) {
            onSeek(from, s);
        } else if (m instanceof Here h) {
            onHere(from, h);
        } else if (m instanceof Nearby n) {
            onNearby(from, n);
        } else {
            return false;
        }
        return true;
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
        t.lastListed = t.lastHeard;
        t.candidates = List.of(parent);
        // Name the data held: copied from this parent a moment ago, it is most likely the parent's, which
        // then need not come again (over the parent's uplink, when the copy came from another stub).
        OnLoop.then(env, read.apply(guid), data -> {
            if (trees.get(guid) == t && !t.root) {
                t.attachSentAt = env.nowNanos();
                env.send(parent.address(), new Attach(guid, t.stamp, data == null ? new byte[0] : ContentDigest.of(data)));
            }
        });
    }

    /**
     * The replica of {@code guid} here was evicted to make room. A member leaves the tree; a root with
     * children stays its root without the data: the tree is how the object's next version reaches the
     * replicas, and its root is where that version comes from (a gateway that evicted its copy still
     * fetches the next one), so dissolving it would leave every replica serving the old version. So
     * does a root without children whose copy is being handed to a neighbour ({@code handedOver}),
     * which will attach under it. The tree goes when its last child leaves, or after
     * {@code missedBeats} listing periods without one. Returns whether this node is still in the tree.
     */
    public boolean evicted(Id guid, boolean handedOver) {
        Tree t = trees.get(guid);
        if (t != null && t.root && (handedOver || !t.children.isEmpty())) {
            t.dataless = true;
            t.lastHeard = env.nowNanos();
            return true;
        }
        leave(guid);
        return false;
    }

    /** The replica of {@code guid} here is gone: leave its tree, telling the parent and the children (who re-attach). */
    public void leave(Id guid) {
        Tree t = trees.remove(guid);
        if (t == null) {
            return;
        }
        if (t.parent != null) {
            env.send(t.parent.address(), new Detach(guid));
        }
        for (NodeHandle child : t.children.values()) {
            env.send(child.address(), new Detach(guid));
        }
    }

    /** At the root: new data for {@code guid}; stored here and pushed down. Returns false if this node is not its root. */
    public boolean publish(Id guid, byte[] data, long stamp) {
        Tree t = trees.get(guid);
        if (t == null || !t.root) {
            return false;
        }
        t.stamp = Math.max(t.stamp + 1, stamp);
        t.changed = true;
        t.dataless = false;
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

    /** Someone asks to become a child. */
    public void onAttach(NodeHandle from, Attach attach) {
        Tree t = trees.get(attach.guid());
        boolean ancestor = t != null && t.path.stream().anyMatch(h -> h.id().equals(from.id()));
        // Two members moving to each other: the one with the larger ID yields, so one of them moves.
        boolean crossing = t != null && t.moveTarget != null && t.moveTarget.id().equals(from.id())
                && env.self().id().compareTo(from.id()) > 0;
        if (t == null || ancestor || crossing || from.id().equals(env.self().id()) || (!t.root && t.parent == null)) {
            env.send(from.address(), new Attached(attach.guid(), false, List.of(), 0, new byte[0], false));
            return;
        }
        t.children.put(from.id(), from);
        CompletableFuture<byte[]> copy = t.stamp > attach.stamp() ? read.apply(attach.guid()) : CompletableFuture.completedFuture(null);
        OnLoop.then(env, copy, data -> {
            boolean same = data != null && attach.digest().length > 0 && Arrays.equals(ContentDigest.of(data), attach.digest());
            byte[] sent = data == null || same ? new byte[0] : data;
            env.send(from.address(), new Attached(attach.guid(), true, pathBelow(t), t.stamp, sent, same));
        });
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
        setPath(t, a.path());
        t.lastHeard = env.nowNanos();
        t.lastListed = t.lastHeard;
        t.candidates = List.of();
        if (newParent && !move) {
            seekNearer(a.guid(), t, 0);
        }
        if (a.same() && a.stamp() > t.stamp) {
            t.stamp = a.stamp(); // the data held is the parent's at its stamp
            t.changed = true;
        } else if (a.stamp() > t.stamp && a.data().length > 0) {
            Update refused = t.refused;
            t.refused = null;
            OnLoop.then(env, read.apply(a.guid()), previous -> {
                if (a.stamp() <= t.stamp) {
                    return; // a newer version arrived while the old one was read
                }
                byte[] digest = ContentDigest.of(a.data());
                t.stamp = a.stamp();
                t.changed = true;
                if (!admits.test(a.guid(), a.data())) {
                    return;
                }
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

    /** A child left, or this member's parent did: then re-attach at once. */
    public void onDetach(NodeHandle from, Detach d) {
        Tree t = trees.get(d.guid());
        if (t == null) {
            return;
        }
        if (!t.root && t.parent != null && t.parent.id().equals(from.id())) {
            reattach(d.guid(), t);
            // Gone from the tree, so no candidate (re-attaching tries the old parent last).
            t.parent = null;
            t.candidates = t.candidates.stream().filter(h -> !h.id().equals(from.id())).toList();
        } else {
            t.children.remove(from.id());
            if (t.dataless && t.children.isEmpty()) {
                trees.remove(d.guid()); // nobody left for a next version to reach
            }
        }
    }

    /** New data from above. */
    public void onUpdate(NodeHandle from, Update u) {
        Tree t = trees.get(u.guid());
        if (t == null || t.root || t.parent == null || !t.parent.id().equals(from.id())) {
            return; // only a member's parent may send it updates
        }
        t.lastHeard = env.nowNanos();
        t.lastListed = t.lastHeard;
        setPath(t, u.path());
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
            t.changed = true;
            t.refused = null;
            if (!admits.test(u.guid(), data)) {
                return;
            }
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

    /**
     * A parent's beat: every tree under it is alive. A listed tree's path is taken; a newer stamp
     * than this member holds means an update was lost, so it asks again. A tree this node is no
     * member of is detached from, so the sender stops listing it (its earlier detach was lost).
     */
    public void onBeats(NodeHandle from, Beats b) {
        long now = env.nowNanos();
        parentsHeard.put(from.id(), now);
        for (TreeBeat line : b.lines()) {
            Tree t = trees.get(line.guid());
            if (t == null) {
                env.send(from.address(), new Detach(line.guid()));
                continue;
            }
            if (t.root || t.parent == null || !t.parent.id().equals(from.id())) {
                continue;
            }
            t.lastHeard = now;
            t.lastListed = now;
            setPath(t, line.path());
            if (line.stamp() > t.stamp) {
                env.send(from.address(), new Attach(line.guid(), t.stamp));
            }
        }
    }

    private static void setPath(Tree t, List<NodeHandle> path) {
        if (!path.equals(t.path)) {
            t.path = path;
            t.changed = true; // the children's paths run through this member's
        }
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
        int slice = (int) (beats++ % LISTING_SLICES);
        Map<Id, ChildBeat> out = new LinkedHashMap<>();
        Set<Id> parents = new HashSet<>();
        for (Iterator<Map.Entry<Id, Tree>> it = trees.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Id, Tree> e = it.next();
            Id guid = e.getKey();
            Tree t = e.getValue();
            if (t.dataless && t.children.isEmpty() && now - t.lastHeard > silence * LISTING_SLICES) {
                it.remove(); // the copy handed over never attached
                continue;
            }
            if (!t.root) {
                if (t.parent != null) {
                    parents.add(t.parent.id());
                }
                if (now - heard(t) > silence || now - t.lastListed > silence * LISTING_SLICES) {
                    reattach(guid, t);
                }
            }
            if (t.children.isEmpty()) {
                continue;
            }
            TreeBeat line = t.changed || guid.slice(LISTING_SLICES) == slice ? new TreeBeat(guid, t.stamp, pathBelow(t)) : null;
            t.changed = false;
            for (NodeHandle child : t.children.values()) {
                ChildBeat c = out.computeIfAbsent(child.id(), id -> new ChildBeat(child, new ArrayList<>()));
                if (line != null) {
                    c.lines().add(line);
                }
            }
        }
        parentsHeard.keySet().retainAll(parents);
        for (ChildBeat c : out.values()) {
            List<TreeBeat> lines = c.lines();
            int i = 0;
            do {
                int end = Math.min(lines.size(), i + TreeMessages.MAX_BEAT_LINES);
                env.send(c.child().address(), new Beats(List.copyOf(lines.subList(i, end))));
                i = end;
            } while (i < lines.size());
        }
    }

    private record ChildBeat(NodeHandle child, List<TreeBeat> lines) {
    }

    /** When {@code t}'s parent last showed it is alive: a beat from it, or a message about this tree. */
    private long heard(Tree t) {
        Long beat = t.parent == null ? null : parentsHeard.get(t.parent.id());
        return beat == null ? t.lastHeard : Math.max(t.lastHeard, beat);
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
        t.lastListed = t.lastHeard;
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
