package io.riptide.cachemanager.admin;

import io.riptide.cachemanager.CacheManager;
import io.riptide.core.gateway.GatewayMessages.Outcome;
import io.riptide.dolr.admin.CounterLog;
import io.riptide.dolr.admin.ReportPart;
import io.riptide.dolr.admin.StatusSource;
import io.riptide.dolr.server.OverlayServer;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.slf4j.event.Level;

/**
 * A cache manager's figures for its status page and metrics: hints received, insert requests sent to
 * gateways and their outcomes, inserted objects copied here, replicas placed for slow hits, and
 * extra replicas of hot objects.
 * Read on its node's loop.
 */
public final class CacheManagerReport implements StatusSource {
    /** The cache manager's counters worth a log line when they move. */
    public static final List<CounterLog.Watch> WATCHES = List.of(
            new CounterLog.Watch("io.riptide.cachemanager", Level.INFO, "riptide_cache_manager_replicas_placed_total", null,
                    "cache manager placed replicas for slow hits"),
            new CounterLog.Watch("io.riptide.cachemanager", Level.INFO, "riptide_cache_manager_hot_replicas_added_total",
                    null, "cache manager made extra replicas of hot objects"),
            new CounterLog.Watch("io.riptide.cachemanager", Level.WARN, "riptide_cache_manager_insert_outcomes_total",
                    "unreachable", "cache manager's insert requests reached no gateway (is one running?)"));

    private final OverlayServer server;
    private final Supplier<CacheManager> manager;

    public CacheManagerReport(OverlayServer server, Supplier<CacheManager> manager) {
        this.server = server;
        this.manager = manager;
    }

    private record Snapshot(long hints, long insertsSent, Map<Outcome, Long> outcomes, long replicasPlaced,
                            long placementFailures, long hotAdded, long hotRetired, long insertedCopies,
                            long insertedCopyFailures, long remoteCopies) {
    }

    @Override
    public CompletableFuture<ReportPart> report() {
        return server.call(n -> {
            CacheManager m = manager.get();
            Map<Outcome, Long> outcomes = new EnumMap<>(Outcome.class);
            for (Outcome o : Outcome.values()) {
                outcomes.put(o, m.gateway().outcomes(o));
            }
            return new Snapshot(m.hints(), m.gateway().sent(), outcomes, m.slowHits().replicasMade(), m.slowHits().failures(),
                    m.hotObjects().added(), m.hotObjects().retired(), m.insertedCopies().made(), m.insertedCopies().failures(),
                    m.insertedCopies().remoteMade());
        }).thenApply(CacheManagerReport::render);
    }

    private static ReportPart render(Snapshot s) {
        long hot = s.hotAdded() - s.hotRetired();
        ReportPart.Builder b = ReportPart.builder()
                .summary("cache manager", "hints " + s.hints() + ", insert requests " + s.insertsSent()
                        + ", replicas placed " + s.replicasPlaced() + ", hot replicas " + hot);
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of("hints received", Long.toString(s.hints())));
        rows.add(List.of("insert requests sent", Long.toString(s.insertsSent())));
        s.outcomes().forEach((o, n) -> rows.add(List.of("  answered " + o.name().toLowerCase(Locale.ROOT), Long.toString(n))));
        rows.add(List.of("inserted objects copied here", Long.toString(s.insertedCopies())));
        rows.add(List.of("  copies that failed", Long.toString(s.insertedCopyFailures())));
        rows.add(List.of("inserted objects copied where they were missed", Long.toString(s.remoteCopies())));
        rows.add(List.of("replicas placed for slow hits", Long.toString(s.replicasPlaced())));
        rows.add(List.of("placements failed", Long.toString(s.placementFailures())));
        rows.add(List.of("hot replicas now", Long.toString(hot)));
        rows.add(List.of("hot replicas added", Long.toString(s.hotAdded())));
        rows.add(List.of("hot replicas retired", Long.toString(s.hotRetired())));
        b.table("Cache manager", "", List.of("figure", "count"), rows);
        Map<String, Number> byOutcome = new LinkedHashMap<>();
        s.outcomes().forEach((o, n) -> byOutcome.put(o.name().toLowerCase(Locale.ROOT), n));
        b.metrics()
                .counter("riptide_cache_manager_hints_total", "Hints received from browser proxies.", s.hints())
                .counter("riptide_cache_manager_insert_requests_total", "Insert requests sent to gateways.", s.insertsSent())
                .counter("riptide_cache_manager_insert_outcomes_total", "Answers to insert requests, by outcome.", "outcome",
                        byOutcome)
                .counter("riptide_cache_manager_inserted_copies_total",
                        "Objects this manager had inserted, copied to its own node for its stub.", s.insertedCopies())
                .counter("riptide_cache_manager_inserted_copy_failures_total",
                        "Copies of inserted objects that failed (no replica answered, no room).", s.insertedCopyFailures())
                .counter("riptide_cache_manager_remote_copies_total",
                        "Inserted objects copied to the nodes whose proxies missed them, outside this manager's local area.",
                        s.remoteCopies())
                .counter("riptide_cache_manager_replicas_placed_total", "Replicas placed for slow hits.", s.replicasPlaced())
                .counter("riptide_cache_manager_placement_failures_total", "Replica placements that failed.",
                        s.placementFailures())
                .gauge("riptide_cache_manager_hot_replicas", "Extra replicas of hot objects held now.", hot)
                .counter("riptide_cache_manager_hot_replicas_added_total", "Extra replicas of hot objects made.", s.hotAdded());
        return b.build();
    }
}
