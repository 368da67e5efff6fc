package io.riptide.simulator.report;

import java.util.Arrays;

/** The empirical cumulative distribution of a sample, as a chartable series. */
public final class EmpiricalCdf {
    /** At most this many points per series: enough to look smooth, small enough for CSV and charts. */
    public static final int MAX_POINTS = 1000;

    private EmpiricalCdf() {
    }

    /** Sorted sample values against the fraction of the sample at or below each, thinned to {@link #MAX_POINTS}. */
    public static Series of(String name, double[] samples) {
        double[] sorted = samples.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        int points = Math.min(n, MAX_POINTS);
        double[] x = new double[points];
        double[] y = new double[points];
        for (int i = 0; i < points; i++) {
            // Always include the largest value, so every CDF reaches 1.0.
            int index = points == n ? i : (int) ((long) (i + 1) * n / points) - 1;
            x[i] = sorted[index];
            y[i] = (index + 1) / (double) n;
        }
        return new Series(name, x, y);
    }
}
