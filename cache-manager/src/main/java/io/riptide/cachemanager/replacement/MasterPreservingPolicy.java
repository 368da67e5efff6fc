package io.riptide.cachemanager.replacement;

import java.util.Collection;
import java.util.Comparator;
import java.util.Map;

/**
 * Replacement within a stub after CCM (Cuenca-Acuna and Nguyen, "Cooperative Caching Middleware for
 * Cluster-Based Servers", sections 3 and 5): copies that also exist elsewhere in the stub
 * ("non-master" copies) are evicted before the stub's last copy of an object (its "master"), since
 * losing a master sends the next request out of the stub while losing a non-master only costs a
 * nearby fetch.
 *
 * <p>The rule, as the paper states it: "never evict a master copy if the evicting node is still
 * holding a non-master copy; instead, evict the oldest non-master copy. If the node is only holding
 * master copies, then perform the global LRU eviction as before" — and that global LRU step is:
 * if the oldest block "is a master block and one of its peers has an older block, then it forwards
 * the evicted master block to the peer with the oldest block"; the receiver drops its own oldest
 * block to make place (no cascade), and drops the forwarded block instead if everything it holds is
 * younger. Stateless: callers pass what they know.
 */
public final class MasterPreservingPolicy {
    private static final Comparator<CachedReplica> OLDEST_FIRST = Comparator.comparingLong(CachedReplica::lastUsedNanos)
            .thenComparing(CachedReplica::guid);

    /**
     * The replica to make room with among {@code held} (not empty), and where to forward it.
     *
     * @param peerOldest each peer in the stub and the age (last use) of its oldest replica; peers
     *                   with nothing to give up are left out
     */
    public <P> Eviction<P> evict(Collection<CachedReplica> held, Map<P, Long> peerOldest) {
        if (held.isEmpty()) {
            throw new IllegalArgumentException("nothing to evict");
        }
        CachedReplica oldestNonMaster = held.stream().filter(r -> !r.master()).min(OLDEST_FIRST).orElse(null);
        if (oldestNonMaster != null) {
            return new Eviction<>(oldestNonMaster, null);
        }
        CachedReplica oldest = held.stream().min(OLDEST_FIRST).orElseThrow();
        P target = null;
        long targetAge = oldest.lastUsedNanos();
        for (Map.Entry<P, Long> e : peerOldest.entrySet()) {
            // Strictly older only: forwarding to an equally old peer would just move the problem.
            if (e.getValue() < targetAge) {
                target = e.getKey();
                targetAge = e.getValue();
            }
        }
        return new Eviction<>(oldest, target);
    }

    /**
     * Whether a peer receiving a forwarded master keeps it: only if something it holds is older
     * (which it then drops). Otherwise the forwarded block is the oldest in the stub and is dropped.
     */
    public boolean acceptsForwarded(CachedReplica forwarded, Collection<CachedReplica> held) {
        return held.stream().anyMatch(r -> r.lastUsedNanos() < forwarded.lastUsedNanos());
    }

    /** Plain LRU, the baseline: the least recently used replica, never forwarded. */
    public <P> Eviction<P> lru(Collection<CachedReplica> held) {
        return new Eviction<>(held.stream().min(OLDEST_FIRST).orElseThrow(() -> new IllegalArgumentException("nothing to evict")),
                null);
    }
}
