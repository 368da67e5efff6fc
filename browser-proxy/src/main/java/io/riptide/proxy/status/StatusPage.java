package io.riptide.proxy.status;

import io.riptide.proxy.ProxyConfig;
import io.riptide.proxy.ProxyStats;
import java.util.List;

/** The small HTML status page at {@code /status}: counts, latency percentiles and the access nodes in use. */
public final class StatusPage {
    private StatusPage() {
    }

    public static String render(ProxyStats stats, ProxyConfig config, List<String> accessNodes) {
        ProxyStats.Latency l = stats.latency();
        StringBuilder b = new StringBuilder(2048);
        b.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Riptide proxy</title></head><body>\n")
                .append("<h1>Riptide browser proxy</h1>\n")
                .append("<p>Mode: ").append(config.passThrough() ? "pass-through (no cache lookups)" : "caching")
                .append("</p>\n<h2>Requests</h2>\n<table>\n");
        row(b, "hits", stats.hits());
        row(b, "misses", stats.misses());
        row(b, "bypasses", stats.bypasses());
        row(b, "errors", stats.errors());
        row(b, "tunnels", stats.tunnels());
        row(b, "origin connections opened", stats.upstreamConnectionsOpened());
        b.append("</table>\n<h2>Latency (microseconds, ").append(l.count()).append(" requests)</h2>\n<table>\n");
        row(b, "p50", l.p50Micros());
        row(b, "p90", l.p90Micros());
        row(b, "p99", l.p99Micros());
        row(b, "max", l.maxMicros());
        b.append("</table>\n<h2>Access nodes</h2>\n<ul>\n");
        if (accessNodes.isEmpty()) {
            b.append("<li>none</li>\n");
        }
        for (String node : accessNodes) {
            b.append("<li>").append(escape(node)).append("</li>\n");
        }
        return b.append("</ul>\n</body></html>\n").toString();
    }

    private static void row(StringBuilder b, String name, long value) {
        b.append("<tr><th align=\"left\">").append(name).append("</th><td>").append(value).append("</td></tr>\n");
    }

    static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }
}
