package io.riptide.gateway.admin;

import io.riptide.core.gateway.GatewayMessages.Outcome;
import io.riptide.dolr.admin.CounterLog;
import io.riptide.dolr.admin.MetricSet;
import io.riptide.dolr.admin.ReportPart;
import io.riptide.dolr.admin.StatusSource;
import io.riptide.dolr.server.OverlayServer;
import io.riptide.gateway.Gateway;
import io.riptide.gateway.origin.FetchException;
import io.riptide.gateway.origin.OriginFetcherMetrics;
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
 * A gateway's figures for its status page and metrics: inserts by outcome (heartbeats are the
 * UNCHANGED ones, refusals the REJECTED and OVERLOADED ones), monitors, publisher pushes, and its
 * origin fetcher's counters. The gateway's state is read on its node's loop.
 */
public final class GatewayReport implements StatusSource {
    /** The gateway's counters worth a log line when they move. */
    public static final List<CounterLog.Watch> WATCHES = List.of(
            new CounterLog.Watch("io.riptide.gateway", Level.WARN, "riptide_gateway_inserts_total", "overloaded",
                    "gateway refused insert requests, too busy (see GatewayConfig maxJobs)"),
            new CounterLog.Watch("io.riptide.gateway", Level.INFO, "riptide_gateway_inserts_total", "rejected",
                    "gateway refused insert requests for URLs it does not fetch"),
            // Routine work: the periodic status line shows it; the log has it only at DEBUG.
            new CounterLog.Watch("io.riptide.gateway", Level.DEBUG, "riptide_gateway_inserts_total", "inserted",
                    "gateway inserted new versions"));

    private final OverlayServer server;
    private final Supplier<Gateway> gateway;
    private final Supplier<OriginFetcherMetrics> fetcher;

    /** {@code fetcher} may be null when the gateway's origin is not an {@code OriginFetcher}. */
    public GatewayReport(OverlayServer server, Supplier<Gateway> gateway, Supplier<OriginFetcherMetrics> fetcher) {
        this.server = server;
        this.gateway = gateway;
        this.fetcher = fetcher;
    }

    private record Snapshot(Map<Outcome, Long> outcomes, long originFetches, int inProgress, int monitors, long polls,
                            long pushesRefused, int keyRotations, int keysRevoked, long treesRevoked) {
    }

    @Override
    public CompletableFuture<ReportPart> report() {
        return server.call(n -> {
            Gateway g = gateway.get();
            Map<Outcome, Long> outcomes = new EnumMap<>(Outcome.class);
            for (Outcome o : Outcome.values()) {
                if (o != Outcome.UNREACHABLE) {
                    outcomes.put(o, g.inserter().outcomes(o));
                }
            }
            return new Snapshot(outcomes, g.inserter().originFetches(), g.inserter().inProgress(), g.monitors().size(),
                    g.monitors().polls(), g.push().refused(), g.keys().records().rotations().size(),
                    g.keys().records().revocations().size(), g.keys().treesRevoked());
        }).thenApply(s -> render(s, fetcher == null ? null : fetcher.get()));
    }

    private static ReportPart render(Snapshot s, OriginFetcherMetrics f) {
        long refused = s.outcomes().get(Outcome.REJECTED) + s.outcomes().get(Outcome.OVERLOADED);
        ReportPart.Builder b = ReportPart.builder()
                .summary("gateway", "inserts " + s.outcomes().get(Outcome.INSERTED) + ", heartbeats "
                        + s.outcomes().get(Outcome.UNCHANGED) + ", refused " + refused + ", in progress " + s.inProgress());
        List<List<String>> rows = new ArrayList<>();
        s.outcomes().forEach((o, n) -> rows.add(List.of(o.name().toLowerCase(Locale.ROOT), Long.toString(n))));
        rows.add(List.of("in progress", Integer.toString(s.inProgress())));
        rows.add(List.of("origin fetches started", Long.toString(s.originFetches())));
        rows.add(List.of("monitors", Integer.toString(s.monitors())));
        rows.add(List.of("monitor polls", Long.toString(s.polls())));
        rows.add(List.of("publisher pushes refused", Long.toString(s.pushesRefused())));
        b.table("Gateway inserts", "heartbeats confirm an unchanged version; refusals are rejected or overloaded requests",
                List.of("figure", "count"), rows);
        Map<String, Number> byOutcome = new LinkedHashMap<>();
        s.outcomes().forEach((o, n) -> byOutcome.put(o.name().toLowerCase(Locale.ROOT), n));
        MetricSet m = b.metrics();
        m.counter("riptide_gateway_inserts_total", "Insert requests answered, by outcome (unchanged: a heartbeat).",
                        "outcome", byOutcome)
                .gauge("riptide_gateway_inserts_in_progress", "Insert jobs running now.", s.inProgress())
                .counter("riptide_gateway_origin_fetches_started_total", "Origin fetches started for inserts and monitors.",
                        s.originFetches())
                .gauge("riptide_gateway_monitors", "URLs the gateway polls for changes.", s.monitors())
                .counter("riptide_gateway_monitor_polls_total", "Origin polls made by monitors.", s.polls())
                .counter("riptide_gateway_pushes_refused_total", "Publisher pushes refused.", s.pushesRefused())
                .gauge("riptide_gateway_key_rotations", "Key rotation certificates the gateway publishes for its provider.",
                        s.keyRotations())
                .gauge("riptide_gateway_keys_revoked", "Provider keys the gateway has published a revocation of.", s.keysRevoked())
                .counter("riptide_gateway_revoked_trees_total",
                        "Dissemination trees a revocation was sent down (objects the revoked key signed, rooted here).",
                        s.treesRevoked());
        if (f != null) {
            Map<String, Number> failures = new LinkedHashMap<>();
            for (FetchException.Reason r : FetchException.Reason.values()) {
                failures.put(r.name().toLowerCase(Locale.ROOT), f.failures(r));
            }
            m.counter("riptide_origin_fetches_total", "Origin fetches asked for.", f.fetches())
                    .counter("riptide_origin_fetches_succeeded_total", "Origin fetches that ended with a response.", f.succeeded())
                    .counter("riptide_origin_fetch_failures_total", "Failed origin fetches, by reason.", "reason", failures)
                    .gauge("riptide_origin_fetches_in_flight", "Origin fetches in progress.", f.inFlight())
                    .counter("riptide_origin_connections_opened_total", "Connections opened to origins.", f.connectionsOpened())
                    .counter("riptide_origin_received_bytes_total", "Bytes read from origin sockets.", f.bytesReceived());
        }
        return b.build();
    }
}
