package io.riptide.dolr.admin;

import io.riptide.dolr.admin.MetricFamily.Label;
import io.riptide.dolr.admin.MetricFamily.Sample;
import java.util.List;

/** Writes metric families in the Prometheus text exposition format, version 0.0.4. */
public final class PrometheusText {
    /** The format's media type. */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private PrometheusText() {
    }

    /** Every family as HELP and TYPE lines followed by its samples. */
    public static String render(List<MetricFamily> families) {
        StringBuilder b = new StringBuilder(families.size() * 160);
        for (MetricFamily f : families) {
            b.append("# HELP ").append(f.name()).append(' ').append(escapeHelp(f.help())).append('\n');
            b.append("# TYPE ").append(f.name()).append(' ').append(f.type().textName()).append('\n');
            for (Sample s : f.samples()) {
                b.append(s.name());
                if (!s.labels().isEmpty()) {
                    b.append('{');
                    for (int i = 0; i < s.labels().size(); i++) {
                        Label l = s.labels().get(i);
                        b.append(i == 0 ? "" : ",").append(l.name()).append("=\"").append(escapeLabel(l.value())).append('"');
                    }
                    b.append('}');
                }
                b.append(' ').append(value(s.value())).append('\n');
            }
        }
        return b.toString();
    }

    /** A sample value as the format spells it: integers without a fraction, and NaN, +Inf, -Inf. */
    public static String value(double v) {
        if (Double.isNaN(v)) {
            return "NaN";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "+Inf" : "-Inf";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return Double.toString(v);
    }

    private static String escapeHelp(String s) {
        return s.replace("\\", "\\\\").replace("\n", "\\n");
    }

    private static String escapeLabel(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
