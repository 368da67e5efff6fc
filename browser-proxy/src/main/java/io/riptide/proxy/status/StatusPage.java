package io.riptide.proxy.status;

import io.riptide.dolr.admin.HtmlStatusPage;
import io.riptide.proxy.ProxyConfig;
import io.riptide.proxy.ProxyStats;
import java.util.List;

/** The HTML status page at {@code /status}: counts, latency percentiles and the access nodes in use. */
public final class StatusPage {
    private StatusPage() {
    }

    public static String render(ProxyStats stats, ProxyConfig config, List<String> accessNodes) {
        return HtmlStatusPage.render(ProxyReport.of(stats, config, accessNodes));
    }
}
