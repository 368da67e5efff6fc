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
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * This node's local area: the few nearest peers by RTT, and the attenuated Bloom filters they
 * advertise. A locate consults these filters before deterministic routing, so a replica a hop or two
 * away on the local network is found directly. Filters are pulled afresh every refresh period, which
 * is also how bits of replicas that went away decay.
 */
public final class LocalArea {
    /** A neighbour that probably leads to the object, {@code level} hops through it. */
    public record Match(NodeHandle neighbour, int level) {
    }

    private final Env env;
    private final int capacity;
    private final int levels;
    private final int bits;
    private final int hashes;
    private final Supplier<List<Id>> ownReplicas;
    // Nearest first.
    private final List<NodeHandle> neighbours = new ArrayList<>();
    private final Map<Id, Long> rtts = new HashMap<>();
    private final Map<Id, AttenuatedBloomFilter> filters = new HashMap<>();

    /**
     * {@code levels} counts level 0 (this node), so each neighbour's filter has {@code levels - 1}
     * levels.
     */
    public LocalArea(Env env, int capacity, int levels, int bits, int hashes, Supplier<List<Id>> ownReplicas) {
        this.env = env;
        this.capacity = capacity;
        this.levels = levels;
        this.bits = bits;
        this.hashes = hashes;
        this.ownReplicas = ownReplicas;
    }

    /** Starts pulling neighbours' filters every {@code refresh}. */
    public void start(Duration refresh) {
        env.periodic(refresh, this::pull);
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
        rtts.remove(id);
        filters.remove(id);
    }

    /** The neighbours, nearest first. */
    public List<NodeHandle> neighbours() {
        return List.copyOf(neighbours);
    }

    private void pull() {
        for (NodeHandle n : neighbours) {
            env.send(n.address(), new BloomPull());
        }
    }

    /** Answers a neighbour's pull with this node's advertisement. */
    public void onPull(NodeHandle from) {
        env.send(from.address(), advertisement());
    }

    /** Level 0: this node's replicas; level j: what lies j hops away through its neighbours. */
    public BloomAd advertisement() {
        List<long[]> words = new ArrayList<>();
        BloomFilter own = new BloomFilter(bits, hashes);
        for (Id guid : ownReplicas.get()) {
            own.add(guid);
        }
        words.add(own.toWords());
        for (int level = 1; level < levels - 1; level++) {
            BloomFilter union = new BloomFilter(bits, hashes);
            for (AttenuatedBloomFilter f : filters.values()) {
                if (f.depth() >= level) {
                    union.union(f.level(level));
                }
            }
            words.add(union.toWords());
        }
        return new BloomAd(hashes, words);
    }

    /** Stores a neighbour's advertisement as the filter of the link to it. */
    public void onAd(NodeHandle from, BloomAd ad) {
        if (indexOf(from.id()) < 0 || ad.hashes() != hashes || ad.words().size() != levels - 1) {
            return;
        }
        List<BloomFilter> linkLevels = new ArrayList<>(ad.words().size());
        for (long[] w : ad.words()) {
            if (w.length * 64 != bits) {
                return;
            }
            linkLevels.add(BloomFilter.fromWords(w, hashes));
        }
        filters.put(from.id(), new AttenuatedBloomFilter(linkLevels));
    }

    /**
     * Neighbours whose filters claim {@code guid} within {@code maxLevel} hops, nearest level first
     * and, within a level, nearest neighbour first; {@code skip} excludes neighbours.
     */
    public List<Match> matches(Id guid, int maxLevel, Predicate<Id> skip) {
        List<Match> out = new ArrayList<>();
        for (int level = 1; level <= Math.min(maxLevel, levels - 1); level++) {
            for (NodeHandle n : neighbours) {
                AttenuatedBloomFilter f = filters.get(n.id());
                if (f != null && !skip.test(n.id()) && f.level(level).mightContain(guid)) {
                    out.add(new Match(n, level));
                }
            }
        }
        return out;
    }

    /**
     * Whether a neighbour probably holds a replica of {@code guid} itself (its own filter, level 1):
     * replacement treats this node's copy as a non-master one. Bloom false positives make a master
     * look like a non-master now and then; that only costs the stub an occasional outside fetch.
     */
    public boolean heldByNeighbour(Id guid) {
        for (AttenuatedBloomFilter f : filters.values()) {
            if (f.level(1).mightContain(guid)) {
                return true;
            }
        }
        return false;
    }

    /** Neighbours whose filters have arrived. */
    public int filtersHeld() {
        return filters.size();
    }
}
