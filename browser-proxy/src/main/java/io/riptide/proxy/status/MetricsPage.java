package io.riptide.proxy.status;

import io.riptide.proxy.ProxyStats;

/** The Prometheus text exposition at {@code /metrics}: request counts by result and a latency summary. */
public final class MetricsPage {
    /** The Prometheus text format's media type. */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private MetricsPage() {
    }

    public static String render(ProxyStats stats) {
        ProxyStats.Latency l = stats.latency();
        StringBuilder b = new StringBuilder(1024);
        b.append("# HELP riptide_proxy_requests_total Requests answered, by where the answer came from.\n")
                .append("# TYPE riptide_proxy_requests_total counter\n");
        counter(b, "hit", stats.hits());
        counter(b, "miss", stats.misses());
        counter(b, "bypass", stats.bypasses());
        counter(b, "error", stats.errors());
        b.append("# HELP riptide_proxy_tunnels_total CONNECT tunnels opened.\n")
                .append("# TYPE riptide_proxy_tunnels_total counter\n")
                .append("riptide_proxy_tunnels_total ").append(stats.tunnels()).append('\n')
                .append("# HELP riptide_proxy_latency_seconds Time from a request's head to its response's last byte.\n")
                .append("# TYPE riptide_proxy_latency_seconds summary\n");
        quantile(b, "0.5", l.p50Micros());
        quantile(b, "0.9", l.p90Micros());
        quantile(b, "0.99", l.p99Micros());
        b.append("riptide_proxy_latency_seconds_count ").append(l.count()).append('\n');
        return b.toString();
    }

    private static void counter(StringBuilder b, String result, long n) {
        b.append("riptide_proxy_requests_total{result=\"").append(result).append("\"} ").append(n).append('\n');
    }

    private static void quantile(StringBuilder b, String q, long micros) {
        b.append("riptide_proxy_latency_seconds{quantile=\"").append(q).append("\"} ")
                .append(micros / 1e6).append('\n');
    }
}
