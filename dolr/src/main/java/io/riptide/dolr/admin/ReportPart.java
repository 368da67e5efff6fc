package io.riptide.dolr.admin;

import java.util.ArrayList;
import java.util.List;

/**
 * What one source (the node, its agent, the proxy) reports: headline figures, tables and metrics.
 * A status page, its JSON and its metrics are all made from the same parts.
 */
public record ReportPart(List<Entry> summary, List<StatusTable> tables, List<MetricFamily> metrics) {
    /** One headline figure, e.g. "node ID". */
    public record Entry(String name, String value) {
    }

    public ReportPart {
        summary = List.copyOf(summary);
        tables = List.copyOf(tables);
        metrics = List.copyOf(metrics);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Collects a part; {@link #metrics()} checks names as they are added. */
    public static final class Builder {
        private final List<Entry> summary = new ArrayList<>();
        private final List<StatusTable> tables = new ArrayList<>();
        private final MetricSet metrics = new MetricSet();

        public Builder summary(String name, Object value) {
            summary.add(new Entry(name, String.valueOf(value)));
            return this;
        }

        public Builder table(String title, String note, List<String> columns, List<List<String>> rows) {
            tables.add(new StatusTable(title, note, columns, rows));
            return this;
        }

        public MetricSet metrics() {
            return metrics;
        }

        public ReportPart build() {
            return new ReportPart(summary, tables, metrics.families());
        }
    }
}
