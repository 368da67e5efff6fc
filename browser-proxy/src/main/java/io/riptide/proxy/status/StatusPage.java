package io.riptide.proxy.status;

import io.riptide.dolr.admin.HtmlStatusPage;
import io.riptide.proxy.ProxyConfig;
import io.riptide.proxy.ProxyStats;
import io.riptide.proxy.cache.CacheFigures;
import java.util.List;
import java.util.Optional;

/** The HTML status page at {@code /status}: counts, latency percentiles and the access nodes in use. */
public final class StatusPage {
    private StatusPage() {
    }

    public static String render(ProxyStats stats, ProxyConfig config, List<String> accessNodes, Optional<CacheFigures> cache) {
        return HtmlStatusPage.render(ProxyReport.of(stats, config, accessNodes, cache));
    }
}
