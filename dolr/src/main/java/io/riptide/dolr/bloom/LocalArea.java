package io.riptide.dolr.bloom;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.Env;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.dolr.bloom.BloomMessages.BloomAd;
import io.riptide.dolr.bloom.BloomMessages.BloomPull;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.LongConsumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * This node's local area: the few nearest peers by RTT, and the attenuated Bloom filters they
 * advertise. A locate consults these filters before deterministic routing, so a replica a hop or two
 * away on the local network is found directly. Filters are pulled afresh every refresh period, which
 * is also how bits of replicas that went away decay. Gains are pushed at once instead: when this
 * node's holdings gain an object, or a pushed advertisement adds bits to what this node advertises,
 * it pushes its advertisement to the peers that pull from it, at most once per {@link #PUSH_GAP}
 * (changes in between are coalesced into the next push). A new object so reaches the deepest level
 * in a few round trips rather than one refresh period per level; the push dies out there, because
 * the deepest level is not advertised further.
 *
 * <p>Besides the nearest peers, the area keeps the filters of a few {@link Providers}: nearby peers
 * that answered this node's reads although they are not among its nearest (a stub's cache manager
 * node, typically). Their filters are consulted as a neighbour's are, so a replica on such a peer is
 * reached in one hop rather than through a neighbour.
 *
 * <p>Nearness is not symmetric: a node at the edge of its stub picks the nearest peers, but may be
 * nobody's nearest, and then no filter in the area holds what it offers (a cache manager there would
 * never be found in the local area). So a node that fewer than {@link #MIN_PULLERS} peers pull from
 * asks its nearest neighbours to adopt it; a node keeps up to {@link #ADOPTED_SLOTS} such peers as
 * links of its own, pulls their filters and advertises them as a neighbour's, so the area sees the
 * lonely node's holdings one level further out, and lets them go once they stop asking.
 */
public final class LocalArea {
    /** Least time between two pushes from this node: a node storing many replicas at once sends one per gap. */
    public static final Duration PUSH_GAP = Duration.ofSeconds(1);
    /** Pullers remembered for pushes, per neighbour slot: room for peers that pull from this node unreciprocated. */
    private static final int SUBSCRIBERS_PER_SLOT = 4;
    /** A puller not heard from in this many refresh periods no longer keeps a filter of this node. */
    private static final int SUBSCRIBER_PERIODS = 3;
    /** Providers kept beside the nearest neighbours. */
    static final int PROVIDER_SLOTS = 4;
    /** A provider that has served nothing for this many refresh periods is let go. */
    private static final int PROVIDER_PERIODS = 10;
    /** A node pulled by fewer peers than this asks as many of its nearest neighbours to adopt it. */
    static final int MIN_PULLERS = 2;
    /** Adopted peers kept beside the nearest neighbours. */
    static final int ADOPTED_SLOTS = 2;

    /** Below this round trip a peer is on this node's own network, however near its neighbours are. */
    public static final Duration LAN_RTT = Duration.ofMillis(5);

    /** A neighbour that probably leads to the object, {@code level} hops through it. */
    public record Match(NodeHandle neighbour, int level) {
    }

    /** Filter messages this node has sent: pulls, answers to pulls, and unasked pushes. */
    public record Traffic(long pulls, long answers, long pushes) {
    }

    private final Env env;
    private final int capacity;
    private final int levels;
    private final int bits;
    private final int hashes;
    private final Supplier<List<Id>> ownReplicas;
    private final BiConsumer<NodeHandle, LongConsumer> measure;
    // Nearest first.
    private final List<NodeHandle> neighbours = new ArrayList<>();
    private final Map<Id, Long> rtts = new HashMap<>();
    private final Map<Id, AttenuatedBloomFilter> filters = new HashMap<>();
    private final Subscribers subscribers;
    private final Providers providers = new Providers(PROVIDER_SLOTS);
    // Lonely peers linked at their request; "served" is their latest request.
    private final Providers adopted = new Providers(ADOPTED_SLOTS);
    private long startedAtNanos;
    private long refreshNanos = Duration.ofSeconds(10).toNanos();
    private long subscriberTtlNanos = Duration.ofSeconds(30).toNanos();
    private boolean started;
    // Level 0 as of the last push check: own holdings that gained bits since then are pushed.
    private long[] ownAdvertised;
    private boolean ownChanged;
    // This node's own level, kept between advertisements: rebuilding it walks every object held,
    // which a gateway holding tens of thousands would otherwise do for every pull it answers.
    // Additions go in as they happen; removals show at the next rebuild, one refresh later.
    private BloomFilter ownCache;
    private long ownBuiltAt;
    private long ownRebuildNanos = Duration.ofSeconds(10).toNanos();
    // A pushed advertisement added bits to this node's levels 1.. since the last push check.
    private boolean viewGained;
    private boolean pushScheduled;
    private long lastPushNanos = Long.MIN_VALUE / 2;
    private long pulls;
    private long answers;
    private long pushes;

    /**
     * {@code levels} counts level 0 (this node), so each neighbour's filter has {@code levels - 1}
     * levels. {@code measure} finds a peer's RTT (nanoseconds, or -1 if it did not answer): a peer
     * that served a read is measured before it is kept as a provider.
     */
    public LocalArea(Env env, int capacity, int levels, int bits, int hashes, Supplier<List<Id>> ownReplicas,
                     BiConsumer<NodeHandle, LongConsumer> measure) {
        this.env = env;
        this.capacity = capacity;
        this.levels = levels;
        this.bits = bits;
        this.hashes = hashes;
        this.ownReplicas = ownReplicas;
        this.measure = measure;
        this.subscribers = new Subscribers(Math.max(1, capacity * SUBSCRIBERS_PER_SLOT));
    }

    /** Starts pulling neighbours' filters every {@code refresh}. */
    public void start(Duration refresh) {
        refreshNanos = refresh.toNanos();
        subscriberTtlNanos = refresh.toNanos() * SUBSCRIBER_PERIODS;
        ownRebuildNanos = refresh.toNanos();
        started = true;
        startedAtNanos = env.nowNanos();
        env.periodic(refresh, this::pull);
    }

    /**
     * This node's holdings changed (an object stored or a service offered): if that adds bits to its
     * advertisement, the peers that pull from it hear of it soon, not at their next pull. Cheap to call
     * per object; the work is done once per push.
     */
    public void holdingsChanged() {
        ownCache = null;
        ownChanged = true;
        schedulePush();
    }

    /** As {@link #holdingsChanged()} for one object {@code added} here: cheaper, as only its bits are set. */
    public void holdingsChanged(Id added) {
        if (ownCache != null) {
            ownCache.add(added);
        }
        ownChanged = true;
        schedulePush();
    }

    /** Offers a measured peer; it becomes a neighbour if it is among the nearest. */
    public void offer(NodeHandle peer, long rttNanos) {
        if (capacity == 0) {
            return;
        }
        Id id = peer.id();
        int existing = indexOf(id);
        if (existing >= 0) {
            neighbours.remove(existing);
        } else if (neighbours.size() == capacity && rtts.get(neighbours.get(capacity - 1).id()) <= rttNanos) {
            return;
        }
        providers.remove(id); // now a neighbour proper
        adopted.remove(id);
        rtts.put(id, rttNanos);
        int pos = 0;
        while (pos < neighbours.size() && rtts.get(neighbours.get(pos).id()) <= rttNanos) {
            pos++;
        }
        neighbours.add(pos, peer);
        if (neighbours.size() > capacity) {
            NodeHandle dropped = neighbours.remove(neighbours.size() - 1);
            rtts.remove(dropped.id());
            filters.remove(dropped.id());
        }
        if (neighbours.size() == capacity) {
            dropFarProviders();
        }
        if (existing < 0 && started && indexOf(id) >= 0) {
            // A new neighbour: its filter now, not at the next refresh, and its pushes from now on.
            env.send(peer.address(), new BloomPull(false));
            pulls++;
        }
    }

    private int indexOf(Id id) {
        for (int i = 0; i < neighbours.size(); i++) {
            if (neighbours.get(i).id().equals(id)) {
                return i;
            }
        }
        return -1;
    }

    /** Forgets a failed peer. */
    public void remove(Id id) {
        int i = indexOf(id);
        if (i >= 0) {
            neighbours.remove(i);
        }
        providers.remove(id);
        adopted.remove(id);
        rtts.remove(id);
        filters.remove(id);
        subscribers.remove(id);
    }

    /**
     * {@code peer} answered one of this node's reads or locates {@code elapsedNanos} after it was
     * issued. A peer near enough to be local but not among the nearest is measured and, if its RTT
     * says it is local, kept as a provider: its filter is pulled from now on and consulted as a
     * neighbour's. Answers from afar are ignored without a measurement.
     */
    public void answeredBy(NodeHandle peer, long elapsedNanos) {
        Id id = peer.id();
        long now = env.nowNanos();
        if (capacity == 0 || !started || id.equals(env.self().id()) || indexOf(id) >= 0
                || providers.servedAgain(id, now)) {
            return;
        }
        // The answer took at least a round trip to the peer: one slower than twice the filters'
        // reach came from beyond it, so no measurement is spent on it.
        if (neighbours.isEmpty() || elapsedNanos > 2L * reachNanos()) {
            return;
        }
        measure.accept(peer, rtt -> {
            if (rtt < 0 || rtt > reachNanos() || indexOf(id) >= 0 || !started) {
                return;
            }
            boolean known = providers.contains(id);
            NodeHandle displaced = providers.served(peer, rtt, env.nowNanos());
            if (displaced != null && indexOf(displaced.id()) < 0) {
                filters.remove(displaced.id());
            }
            if (!known) {
                env.send(peer.address(), new BloomPull(false));
                pulls++;
            }
        });
    }

    /**
     * How far the filters reach: as many times the farthest neighbour's RTT as they have levels. A
     * provider is no farther, so it is one the filters could have found anyway, only in more hops.
     */
    private long reachNanos() {
        return (levels - 1) * radiusNanos();
    }

    /** The farthest neighbour's RTT, or -1 while the area has no neighbour. */
    private long radiusNanos() {
        return neighbours.isEmpty() ? -1 : rtts.get(neighbours.get(neighbours.size() - 1).id());
    }

    /** As the area fills with nearer neighbours, providers beyond its new reach stop being local. */
    private void dropFarProviders() {
        long limit = reachNanos();
        for (NodeHandle p : providers.peers()) {
            if (providers.rttNanos(p.id()) > limit) {
                providers.remove(p.id());
                filters.remove(p.id());
            }
        }
    }

    /** The lonely peers this node links at their request, longest since asking first. */
    public List<NodeHandle> adopted() {
        return adopted.peers();
    }

    /** The providers kept beside the neighbours, longest since serving first. */
    public List<NodeHandle> providers() {
        return providers.peers();
    }

    /**
     * The round trip within which a peer counts as in this node's local area: twice its farthest
     * neighbour's, and at least {@link #LAN_RTT}. A copy that near serves this node's users about as
     * well as one of its own; one farther away is across some uplink. {@code distance} gives a peer's
     * distance now (the RTTs kept here are those of when each neighbour was offered, which a burst of
     * traffic may have inflated).
     */
    public long localNanos(ToLongFunction<Id> distance) {
        long farthest = 0;
        for (NodeHandle n : neighbours) {
            farthest = Math.max(farthest, distance.applyAsLong(n.id()));
        }
        return Math.max(LAN_RTT.toNanos(), 2 * farthest);
    }

    /** The neighbours, nearest first. */
    public List<NodeHandle> neighbours() {
        return List.copyOf(neighbours);
    }

    private void pull() {
        long now = env.nowNanos();
        for (NodeHandle gone : providers.expire(now - PROVIDER_PERIODS * refreshNanos)) {
            if (indexOf(gone.id()) < 0 && !adopted.contains(gone.id())) {
                filters.remove(gone.id());
            }
        }
        for (NodeHandle gone : adopted.expire(now - subscriberTtlNanos)) {
            if (indexOf(gone.id()) < 0 && !providers.contains(gone.id())) {
                filters.remove(gone.id());
            }
        }
        // Lonely: once pullers have had time to come (a few refreshes), too few pull this node's filter.
        boolean lonely = now - startedAtNanos >= subscriberTtlNanos
                && subscribers.since(now - subscriberTtlNanos).size() < MIN_PULLERS;
        for (int i = 0; i < neighbours.size(); i++) {
            env.send(neighbours.get(i).address(), new BloomPull(lonely && i < MIN_PULLERS));
            pulls++;
        }
        for (NodeHandle p : providers.peers()) {
            env.send(p.address(), new BloomPull(false));
            pulls++;
        }
        for (NodeHandle p : adopted.peers()) {
            if (!providers.contains(p.id())) {
                env.send(p.address(), new BloomPull(false));
                pulls++;
            }
        }
    }

    /**
     * Answers a neighbour's pull with this node's advertisement; the puller now hears of pushes too.
     * A puller asking to be adopted ({@code adopt}) is measured and, if local, linked as a neighbour.
     */
    public void onPull(NodeHandle from, boolean adopt) {
        long now = env.nowNanos();
        subscribers.pulled(from, now);
        env.send(from.address(), advertisement());
        answers++;
        Id id = from.id();
        if (!adopt || capacity == 0 || !started || indexOf(id) >= 0 || adopted.servedAgain(id, now)) {
            return;
        }
        measure.accept(from, rtt -> {
            if (rtt < 0 || neighbours.isEmpty() || rtt > reachNanos() || indexOf(id) >= 0 || adopted.contains(id)) {
                return;
            }
            NodeHandle displaced = adopted.served(from, rtt, env.nowNanos());
            if (displaced != null && indexOf(displaced.id()) < 0 && !providers.contains(displaced.id())) {
                filters.remove(displaced.id());
            }
            env.send(from.address(), new BloomPull(false));
            pulls++;
        });
    }

    /** Level 0: this node's replicas; level j: what lies j hops away through its neighbours. */
    public BloomAd advertisement() {
        List<long[]> words = new ArrayList<>();
        words.add(ownLevel());
        words.addAll(neighbourLevels());
        return new BloomAd(hashes, words, false);
    }

    private long[] ownLevel() {
        long now = env.nowNanos();
        if (ownCache == null || now - ownBuiltAt >= ownRebuildNanos) {
            BloomFilter own = new BloomFilter(bits, hashes);
            for (Id guid : ownReplicas.get()) {
                own.add(guid);
            }
            ownCache = own;
            ownBuiltAt = now;
        }
        return ownCache.toWords();
    }

    /**
     * Advertised levels 1..levels-2: the union of the neighbours' (and adopted peers') link filters at
     * each. Providers' filters are left out: a provider is a shortcut for this node only, and
     * advertising it would make a farther replica look as near, in levels, as a nearer one to every
     * peer pulling from here. An adopted peer is near, and linked only because nobody else links it.
     */
    private List<long[]> neighbourLevels() {
        List<long[]> words = new ArrayList<>();
        List<NodeHandle> links = new ArrayList<>(neighbours);
        links.addAll(adopted.peers());
        for (int level = 1; level < levels - 1; level++) {
            BloomFilter union = new BloomFilter(bits, hashes);
            for (NodeHandle n : links) {
                AttenuatedBloomFilter f = filters.get(n.id());
                if (f != null && f.depth() >= level) {
                    union.union(f.level(level));
                }
            }
            words.add(union.toWords());
        }
        return words;
    }

    private void schedulePush() {
        if (pushScheduled) {
            return;
        }
        pushScheduled = true;
        long wait = Math.max(0, lastPushNanos + PUSH_GAP.toNanos() - env.nowNanos());
        env.schedule(Duration.ofNanos(wait), this::pushIfGained);
    }

    private void pushIfGained() {
        pushScheduled = false;
        long[] own = ownLevel();
        boolean gained = viewGained || (ownChanged && gains(own, ownAdvertised));
        ownAdvertised = own;
        ownChanged = false;
        viewGained = false;
        if (!gained) {
            return; // only removals: those decay through the periodic pulls
        }
        List<NodeHandle> to = subscribers.since(env.nowNanos() - subscriberTtlNanos);
        if (to.isEmpty()) {
            return;
        }
        List<long[]> words = new ArrayList<>();
        words.add(own);
        words.addAll(neighbourLevels());
        BloomAd push = new BloomAd(hashes, words, true);
        lastPushNanos = env.nowNanos();
        for (NodeHandle n : to) {
            env.send(n.address(), push);
            pushes++;
        }
    }

    /** Whether {@code now} has a bit set that {@code before} (null: empty) lacks. */
    private static boolean gains(long[] now, long[] before) {
        for (int i = 0; i < now.length; i++) {
            if ((now[i] & ~(before == null ? 0 : before[i])) != 0) {
                return true;
            }
        }
        return false;
    }

    private static boolean gains(List<long[]> now, List<long[]> before) {
        for (int level = 0; level < now.size(); level++) {
            if (gains(now.get(level), before.get(level))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Stores a neighbour's advertisement as the filter of the link to it. A pushed one that adds bits
     * to this node's own advertisement is passed on (pushed here in turn).
     */
    public void onAd(NodeHandle from, BloomAd ad) {
        if ((indexOf(from.id()) < 0 && !providers.contains(from.id()) && !adopted.contains(from.id())) || ad.hashes() != hashes || ad.words().size() != levels - 1) {
            return;
        }
        List<BloomFilter> linkLevels = new ArrayList<>(ad.words().size());
        for (long[] w : ad.words()) {
            if (w.length * 64 != bits) {
                return;
            }
            linkLevels.add(BloomFilter.fromWords(w, hashes));
        }
        // Pulled changes are not passed on: only a push starts a cascade, and it ends at the deepest level.
        List<long[]> before = ad.pushed() ? neighbourLevels() : null;
        filters.put(from.id(), new AttenuatedBloomFilter(linkLevels));
        if (ad.pushed() && gains(neighbourLevels(), before)) {
            viewGained = true;
            schedulePush();
        }
    }

    /**
     * Neighbours whose filters claim {@code guid} within {@code maxLevel} hops, nearest level first
     * and, within a level, nearest neighbour first; {@code skip} excludes neighbours.
     */
    public List<Match> matches(Id guid, int maxLevel, Predicate<Id> skip) {
        List<Match> out = new ArrayList<>();
        List<NodeHandle> linked = linkedNearestFirst();
        for (int level = 1; level <= Math.min(maxLevel, levels - 1); level++) {
            for (NodeHandle n : linked) {
                AttenuatedBloomFilter f = filters.get(n.id());
                if (f != null && !skip.test(n.id()) && f.level(level).mightContain(guid)) {
                    out.add(new Match(n, level));
                }
            }
        }
        return out;
    }

    /** The neighbours, the providers and the adopted peers, nearest first. */
    private List<NodeHandle> linkedNearestFirst() {
        if (providers.size() == 0 && adopted.size() == 0) {
            return neighbours;
        }
        List<NodeHandle> out = new ArrayList<>(neighbours);
        List<NodeHandle> extra = new ArrayList<>(providers.peers());
        adopted.peers().stream().filter(p -> !providers.contains(p.id())).forEach(extra::add);
        for (NodeHandle p : extra) {
            long rtt = rttOf(p);
            int pos = 0;
            while (pos < out.size() && rttOf(out.get(pos)) <= rtt) {
                pos++;
            }
            out.add(pos, p);
        }
        return out;
    }

    private long rttOf(NodeHandle linked) {
        Long rtt = rtts.get(linked.id());
        if (rtt != null) {
            return rtt;
        }
        return providers.contains(linked.id()) ? providers.rttNanos(linked.id()) : adopted.rttNanos(linked.id());
    }

    /**
     * Whether a neighbour probably holds a replica of {@code guid} itself (its own filter, level 1):
     * replacement treats this node's copy as a non-master one. Bloom false positives make a master
     * look like a non-master now and then; that only costs the stub an occasional outside fetch.
     */
    public boolean heldByNeighbour(Id guid) {
        for (NodeHandle n : neighbours) {
            AttenuatedBloomFilter f = filters.get(n.id());
            if (f != null && f.level(1).mightContain(guid)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The neighbours whose filter's level 1 does not claim {@code guid} (a neighbour whose filter has
     * not arrived claims nothing), nearest first.
     */
    public List<NodeHandle> neighboursWithout(Id guid) {
        List<NodeHandle> without = new ArrayList<>();
        for (NodeHandle n : neighbours) {
            AttenuatedBloomFilter f = filters.get(n.id());
            if (f == null || !f.level(1).mightContain(guid)) {
                without.add(n);
            }
        }
        return without;
    }

    /** Neighbours whose filters have arrived. */
    public int filtersHeld() {
        return filters.size();
    }

    /** Peers that pulled from this node lately: the ones its pushes go to. */
    public int subscribers() {
        return subscribers.size();
    }

    /** Filter messages sent so far. */
    public Traffic traffic() {
        return new Traffic(pulls, answers, pushes);
    }
}
