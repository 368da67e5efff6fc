package io.riptide.simulator.report;

import java.util.Arrays;

/** Count, mean, min, nearest-rank percentiles and max of a sample; everything NaN when it is empty. */
public record SampleSummary(int count, double mean, double min, double p50, double p90, double p95, double p99, double max) {

    /** The summary of {@code values} (not modified). */
    public static SampleSummary of(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        double sum = 0;
        for (double v : sorted) {
            sum += v;
        }
        int n = sorted.length;
        if (n == 0) {
            return new SampleSummary(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        }
        return new SampleSummary(n, sum / n, sorted[0], rank(sorted, 0.50), rank(sorted, 0.90), rank(sorted, 0.95),
                rank(sorted, 0.99), sorted[n - 1]);
    }

    private static double rank(double[] sorted, double p) {
        return sorted[Math.max(0, (int) Math.ceil(p * sorted.length) - 1)];
    }

    /** Writes the summary's fields into {@code json}, each key prefixed by nothing and suffixed by {@code unit}. */
    public void writeTo(ResultJson json, String unit) {
        json.put("count", (long) count)
                .put("mean" + unit, mean)
                .put("min" + unit, min)
                .put("p50" + unit, p50)
                .put("p90" + unit, p90)
                .put("p95" + unit, p95)
                .put("p99" + unit, p99)
                .put("max" + unit, max);
    }
}
