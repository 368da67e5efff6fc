package io.riptide.proxy.status;

import io.riptide.dolr.admin.ReportPart;
import io.riptide.dolr.admin.StatusReport;
import io.riptide.proxy.Cidr;
import io.riptide.proxy.ProxyConfig;
import io.riptide.proxy.ProxyStats;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The proxy's figures, from which its status page, {@code /status.json} and {@code /metrics} are all
 * rendered: requests by result, tunnels, refused clients, latency percentiles, and the access nodes in use.
 */
public final class ProxyReport {
    /** The status page's title. */
    public static final String TITLE = "Riptide browser proxy";

    private ProxyReport() {
    }

    public static StatusReport of(ProxyStats stats, ProxyConfig config, List<String> accessNodes) {
        ProxyStats.Latency l = stats.latency();
        ReportPart.Builder b = ReportPart.builder()
                .summary("mode", config.passThrough() ? "pass-through (no cache lookups)" : "caching")
                .summary("requests", "hits " + stats.hits() + ", misses " + stats.misses() + ", bypasses " + stats.bypasses()
                        + ", errors " + stats.errors())
                .summary("clients allowed", config.allowFrom().stream().map(Cidr::toString).collect(Collectors.joining(", ")))
                .summary("access nodes", accessNodes.isEmpty() ? "none" : String.join(", ", accessNodes));
        b.table("Requests", "", List.of("result", "count"), List.of(
                List.of("hits", Long.toString(stats.hits())),
                List.of("misses", Long.toString(stats.misses())),
                List.of("bypasses", Long.toString(stats.bypasses())),
                List.of("errors", Long.toString(stats.errors())),
                List.of("tunnels", Long.toString(stats.tunnels())),
                List.of("clients refused (not in allow-from)", Long.toString(stats.clientsRefused())),
                List.of("origin connections opened", Long.toString(stats.upstreamConnectionsOpened()))));
        b.table("Latency", l.count() + " requests, from a request's head to its response's last byte",
                List.of("percentile", "latency"), List.of(
                        List.of("p50", ms(l.p50Micros())),
                        List.of("p90", ms(l.p90Micros())),
                        List.of("p99", ms(l.p99Micros())),
                        List.of("max", ms(l.maxMicros()))));
        b.table("Access nodes", "overlay nodes the proxy reads through, nearest first", List.of("node"),
                accessNodes.stream().map(List::of).toList());
        Map<String, Number> byResult = new LinkedHashMap<>();
        byResult.put("hit", stats.hits());
        byResult.put("miss", stats.misses());
        byResult.put("bypass", stats.bypasses());
        byResult.put("error", stats.errors());
        Map<Double, Double> quantiles = new LinkedHashMap<>();
        quantiles.put(0.5, l.p50Micros() / 1e6);
        quantiles.put(0.9, l.p90Micros() / 1e6);
        quantiles.put(0.99, l.p99Micros() / 1e6);
        b.metrics()
                .counter("riptide_proxy_requests_total", "Requests answered, by where the answer came from.", "result", byResult)
                .counter("riptide_proxy_tunnels_total", "CONNECT tunnels opened.", stats.tunnels())
                .counter("riptide_proxy_clients_refused_total",
                        "Connections refused with 403 because the client's address is not in allow-from.", stats.clientsRefused())
                .counter("riptide_proxy_origin_connections_opened_total", "New connections to origins.",
                        stats.upstreamConnectionsOpened())
                .gauge("riptide_proxy_access_nodes", "Overlay access nodes in use.", accessNodes.size())
                .summary("riptide_proxy_latency_seconds", "Time from a request's head to its response's last byte.",
                        quantiles, l.count(), stats.latencySecondsSum());
        return new StatusReport(TITLE, List.of(b.build()));
    }

    private static String ms(long micros) {
        return String.format(Locale.ROOT, "%.3f ms", micros / 1e3);
    }
}
