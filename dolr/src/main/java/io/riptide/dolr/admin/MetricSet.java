package io.riptide.dolr.admin;

import io.riptide.dolr.admin.MetricFamily.Label;
import io.riptide.dolr.admin.MetricFamily.Sample;
import io.riptide.dolr.admin.MetricFamily.Type;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Collects metric families by Prometheus conventions, so every agent writes counters, gauges and
 * summaries one way: counters end in {@code _total}, names and labels are checked, a name is used once.
 */
public final class MetricSet {
    private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern LABEL = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

    private final List<MetricFamily> families = new ArrayList<>();
    private final Set<String> names = new HashSet<>();

    /** A counter with one unlabelled sample. */
    public MetricSet counter(String name, String help, double value) {
        return add(name, help, Type.COUNTER, List.of(new Sample(name, List.of(), value)));
    }

    /** A counter with one sample per value of label {@code label}, in the map's order. */
    public MetricSet counter(String name, String help, String label, Map<String, ? extends Number> values) {
        return add(name, help, Type.COUNTER, labelled(name, label, values));
    }

    /** A gauge with one unlabelled sample. */
    public MetricSet gauge(String name, String help, double value) {
        return add(name, help, Type.GAUGE, List.of(new Sample(name, List.of(), value)));
    }

    /** A gauge with one sample per value of label {@code label}. */
    public MetricSet gauge(String name, String help, String label, Map<String, ? extends Number> values) {
        return add(name, help, Type.GAUGE, labelled(name, label, values));
    }

    /**
     * A summary: {@code quantiles} maps each quantile (0.5, 0.99, ...) to its value; {@code sum} may
     * be NaN when not tracked.
     */
    public MetricSet summary(String name, String help, Map<Double, Double> quantiles, long count, double sum) {
        List<Sample> samples = new ArrayList<>();
        quantiles.forEach((q, v) -> samples.add(new Sample(name, List.of(new Label("quantile", Double.toString(q))), v)));
        samples.add(new Sample(name + "_sum", List.of(), sum));
        samples.add(new Sample(name + "_count", List.of(), count));
        requireFree(name + "_sum");
        requireFree(name + "_count");
        return add(name, help, Type.SUMMARY, samples);
    }

    /**
     * A summary without quantiles, one {@code _sum} and {@code _count} pair per value of label {@code label}: for
     * {@code rate(x_sum) / rate(x_count)}, the mean over any window. {@code sums} and {@code counts} have the same keys.
     */
    public MetricSet summary(String name, String help, String label, Map<String, ? extends Number> sums,
            Map<String, ? extends Number> counts) {
        if (!sums.keySet().equals(counts.keySet())) {
            throw new IllegalArgumentException("summary " + name + ": sums and counts for different " + label + " values");
        }
        List<Sample> samples = new ArrayList<>(labelled(name + "_sum", label, sums));
        samples.addAll(labelled(name + "_count", label, counts));
        requireFree(name + "_sum");
        requireFree(name + "_count");
        return add(name, help, Type.SUMMARY, samples);
    }

    /** The families so far, in the order they were added. */
    public List<MetricFamily> families() {
        return List.copyOf(families);
    }

    private static List<Sample> labelled(String name, String label, Map<String, ? extends Number> values) {
        if (!LABEL.matcher(label).matches() || label.startsWith("__")) {
            throw new IllegalArgumentException("not a label name: " + label);
        }
        Map<String, Number> ordered = new LinkedHashMap<>(values);
        List<Sample> samples = new ArrayList<>();
        ordered.forEach((v, n) -> samples.add(new Sample(name, List.of(new Label(label, v)), n.doubleValue())));
        return samples;
    }

    private MetricSet add(String name, String help, Type type, List<Sample> samples) {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("not a metric name: " + name);
        }
        if (type == Type.COUNTER != name.endsWith("_total")) {
            throw new IllegalArgumentException("counters, and only counters, end in _total: " + name);
        }
        requireFree(name);
        names.add(name);
        families.add(new MetricFamily(name, help, type, samples));
        return this;
    }

    private void requireFree(String name) {
        if (names.contains(name)) {
            throw new IllegalArgumentException("metric " + name + " added twice");
        }
    }
}
