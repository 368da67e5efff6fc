package io.riptide.simulator.report;

import java.util.Arrays;

/** Helpers for large samples. */
public final class Samples {
    private Samples() {
    }

    /** At most {@code points} values spread evenly over the sorted sample: enough to draw its CDF. */
    public static double[] thinned(double[] values, int points) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        if (sorted.length <= points) {
            return sorted;
        }
        double[] out = new double[points];
        for (int i = 0; i < points; i++) {
            out[i] = sorted[(int) ((long) i * (sorted.length - 1) / (points - 1))];
        }
        return out;
    }
}
