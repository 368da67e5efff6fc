package io.riptide.simulator.discovery;

/**
 * Hints per fixed interval, the series of the paper's Figure 17.
 *
 * @param intervalNanos the length of each interval
 * @param byManager     {@code byManager[m][k]}: hints sent in interval {@code k} that manager {@code m} received
 * @param unanswered    hints sent in each interval that no manager received
 * @param toNearest     share of each interval's hints that reached the nearest running manager (NaN if none sent)
 */
public record IntervalCounts(long intervalNanos, long[][] byManager, long[] unanswered, double[] toNearest) {
    /** How many intervals. */
    public int intervals() {
        return unanswered.length;
    }

    /** The end of interval {@code k}, in seconds from the start of the traffic. */
    public double endSeconds(int k) {
        return (k + 1) * intervalNanos / 1e9;
    }
}
