package io.riptide.proxy.status;

import io.riptide.core.net.NettyTransport;
import io.riptide.core.object.RejectReason;
import io.riptide.core.stage.StageMetrics;
import io.riptide.dolr.admin.ReportPart;
import io.riptide.dolr.admin.StageFamilies;
import io.riptide.dolr.admin.StatusReport;
import io.riptide.proxy.Cidr;
import io.riptide.proxy.ProxyConfig;
import io.riptide.proxy.ProxyStats;
import io.riptide.proxy.ProxyStats.Cap;
import io.riptide.proxy.ProxyStats.Side;
import io.riptide.proxy.cache.CacheFigures;
import io.riptide.proxy.cache.MemoryFigures;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The proxy's figures, from which its status page, {@code /status.json} and {@code /metrics} are all
 * rendered: requests by result, tunnels, refused clients, browser connections open and refused over a cap,
 * late request heads, messages refused for their framing, latency percentiles, the access nodes in
 * use, what the overlay cache counted (refused replicas, hints and load reports sent), the memory
 * tier's size, hit ratio and evictions, and the stages a request passes (queue, wait, refused and shed).
 */
public final class ProxyReport {
    /** The status page's title. */
    public static final String TITLE = "Riptide browser proxy";

    private ProxyReport() {
    }

    /** The report without stage figures. */
    public static StatusReport of(ProxyStats stats, ProxyConfig config, List<String> accessNodes, Optional<CacheFigures> cache) {
        return of(stats, config, accessNodes, cache, List.of());
    }

    /** The report, with the figures of {@code stages} in the order a request meets them. */
    public static StatusReport of(ProxyStats stats, ProxyConfig config, List<String> accessNodes, Optional<CacheFigures> cache,
            List<StageMetrics> stages) {
        ProxyStats.Latency l = stats.latency();
        ReportPart.Builder b = ReportPart.builder()
                .summary("mode", config.passThrough() ? "pass-through (no cache lookups)" : "caching")
                .summary("transport", NettyTransport.describe())
                .summary("requests", "hits " + stats.hits() + ", misses " + stats.misses() + ", bypasses " + stats.bypasses()
                        + ", errors " + stats.errors() + ", shed " + stats.shed())
                .summary("https", config.interception().on() ? "intercepting " + config.interception().policy()
                        + " (CA " + config.interception().ca().certificateFile() + ")" : "tunnelled untouched (no --intercept)")
                .summary("clients allowed", config.allowFrom().stream().map(Cidr::toString).collect(Collectors.joining(", ")))
                .summary("destinations", destinations(config))
                .summary("access nodes", accessNodes.isEmpty() ? "none" : String.join(", ", accessNodes));
        b.table("Requests", "", List.of("result", "count"), List.of(
                List.of("hits", Long.toString(stats.hits())),
                List.of("misses", Long.toString(stats.misses())),
                List.of("bypasses", Long.toString(stats.bypasses())),
                List.of("errors", Long.toString(stats.errors())),
                List.of("shed (503, Retry-After: an origin's connections busy and its queue standing)", Long.toString(stats.shed())),
                List.of("tunnels", Long.toString(stats.tunnels())),
                List.of("intercepted connections (HTTPS)", Long.toString(stats.intercepted())),
                List.of("leaf certificates minted", Long.toString(stats.leavesMinted())),
                List.of("origin certificates refused (did not verify)", Long.toString(stats.originCertificatesRefused())),
                List.of("clients refused (not in allow-from)", Long.toString(stats.clientsRefused())),
                List.of("origin connections opened", Long.toString(stats.upstreamConnectionsOpened()))));
        b.table("Connections and refusals", "browser connections, and what was refused before reaching an origin or a browser",
                List.of("figure", "value"), List.of(
                        List.of("open now", stats.clientConnections() + " (limit " + config.maxConnections() + ", "
                                + config.maxConnectionsPerClient() + " per client)"),
                        List.of("refused: over the global limit (503)", Long.toString(stats.connectionsOverCap(Cap.GLOBAL))),
                        List.of("refused: over the per-client limit (503)", Long.toString(stats.connectionsOverCap(Cap.PER_CLIENT))),
                        List.of("closed: request head late (408)", Long.toString(stats.requestHeadTimeouts())),
                        List.of("requests refused for their framing (400, 501)", Long.toString(stats.framingRefusals(Side.REQUEST))),
                        List.of("origin responses refused for their framing (502)",
                                Long.toString(stats.framingRefusals(Side.RESPONSE)))));
        b.table("Latency", l.count() + " requests, from a request's head to its response's last byte",
                List.of("percentile", "latency"), List.of(
                        List.of("p50", ms(l.p50Micros())),
                        List.of("p90", ms(l.p90Micros())),
                        List.of("p99", ms(l.p99Micros())),
                        List.of("max", ms(l.maxMicros()))));
        b.table("Access nodes", "overlay nodes the proxy reads through, nearest first", List.of("node"),
                accessNodes.stream().map(List::of).toList());
        cache.ifPresent(c -> b.table("Overlay cache", "lookups, verification and what the nearest cache manager was told",
                List.of("figure", "count"), List.of(
                        List.of("lookups", Long.toString(c.lookups())),
                        List.of("hits (verified copies)", Long.toString(c.hits())),
                        List.of("replicas refused", c.refusedTotal() + (c.refused().isEmpty() ? "" : " " + c.refused())),
                        List.of("provider keys learned by rotation / revoked", c.keys().learned() + " / " + c.keys().revoked()),
                        List.of("signatures verified in full / known already", c.signaturesFull() + " / " + c.signaturesMemo()),
                        List.of("to the origin: verify stage full", Long.toString(c.overloaded())),
                        List.of("miss / seen / stale / latency hints", c.missHints() + " / " + c.seenHints() + " / " + c.staleHints()
                                + " / " + c.latencyHints()),
                        List.of("load reports (requests counted)", c.loadReports() + " (" + c.requestsReported() + ")"),
                        List.of("overlay reads (joined one in flight)", c.overlayReads() + " (" + c.readsShared() + ")"),
                        List.of("reads hedged to a second access node (answered there first; not hedged, over budget)",
                                c.access().readsHedged() + " (" + c.access().hedgeWins() + "; " + c.access().hedgesOverBudget() + ")"),
                        List.of("reads sent on at once to the next access node (theirs lost)",
                                Long.toString(c.access().readsResent())),
                        List.of("access nodes marked down (down now, retrying)", c.access().nodesLost() + " ("
                                + (c.access().down().isEmpty() ? "none" : c.access().down().stream().map(Object::toString)
                                        .collect(Collectors.joining(", "))) + ")"))));
        cache.map(CacheFigures::memory).ifPresent(m -> b.table("Memory tier",
                "verified copies and the proxy's own fetches kept in this process (bodies off the heap), answered without an overlay read",
                List.of("figure", "value"), List.of(
                        List.of("size", mb(m.bytes()) + " of " + mb(m.maxBytes()) + " (" + m.entries() + " entries)"),
                        List.of("hits / misses", m.hits() + " / " + m.misses()
                                + String.format(Locale.ROOT, " (hit ratio %.3f)", m.hitRatio())),
                        List.of("copies stored / evicted", m.stored() + " / " + m.evictions()),
                        List.of("own fetches kept (private)", Long.toString(cache.get().keptPrivately())),
                        List.of("background overlay reads (recheck)", Long.toString(cache.get().memoryRefreshes())))));
        Map<String, Number> byResult = new LinkedHashMap<>();
        byResult.put("hit", stats.hits());
        byResult.put("miss", stats.misses());
        byResult.put("bypass", stats.bypasses());
        byResult.put("error", stats.errors());
        byResult.put("shed", stats.shed());
        Map<String, Number> overCap = new LinkedHashMap<>();
        overCap.put("global", stats.connectionsOverCap(Cap.GLOBAL));
        overCap.put("per_client", stats.connectionsOverCap(Cap.PER_CLIENT));
        Map<String, Number> framing = new LinkedHashMap<>();
        framing.put("request", stats.framingRefusals(Side.REQUEST));
        framing.put("response", stats.framingRefusals(Side.RESPONSE));
        Map<Double, Double> quantiles = new LinkedHashMap<>();
        quantiles.put(0.5, l.p50Micros() / 1e6);
        quantiles.put(0.9, l.p90Micros() / 1e6);
        quantiles.put(0.99, l.p99Micros() / 1e6);
        b.metrics()
                .counter("riptide_proxy_requests_total", "Requests answered, by where the answer came from.", "result", byResult)
                .counter("riptide_proxy_tunnels_total", "CONNECT tunnels opened.", stats.tunnels())
                .counter("riptide_proxy_intercepted_total", "CONNECTs intercepted: TLS terminated with a leaf of the local CA.",
                        stats.intercepted())
                .counter("riptide_proxy_leaf_certificates_minted_total", "Leaf certificates minted for intercepted hosts.",
                        stats.leavesMinted())
                .counter("riptide_proxy_origin_certificates_refused_total",
                        "TLS handshakes with intercepted origins refused because their certificate did not verify.",
                        stats.originCertificatesRefused())
                .counter("riptide_proxy_clients_refused_total",
                        "Connections refused with 403 because the client's address is not in allow-from.", stats.clientsRefused())
                .counter("riptide_proxy_origin_connections_opened_total", "New connections to origins.",
                        stats.upstreamConnectionsOpened())
                .gauge("riptide_proxy_client_connections", "Browser connections open.", stats.clientConnections())
                .counter("riptide_proxy_connections_over_cap_total",
                        "Browser connections refused with 503 because they were over a cap (--max-connections, "
                        + "--max-connections-per-client).", "cap", overCap)
                .counter("riptide_proxy_request_head_timeouts_total",
                        "Browser connections closed with 408 because a request head took longer than --request-head-timeout.",
                        stats.requestHeadTimeouts())
                .counter("riptide_proxy_framing_refused_total", "Messages refused for ambiguous framing (both Transfer-Encoding "
                        + "and Content-Length, a coding other than chunked alone, a bad Content-Length): browsers' requests "
                        + "(400, 501) and origins' responses (502).", "side", framing)
                .gauge("riptide_proxy_access_nodes", "Overlay access nodes in use.", accessNodes.size());
        cache.ifPresent(c -> {
            Map<String, Number> refused = new LinkedHashMap<>();
            for (RejectReason r : RejectReason.values()) {
                refused.put(r.name().toLowerCase(Locale.ROOT), c.refused().getOrDefault(r, 0L));
            }
            Map<String, Number> hints = new LinkedHashMap<>();
            hints.put("miss", c.missHints());
            hints.put("seen", c.seenHints());
            hints.put("stale", c.staleHints());
            hints.put("latency", c.latencyHints());
            Map<String, Number> gatewayAnswers = new LinkedHashMap<>();
            for (io.riptide.core.gateway.GatewayMessages.Outcome o : io.riptide.core.gateway.GatewayMessages.Outcome.values()) {
                gatewayAnswers.put(o.name().toLowerCase(Locale.ROOT), c.gatewayAnswers().getOrDefault(o, 0L));
            }
            Map<String, Number> sightings = new LinkedHashMap<>();
            sightings.put("first", c.firstSightings());
            sightings.put("seen", c.repeatSightings());
            sightings.put("unanswered", c.sightingsUnanswered());
            b.metrics()
                    .counter("riptide_proxy_cache_lookups_total", "Cacheable requests looked up (memory tier, then overlay).",
                            c.lookups())
                    .counter("riptide_proxy_replicas_refused_total", "Replicas refused by verification, by reason.", "reason", refused)
                    .gauge("riptide_proxy_provider_keys_learned",
                            "Provider keys trusted because a trusted key certified them (key rotation).", c.keys().learned())
                    .gauge("riptide_proxy_provider_keys_revoked",
                            "Provider keys revoked: whatever they signed is refused, memory copies included.", c.keys().revoked())
                    .counter("riptide_proxy_key_records_refused_total",
                            "Key rotation and revocation records refused: forged, or signed by a key without standing.",
                            c.keys().recordsRefused())
                    .counter("riptide_proxy_revoked_lookups_total",
                            "Lookups that met a key revocation or a copy signed by a revoked key, and went to the origin.",
                            c.keys().revokedLookups())
                    .counter("riptide_proxy_verify_overloaded_total", "Lookups sent to the origin because the verify stage was full.",
                            c.overloaded())
                    .counter("riptide_proxy_hints_total", "Hints sent to the nearest cache manager, by kind.", "kind", hints)
                    .counter("riptide_proxy_gateway_fetches_total", "Misses the gateway was asked to fetch for the request "
                            + "(through-gateway insert policies), by its answer (unreachable: none in time).", "outcome", gatewayAnswers)
                    .counter("riptide_proxy_gateway_copies_total", "Misses the gateway answered with the signed copy in its "
                            + "reply, verified and served without reading it back.", c.gatewayCopies())
                    .counter("riptide_proxy_gateway_copies_failed_total", "Misses the gateway inserted whose copy (sent or read "
                            + "back) could not be served, so the proxy fetched them itself.", c.gatewayReadsFailed())
                    .counter("riptide_proxy_sightings_total", "Misses asked of the stub's cache manager before fetching, by its "
                            + "answer (first: fetched here; seen: fetched by the gateway; unanswered: none in time).", "answer", sightings)
                    .counter("riptide_proxy_load_reports_total", "Load reports sent to the nearest cache manager.", c.loadReports())
                    .counter("riptide_proxy_load_reported_requests_total", "Requests counted in those load reports.",
                            c.requestsReported())
                    .counter("riptide_proxy_overlay_reads_total", "Overlay reads started (lookups, variant reads, rechecks).",
                            c.overlayReads())
                    .counter("riptide_proxy_reads_shared_total",
                            "Lookups that joined a read of the same object already in flight (collapsed forwarding).",
                            c.readsShared())
                    .counter("riptide_proxy_reads_hedged_total",
                            "Overlay reads sent again through the second nearest access node because the first was late.",
                            c.access().readsHedged())
                    .counter("riptide_proxy_hedge_wins_total", "Hedged reads the second access node answered first.",
                            c.access().hedgeWins())
                    .counter("riptide_proxy_hedges_over_budget_total",
                            "Late overlay reads not hedged because the hedge budget (a tenth of reads) was spent.",
                            c.access().hedgesOverBudget())
                    .counter("riptide_proxy_reads_resent_total", "Overlay reads sent on at once to the next access node because "
                            + "theirs was lost (connection closed) or could not serve them.", c.access().readsResent())
                    .counter("riptide_proxy_access_nodes_lost_total",
                            "Times an access node was marked down (connection lost, a read unanswered at its deadline, or hung).",
                            c.access().nodesLost())
                    .counter("riptide_proxy_access_nodes_hung_total", "Of those, times an access node was marked down for "
                            + "answering nothing while reads waited on it and another access node answered promptly.",
                            c.access().nodesHung())
                    .gauge("riptide_proxy_access_nodes_down", "Access nodes down now, pinged again until they answer.",
                            c.access().down().size());
            Map<String, Number> signatures = new LinkedHashMap<>();
            signatures.put("full", c.signaturesFull());
            signatures.put("known", c.signaturesMemo());
            b.metrics().counter("riptide_proxy_signature_checks_total",
                    "Signatures checked: verified in full (Ed25519), or known already from an earlier copy of the same version.",
                    "result", signatures);
            MemoryFigures m = c.memory();
            if (m != null) {
                Map<String, Number> lookups = new LinkedHashMap<>();
                lookups.put("hit", m.hits());
                lookups.put("miss", m.misses());
                b.metrics()
                        .gauge("riptide_proxy_memory_bytes", "Bytes the memory tier holds: bodies off the heap and their bookkeeping.",
                                m.bytes())
                        .gauge("riptide_proxy_memory_max_bytes", "The memory tier's bound (--memory-mb).", m.maxBytes())
                        .gauge("riptide_proxy_memory_entries", "Copies and variant records in the memory tier.", m.entries())
                        .counter("riptide_proxy_memory_lookups_total", "Memory tier lookups, by result.", "result", lookups)
                        .counter("riptide_proxy_memory_stored_total", "Copies put into the memory tier.", m.stored())
                        .counter("riptide_proxy_private_kept_total",
                                "Responses the proxy fetched from origins itself and kept in its memory tier.", c.keptPrivately())
                        .counter("riptide_proxy_memory_evictions_total", "Entries evicted to keep the memory tier within its bound.",
                                m.evictions())
                        .counter("riptide_proxy_memory_refreshes_total",
                                "Background overlay reads that keep memory copies current.", c.memoryRefreshes());
            }
        });
        b.metrics()
                .summary("riptide_proxy_latency_seconds", "Time from a request's head to its response's last byte.",
                        quantiles, l.count(), stats.latencySecondsSum());
        if (!stages.isEmpty()) {
            List<List<String>> rows = new ArrayList<>();
            for (StageMetrics m : stages) {
                rows.add(List.of(m.name(), Integer.toString(m.queueLength()), Integer.toString(m.threads()),
                        Long.toString(m.accepted()), Long.toString(m.refused()), Long.toString(m.shed()),
                        ms(m.meanWaitNanos() / 1000), ms(m.maxWaitNanos() / 1000)));
            }
            b.table("Stages", "lookup: cache lookups in flight (over the bound, to the origin); verify: replicas checked; "
                    + "origin: requests waiting for an origin's connections (in use as threads; shed with 503 when the queue stands)",
                    List.of("stage", "queue", "threads", "accepted", "refused", "shed", "mean wait", "max wait"), rows);
            StageFamilies.add(b.metrics(), stages);
        }
        return new StatusReport(TITLE, List.of(b.build()));
    }

    private static String mb(long bytes) {
        return String.format(Locale.ROOT, "%.1f MB", bytes / (1024.0 * 1024));
    }

    private static String ms(long micros) {
        return String.format(Locale.ROOT, "%.3f ms", micros / 1e3);
    }

    /** The destination rule as it applies: what a client of this proxy can reach through it. */
    private static String destinations(ProxyConfig config) {
        if (!config.destinations().enforced(config.allowFrom())) {
            return "any (the proxy serves this machine only, or --destinations any)";
        }
        List<Cidr> allowed = config.destinations().allowed();
        return "public addresses only" + (allowed.isEmpty() ? "" : " and " + allowed.stream().map(Cidr::toString)
                .collect(Collectors.joining(", ")));
    }
}
