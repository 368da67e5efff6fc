package io.riptide.simulator.report;

/** A histogram's data: {@code counts[i]} values fell in {@code [min + i·width, min + (i+1)·width)}. */
public record BinnedCounts(double min, double width, long[] counts) {

    /** Counts {@code values} into {@code bins} equal bins spanning their range; the maximum goes in the last bin. */
    public static BinnedCounts of(double[] values, int bins) {
        if (bins < 1) {
            throw new IllegalArgumentException("bins must be at least 1, got " + bins);
        }
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (double v : values) {
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
        }
        if (values.length == 0) {
            lo = 0;
            hi = 1;
        }
        double width = hi > lo ? (hi - lo) / bins : 1;
        long[] counts = new long[bins];
        for (double v : values) {
            counts[Math.min(bins - 1, (int) ((v - lo) / width))]++;
        }
        return new BinnedCounts(lo, width, counts);
    }

    /** The lower edge of bin {@code i}. */
    public double lowerEdge(int i) {
        return min + i * width;
    }

    /** The middle of bin {@code i}. */
    public double centre(int i) {
        return min + (i + 0.5) * width;
    }
}
