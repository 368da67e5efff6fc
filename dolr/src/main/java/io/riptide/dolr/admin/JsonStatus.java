package io.riptide.dolr.admin;

import io.riptide.dolr.admin.MetricFamily.Label;
import io.riptide.dolr.admin.MetricFamily.Sample;
import java.util.List;

/**
 * Renders a status report as JSON for {@code /status.json} and {@code riptide status}:
 * {@code {"title", "summary": {name: value}, "tables": [{title, note, columns, rows}],
 * "metrics": [{name, type, help, samples: [{name, labels, value}]}]}}. Non-finite values are strings.
 */
public final class JsonStatus {
    /** The document's media type. */
    public static final String CONTENT_TYPE = "application/json; charset=utf-8";

    private JsonStatus() {
    }

    public static String render(StatusReport report) {
        StringBuilder b = new StringBuilder(8192);
        b.append("{\"title\":");
        string(b, report.title());
        b.append(",\n\"summary\":{");
        List<ReportPart.Entry> summary = report.summary();
        for (int i = 0; i < summary.size(); i++) {
            b.append(i == 0 ? "" : ",");
            string(b, summary.get(i).name());
            b.append(':');
            string(b, summary.get(i).value());
        }
        b.append("},\n\"tables\":[");
        List<StatusTable> tables = report.tables();
        for (int i = 0; i < tables.size(); i++) {
            StatusTable t = tables.get(i);
            b.append(i == 0 ? "\n" : ",\n").append("{\"title\":");
            string(b, t.title());
            b.append(",\"note\":");
            string(b, t.note());
            b.append(",\"columns\":");
            strings(b, t.columns());
            b.append(",\"rows\":[");
            for (int r = 0; r < t.rows().size(); r++) {
                b.append(r == 0 ? "" : ",");
                strings(b, t.rows().get(r));
            }
            b.append("]}");
        }
        b.append("],\n\"metrics\":[");
        List<MetricFamily> metrics = report.metrics();
        for (int i = 0; i < metrics.size(); i++) {
            MetricFamily f = metrics.get(i);
            b.append(i == 0 ? "\n" : ",\n").append("{\"name\":");
            string(b, f.name());
            b.append(",\"type\":");
            string(b, f.type().textName());
            b.append(",\"help\":");
            string(b, f.help());
            b.append(",\"samples\":[");
            for (int s = 0; s < f.samples().size(); s++) {
                Sample sample = f.samples().get(s);
                b.append(s == 0 ? "" : ",").append("{\"name\":");
                string(b, sample.name());
                b.append(",\"labels\":{");
                for (int l = 0; l < sample.labels().size(); l++) {
                    Label label = sample.labels().get(l);
                    b.append(l == 0 ? "" : ",");
                    string(b, label.name());
                    b.append(':');
                    string(b, label.value());
                }
                b.append("},\"value\":");
                double v = sample.value();
                if (Double.isFinite(v)) {
                    b.append(PrometheusText.value(v));
                } else {
                    string(b, PrometheusText.value(v));
                }
                b.append('}');
            }
            b.append("]}");
        }
        return b.append("]}\n").toString();
    }

    private static void strings(StringBuilder b, List<String> values) {
        b.append('[');
        for (int i = 0; i < values.size(); i++) {
            b.append(i == 0 ? "" : ",");
            string(b, values.get(i));
        }
        b.append(']');
    }

    /** {@code s} as a JSON string, quoted and escaped (for others writing JSON, such as the proxy's access log). */
    public static String quote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2);
        string(b, s);
        return b.toString();
    }

    private static void string(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    // Also escapes < so the document is safe to embed, and every control character.
                    if (c < 0x20 || c == '<' || c == 0x2028 || c == 0x2029) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }
}
