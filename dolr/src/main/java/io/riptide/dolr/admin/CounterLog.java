package io.riptide.dolr.admin;

import io.riptide.dolr.admin.MetricFamily.Sample;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * Turns counters that moved into log lines: each check compares the report's watched counters with
 * the previous check's and logs one line per counter that rose, so a burst of events under load
 * costs one line per period rather than one per event.
 */
public final class CounterLog {
    /**
     * One watched counter: the samples of family {@code metric} (only those whose label has value
     * {@code labelValue}, when that is not null), logged as "{@code what}: N in the last PERIOD".
     */
    public record Watch(String logger, Level level, String metric, String labelValue, String what) {
    }

    private final List<Watch> watches;
    private final Duration period;
    private final Map<Watch, Double> last = new HashMap<>();

    public CounterLog(List<Watch> watches, Duration period) {
        this.watches = List.copyOf(watches);
        this.period = period;
    }

    /** Compares {@code report} with the last one checked and logs what rose; the first check only remembers. */
    public void check(StatusReport report) {
        moved(report).forEach((w, line) -> LoggerFactory.getLogger(w.logger()).atLevel(w.level()).log(line));
    }

    /** The line for each watched counter that rose since the last call, and remembers the new values. */
    synchronized Map<Watch, String> moved(StatusReport report) {
        Map<Watch, String> lines = new java.util.LinkedHashMap<>();
        for (Watch w : watches) {
            double now = 0;
            boolean found = false;
            for (MetricFamily f : report.metrics()) {
                if (!f.name().equals(w.metric())) {
                    continue;
                }
                for (Sample s : f.samples()) {
                    if (w.labelValue() == null || s.labels().stream().anyMatch(l -> l.value().equals(w.labelValue()))) {
                        now += s.value();
                        found = true;
                    }
                }
            }
            if (!found) {
                continue;
            }
            Double before = last.put(w, now);
            if (before != null && now > before) {
                lines.put(w, w.what() + ": " + PrometheusText.value(now - before) + " in the last " + period.toSeconds() + "s");
            }
        }
        return lines;
    }
}
