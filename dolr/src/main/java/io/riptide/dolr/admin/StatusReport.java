package io.riptide.dolr.admin;

import java.util.List;

/** A whole status report: a title (what runs here) and the parts its sources reported, in order. */
public record StatusReport(String title, List<ReportPart> parts) {
    public StatusReport {
        parts = List.copyOf(parts);
    }

    public List<ReportPart.Entry> summary() {
        return parts.stream().flatMap(p -> p.summary().stream()).toList();
    }

    public List<StatusTable> tables() {
        return parts.stream().flatMap(p -> p.tables().stream()).toList();
    }

    public List<MetricFamily> metrics() {
        return parts.stream().flatMap(p -> p.metrics().stream()).toList();
    }
}
