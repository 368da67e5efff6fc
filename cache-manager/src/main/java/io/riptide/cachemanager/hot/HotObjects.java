package io.riptide.cachemanager.hot;

import io.riptide.cachemanager.CacheManagerConfig;
import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.dolr.OverlayNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Flash crowds (paper, section 4.4; the accelerator paper's hot-object replication): when an
 * object's request rate per replica climbs over the bound, add replicas on nodes of the stub (the
 * manager's local area, nearest first) until the load per replica falls under it; when it cools,
 * retire the extra replicas again, newest first. The object's original copy counts as one replica.
 */
public final class HotObjects {
    private final OverlayNode node;
    private final CacheManagerConfig config;
    private final RequestRates rates;
    // The extra replicas this manager made per object, oldest first, and those still being made.
    private final Map<Id, List<NodeHandle>> extra = new HashMap<>();
    private final Map<Id, Set<Id>> making = new HashMap<>();
    private long added;
    private long retired;

    public HotObjects(OverlayNode node, CacheManagerConfig config) {
        this.node = node;
        this.config = config;
        this.rates = new RequestRates(config.rateWindow(), config.maxTracked());
    }

    /** Starts the periodic comparison of rates and replicas. */
    public void start() {
        node.env().periodic(config.hotCheck(), this::check);
    }

    /** {@code count} requests for {@code guid} seen (in hints or load reports). */
    public void onRequests(Id guid, long count) {
        rates.record(guid, count, node.env().nowNanos());
    }

    /** Compares each object's rate with its replicas, and adds or retires replicas. */
    public void check() {
        long now = node.env().nowNanos();
        Set<Id> objects = new HashSet<>(rates.active(now));
        objects.addAll(extra.keySet());
        for (Id guid : objects) {
            int wanted = wantedExtras(rates.perSecond(guid, now));
            int have = extra.getOrDefault(guid, List.of()).size() + making.getOrDefault(guid, Set.of()).size();
            if (wanted > have) {
                add(guid, wanted - have);
            } else if (wanted < have) {
                retire(guid, have - wanted);
            }
        }
    }

    /** Extra replicas for a rate: enough that each replica (the original included) serves at most the bound. */
    int wantedExtras(double perSecond) {
        int replicas = (int) Math.ceil(perSecond / config.loadPerReplica());
        return Math.max(0, Math.min(config.maxHotReplicas(), replicas - 1));
    }

    private void add(Id guid, int count) {
        Set<Id> busy = new HashSet<>();
        extra.getOrDefault(guid, List.of()).forEach(h -> busy.add(h.id()));
        busy.addAll(making.getOrDefault(guid, Set.of()));
        List<NodeHandle> candidates = new ArrayList<>();
        candidates.add(node.self());
        candidates.addAll(node.localArea().neighbours());
        for (NodeHandle target : candidates) {
            if (count == 0) {
                return;
            }
            if (busy.contains(target.id()) || (target.id().equals(node.self().id()) && node.replicas().contains(guid))) {
                continue;
            }
            count--;
            making.computeIfAbsent(guid, g -> new HashSet<>()).add(target.id());
            node.replicateTo(target, guid, result -> {
                Set<Id> m = making.get(guid);
                if (m != null && m.remove(target.id()) && m.isEmpty()) {
                    making.remove(guid);
                }
                // "already held" replicas are someone else's: not ours to count or retire.
                if (result.ok() && !"already held".equals(result.reason())) {
                    extra.computeIfAbsent(guid, g -> new ArrayList<>()).add(target);
                    added++;
                }
            });
        }
    }

    private void retire(Id guid, int count) {
        List<NodeHandle> mine = extra.get(guid);
        while (count > 0 && mine != null && !mine.isEmpty()) {
            // Newest first: the oldest extras sit nearest the manager (candidates are taken nearest first).
            NodeHandle target = mine.remove(mine.size() - 1);
            node.retireAt(target, guid);
            retired++;
            count--;
        }
        if (mine != null && mine.isEmpty()) {
            extra.remove(guid);
        }
    }

    /** Where this manager holds extra replicas of {@code guid} now. */
    public List<NodeHandle> extraReplicas(Id guid) {
        return List.copyOf(extra.getOrDefault(guid, List.of()));
    }

    /** Requests per second for {@code guid} now. */
    public double rate(Id guid) {
        return rates.perSecond(guid, node.env().nowNanos());
    }

    /** Extra replicas made so far. */
    public long added() {
        return added;
    }

    /** Extra replicas retired so far. */
    public long retired() {
        return retired;
    }
}
