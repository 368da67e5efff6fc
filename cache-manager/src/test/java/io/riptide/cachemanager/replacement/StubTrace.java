package io.riptide.cachemanager.replacement;

import io.riptide.core.id.Id;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A trace-driven model of one stub: {@code caches} caches of {@code capacity} objects each. A
 * request at a cache is a local hit, a stub hit (another cache in the stub has it: copied in), or a
 * miss (fetched from outside). Replacement is plain per-node LRU or the master-preserving rule.
 */
final class StubTrace {
    private final int caches;
    private final int capacity;
    private final boolean masterPreserving;
    private final MasterPreservingPolicy policy = new MasterPreservingPolicy();
    private final List<Map<Id, Long>> held = new ArrayList<>();
    private final Map<Id, Integer> copies = new HashMap<>();
    private long clock;
    private long stubHits;
    private long requests;

    StubTrace(int caches, int capacity, boolean masterPreserving) {
        this.caches = caches;
        this.capacity = capacity;
        this.masterPreserving = masterPreserving;
        for (int i = 0; i < caches; i++) {
            held.add(new LinkedHashMap<>());
        }
    }

    /** Runs {@code count} requests for Zipf({@code alpha})-popular objects among {@code objects}, from random caches. */
    double run(long seed, int objects, double alpha, int count) {
        SplittableRandom random = new SplittableRandom(seed);
        double[] cumulative = new double[objects];
        double sum = 0;
        for (int k = 0; k < objects; k++) {
            sum += 1 / Math.pow(k + 1, alpha);
            cumulative[k] = sum;
        }
        for (int i = 0; i < count; i++) {
            double u = random.nextDouble() * sum;
            int k = java.util.Arrays.binarySearch(cumulative, u);
            request(random.nextInt(caches), Id.hash("object-" + (k < 0 ? -k - 1 : k)));
        }
        return (double) stubHits / requests;
    }

    private void request(int at, Id guid) {
        clock++;
        requests++;
        Map<Id, Long> mine = held.get(at);
        if (mine.containsKey(guid)) {
            stubHits++;
            mine.put(guid, clock);
            return;
        }
        if (copies.getOrDefault(guid, 0) > 0) {
            stubHits++; // a neighbour in the stub had it
        }
        makeRoom(at);
        add(at, guid, clock);
    }

    private void makeRoom(int at) {
        Map<Id, Long> mine = held.get(at);
        if (mine.size() < capacity) {
            return;
        }
        List<CachedReplica> view = view(at);
        if (!masterPreserving) {
            remove(at, policy.lru(view).victim().guid());
            return;
        }
        Map<Integer, Long> peerOldest = new LinkedHashMap<>();
        for (int p = 0; p < caches; p++) {
            if (p != at && !held.get(p).isEmpty()) {
                peerOldest.put(p, held.get(p).values().stream().min(Long::compare).orElseThrow());
            }
        }
        Eviction<Integer> e = policy.evict(view, peerOldest);
        remove(at, e.victim().guid());
        if (e.forwards() && policy.acceptsForwarded(e.victim(), view(e.forwardTo()))) {
            // The receiver drops its own oldest to take the master: no cascade (CCM).
            remove(e.forwardTo(), policy.lru(view(e.forwardTo())).victim().guid());
            add(e.forwardTo(), e.victim().guid(), e.victim().lastUsedNanos());
        }
    }

    private List<CachedReplica> view(int at) {
        List<CachedReplica> out = new ArrayList<>();
        for (Map.Entry<Id, Long> e : held.get(at).entrySet()) {
            out.add(new CachedReplica(e.getKey(), e.getValue(), copies.get(e.getKey()) == 1));
        }
        return out;
    }

    private void add(int at, Id guid, long lastUsed) {
        held.get(at).put(guid, lastUsed);
        copies.merge(guid, 1, Integer::sum);
    }

    private void remove(int at, Id guid) {
        held.get(at).remove(guid);
        copies.merge(guid, -1, Integer::sum);
    }
}
