package io.riptide.dolr.admin;

import io.riptide.dolr.admin.MetricFamily.Sample;
import java.util.List;
import java.util.stream.Collectors;

/** Renders a status report as a small, auto-refreshing HTML page; every value is escaped. */
public final class HtmlStatusPage {
    /** The page's media type. */
    public static final String CONTENT_TYPE = "text/html; charset=utf-8";
    /** How often browsers reload the page. */
    public static final int REFRESH_SECONDS = 5;

    private static final String STYLE = """
            body{font-family:system-ui,sans-serif;margin:1.5em;color:#222;background:#fafafa}
            h1{font-size:1.4em;margin:0 0 .5em}h2{font-size:1.1em;margin:1.2em 0 .3em;border-bottom:1px solid #ccc}
            table{border-collapse:collapse;font-size:.9em;margin-bottom:.5em}
            th,td{padding:.15em .7em;text-align:left;border-bottom:1px solid #e4e4e4;vertical-align:top}
            th{background:#eee}td.n{text-align:right;font-variant-numeric:tabular-nums}
            .note{color:#666;font-size:.85em;margin:.2em 0}code{font-size:.95em}
            """;

    private HtmlStatusPage() {
    }

    public static String render(StatusReport report) {
        StringBuilder b = new StringBuilder(8192);
        b.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">")
                .append("<meta http-equiv=\"refresh\" content=\"").append(REFRESH_SECONDS).append("\">")
                .append("<title>").append(escape(report.title())).append("</title><style>").append(STYLE)
                .append("</style></head><body>\n<h1>").append(escape(report.title())).append("</h1>\n");
        b.append("<table id=\"summary\">\n");
        for (ReportPart.Entry e : report.summary()) {
            b.append("<tr><th>").append(escape(e.name())).append("</th><td>").append(escape(e.value())).append("</td></tr>\n");
        }
        b.append("</table>\n");
        for (StatusTable t : report.tables()) {
            table(b, t);
        }
        b.append("<h2>Metrics</h2>\n<p class=\"note\">The same figures as <a href=\"/metrics\">/metrics</a>")
                .append(" and <a href=\"/status.json\">/status.json</a>.</p>\n<table id=\"metrics\">\n")
                .append("<tr><th>metric</th><th>value</th><th>meaning</th></tr>\n");
        for (MetricFamily f : report.metrics()) {
            for (Sample s : f.samples()) {
                b.append("<tr><td><code>").append(escape(sampleName(s))).append("</code></td><td class=\"n\">")
                        .append(escape(PrometheusText.value(s.value()))).append("</td><td>").append(escape(f.help()))
                        .append("</td></tr>\n");
            }
        }
        return b.append("</table>\n</body></html>\n").toString();
    }

    private static void table(StringBuilder b, StatusTable t) {
        b.append("<h2>").append(escape(t.title())).append("</h2>\n");
        if (!t.note().isEmpty()) {
            b.append("<p class=\"note\">").append(escape(t.note())).append("</p>\n");
        }
        b.append("<table class=\"section\" data-title=\"").append(escape(t.title())).append("\">\n<tr>");
        for (String c : t.columns()) {
            b.append("<th>").append(escape(c)).append("</th>");
        }
        b.append("</tr>\n");
        if (t.rows().isEmpty()) {
            b.append("<tr><td colspan=\"").append(Math.max(1, t.columns().size())).append("\">none</td></tr>\n");
        }
        for (List<String> row : t.rows()) {
            b.append("<tr>");
            for (String cell : row) {
                b.append("<td>").append(escape(cell)).append("</td>");
            }
            b.append("</tr>\n");
        }
        b.append("</table>\n");
    }

    private static String sampleName(Sample s) {
        if (s.labels().isEmpty()) {
            return s.name();
        }
        return s.name() + s.labels().stream().map(l -> l.name() + "=\"" + l.value() + "\"")
                .collect(Collectors.joining(",", "{", "}"));
    }

    /** {@code s} safe inside HTML text and attribute values. */
    public static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }
}
