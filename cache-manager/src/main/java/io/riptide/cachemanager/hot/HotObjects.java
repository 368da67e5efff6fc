package io.riptide.cachemanager.hot;

import io.riptide.cachemanager.CacheManagerConfig;
import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.dolr.OverlayNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Flash crowds (paper, section 4.4; the accelerator paper's hot-object replication): when an
 * object's request rate per replica climbs over the bound, add replicas where the load comes from,
 * and retire them when it cools or their source goes quiet. The original copy counts as one replica.
 *
 * <p>Reads go to the replica nearest their source, so a replica takes load only if it is the
 * nearest for some source. Each extra replica therefore goes onto a source of the load (the access
 * node of proxies that hinted or reported), heaviest source first, skipping sources that already
 * hold a copy; so there are never more extras than sources without one, each serves its source at
 * once, and one that goes idle is retired.
 */
public final class HotObjects {
    private final OverlayNode node;
    private final CacheManagerConfig config;
    private final RequestRates<Id> rates;
    private final LoadSources sources;
    // Per object, the extra replicas this manager made, by the source each serves (oldest first)...
    private final Map<Id, Map<Id, NodeHandle>> extra = new HashMap<>();
    // ... the sources where one is being made ...
    private final Map<Id, Set<Id>> making = new HashMap<>();
    // ... and the sources found to hold a copy already (someone else's, or the original).
    private final Map<Id, Set<Id>> heldElsewhere = new HashMap<>();
    private long added;
    private long retired;
    private long handedOver;

    public HotObjects(OverlayNode node, CacheManagerConfig config) {
        this.node = node;
        this.config = config;
        this.rates = new RequestRates<>(config.rateWindow(), config.maxTracked());
        this.sources = new LoadSources(config.rateWindow(), config.maxTracked());
    }

    /** Starts the periodic comparison of rates and replicas. */
    public void start() {
        node.env().periodic(config.hotCheck(), this::check);
    }

    /** {@code count} requests for {@code guid} seen (in hints or load reports) from {@code source}'s proxies. */
    public void onRequests(Id guid, NodeHandle source, long count) {
        long now = node.env().nowNanos();
        rates.record(guid, count, now);
        sources.record(guid, source, count, now);
    }

    /** Compares each object's rate and load sources with its replicas, and adds or retires replicas. */
    public void check() {
        long now = node.env().nowNanos();
        Set<Id> objects = new HashSet<>(rates.active(now));
        objects.addAll(extra.keySet());
        objects.addAll(making.keySet());
        heldElsewhere.keySet().retainAll(objects);
        for (Id guid : objects) {
            check(guid, now);
        }
    }

    private void check(Id guid, long now) {
        Map<Id, Double> load = new HashMap<>();
        List<LoadSources.Source> heaviest = sources.heaviestFirst(guid, now);
        heaviest.forEach(s -> load.put(s.node().id(), s.perSecond()));
        Map<Id, NodeHandle> mine = extra.getOrDefault(guid, Map.of());
        Set<Id> inProgress = making.getOrDefault(guid, Set.of());
        Set<Id> held = heldElsewhere.get(guid);
        if (held != null) {
            held.retainAll(load.keySet()); // a source that went quiet and comes back is looked at afresh
        }

        // An extra whose source sent nothing for a whole window serves nobody.
        List<Id> idle = mine.keySet().stream().filter(s -> !load.containsKey(s)).toList();
        idle.forEach(s -> retire(guid, s));

        int wanted = wantedExtras(rates.perSecond(guid, now));
        int have = extra.getOrDefault(guid, Map.of()).size() + inProgress.size();
        if (wanted < have) {
            // The lightest sources lose theirs first: they take the least load off the others.
            List<Id> lightest = new ArrayList<>(extra.getOrDefault(guid, Map.of()).keySet());
            lightest.sort(Comparator.comparingDouble((Id s) -> load.getOrDefault(s, 0.0)).thenComparing(s -> s));
            lightest.stream().limit(have - wanted).toList().forEach(s -> retire(guid, s));
            return;
        }
        for (LoadSources.Source s : heaviest) {
            if (have >= wanted) {
                return;
            }
            Id id = s.node().id();
            boolean served = extra.getOrDefault(guid, Map.of()).containsKey(id) || inProgress.contains(id)
                    || (held != null && held.contains(id));
            if (!served) {
                add(guid, s.node());
                have++;
            }
        }
    }

    /** Extra replicas for a rate: enough that each replica (the original included) serves at most the bound. */
    int wantedExtras(double perSecond) {
        int replicas = (int) Math.ceil(perSecond / config.loadPerReplica());
        return Math.max(0, Math.min(config.maxHotReplicas(), replicas - 1));
    }

    private void add(Id guid, NodeHandle source) {
        Id id = source.id();
        making.computeIfAbsent(guid, g -> new HashSet<>()).add(id);
        node.replicateTo(source, guid, result -> {
            Set<Id> m = making.get(guid);
            if (m != null && m.remove(id) && m.isEmpty()) {
                making.remove(guid);
            }
            if (!result.ok()) {
                return; // tried again at a later check, if the source is still among the heaviest
            }
            if ("already held".equals(result.reason())) {
                // Someone else's replica (or the original) already serves this source: not ours to count or retire.
                heldElsewhere.computeIfAbsent(guid, g -> new HashSet<>()).add(id);
            } else {
                extra.computeIfAbsent(guid, g -> new LinkedHashMap<>()).put(id, source);
                added++;
            }
        });
    }

    /**
     * The extra replica of {@code guid} at {@code source}, if this made one, now serves that source's
     * area for good (another part of the manager counts on it): it is no longer this one's to retire,
     * and is left to its holder's replacement as any replica is.
     */
    public void handOver(Id guid, NodeHandle source) {
        Map<Id, NodeHandle> mine = extra.get(guid);
        if (mine != null && mine.remove(source.id()) != null) {
            handedOver++;
            heldElsewhere.computeIfAbsent(guid, g -> new HashSet<>()).add(source.id());
            if (mine.isEmpty()) {
                extra.remove(guid);
            }
        }
    }

    private void retire(Id guid, Id source) {
        Map<Id, NodeHandle> mine = extra.get(guid);
        NodeHandle target = mine == null ? null : mine.remove(source);
        if (target == null) {
            return;
        }
        node.retireAt(target, guid);
        retired++;
        if (mine.isEmpty()) {
            extra.remove(guid);
        }
    }

    /** Where this manager holds extra replicas of {@code guid} now, oldest first. */
    public List<NodeHandle> extraReplicas(Id guid) {
        return List.copyOf(extra.getOrDefault(guid, Map.of()).values());
    }

    /** The sources of {@code guid}'s load now, heaviest first. */
    public List<LoadSources.Source> loadSources(Id guid) {
        return sources.heaviestFirst(guid, node.env().nowNanos());
    }

    /** Requests per second for {@code guid} now. */
    public double rate(Id guid) {
        return rates.perSecond(guid, node.env().nowNanos());
    }

    /** Extra replicas made so far. */
    public long added() {
        return added;
    }

    /** Extra replicas handed over to serve their area for good ({@link #handOver}). */
    public long handedOver() {
        return handedOver;
    }

    /** Extra replicas retired so far. */
    public long retired() {
        return retired;
    }
}
