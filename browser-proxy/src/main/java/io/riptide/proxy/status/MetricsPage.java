package io.riptide.proxy.status;

import io.riptide.dolr.admin.PrometheusText;
import io.riptide.proxy.ProxyConfig;
import io.riptide.proxy.ProxyStats;
import io.riptide.proxy.cache.CacheFigures;
import java.util.List;
import java.util.Optional;

/** The Prometheus text exposition at {@code /metrics}: request counts by result, tunnels and a latency summary. */
public final class MetricsPage {
    /** The Prometheus text format's media type. */
    public static final String CONTENT_TYPE = PrometheusText.CONTENT_TYPE;

    private MetricsPage() {
    }

    public static String render(ProxyStats stats, ProxyConfig config, List<String> accessNodes, Optional<CacheFigures> cache) {
        return PrometheusText.render(ProxyReport.of(stats, config, accessNodes, cache).metrics());
    }
}
