package io.riptide.proxy.accesslog;

import io.riptide.dolr.admin.JsonStatus;
import java.util.Locale;

/** How a line of the access log is written. */
public enum AccessLogFormat {
    /**
     * Squid's native format: {@code time elapsed client code/status bytes method URL user hierarchy type},
     * e.g. {@code 1764115200.123      2 127.0.0.1 TCP_MEM_HIT/200 1024 GET http://example.com/ - HIER_NONE/- text/html},
     * with Squid's result codes standing for the Cache-Status outcome (the exact one is in the JSON format).
     */
    SQUID {
        @Override
        public String format(AccessRecord r) {
            return String.format(Locale.ROOT, "%d.%03d %6d %s %s/%03d %d %s %s - %s %s", r.startMillis() / 1000,
                    r.startMillis() % 1000, r.elapsedMillis(), r.client(), squidCode(r), r.status(), r.bytes(), r.method(),
                    r.url(), hierarchy(r), r.contentType() == null || r.contentType().isBlank() ? "-" : r.contentType().split(";")[0].strip());
        }
    },
    /** One JSON object per line, with the Cache-Status as sent. */
    JSON {
        @Override
        public String format(AccessRecord r) {
            return "{\"time\":" + r.startMillis() + ",\"elapsed_ms\":" + r.elapsedMillis() + ",\"client\":" + quote(r.client())
                    + ",\"method\":" + quote(r.method()) + ",\"url\":" + quote(r.url()) + ",\"status\":" + r.status()
                    + ",\"bytes\":" + r.bytes() + ",\"cache_status\":" + quote(r.cacheStatus()) + ",\"content_type\":"
                    + (r.contentType() == null ? "null" : quote(r.contentType())) + "}";
        }
    };

    /** The line for {@code r}, without its line break. */
    public abstract String format(AccessRecord r);

    /** Parses {@code squid} or {@code json}. */
    public static AccessLogFormat parse(String text) {
        return switch (text.strip().toLowerCase(Locale.ROOT)) {
            case "squid" -> SQUID;
            case "json" -> JSON;
            default -> throw new IllegalArgumentException("the access log format is squid or json, not '" + text + "'");
        };
    }

    // Squid's result codes for the Cache-Status outcomes: log tools count hits by these.
    static String squidCode(AccessRecord r) {
        String cs = r.cacheStatus() == null ? "" : r.cacheStatus();
        if (cs.equals("tunnel")) {
            return "TCP_TUNNEL";
        }
        if (cs.startsWith("intercept")) {
            // As Squid logs a CONNECT it bumped: the requests inside get lines of their own.
            return "NONE_NONE";
        }
        if (r.status() == 0) {
            return "TCP_MISS_ABORTED";
        }
        if (cs.startsWith("hit")) {
            return cs.contains("detail=memory") ? "TCP_MEM_HIT" : cs.contains("detail=stale") ? "TCP_STALE_HIT" : "TCP_HIT";
        }
        if (cs.startsWith("fwd=stale") || cs.startsWith("fwd=request")) {
            return cs.contains("fwd-status=304") ? "TCP_REFRESH_UNMODIFIED" : "TCP_REFRESH_MODIFIED";
        }
        return r.status() >= 500 && !cs.contains("fwd-status") ? "NONE_NONE" : "TCP_MISS";
    }

    private static String hierarchy(AccessRecord r) {
        String cs = r.cacheStatus() == null ? "" : r.cacheStatus();
        if (cs.startsWith("hit")) {
            return "HIER_NONE/-";
        }
        String host = r.url();
        int scheme = host.indexOf("://");
        if (scheme >= 0) {
            host = host.substring(scheme + 3);
        }
        int end = host.indexOf('/');
        return "HIER_DIRECT/" + (end >= 0 ? host.substring(0, end) : host);
    }

    private static String quote(String s) {
        return s == null ? "null" : JsonStatus.quote(s);
    }
}
