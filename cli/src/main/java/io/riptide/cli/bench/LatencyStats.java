package io.riptide.cli.bench;

import org.HdrHistogram.Histogram;

/** Latency percentiles in milliseconds of one measured series; NaN (null in JSON) for a series not measured. */
public record LatencyStats(long count, double p50Ms, double p90Ms, double p99Ms, double meanMs) {
    /** The percentiles of a histogram of nanosecond latencies. */
    public static LatencyStats of(Histogram nanos) {
        if (nanos.getTotalCount() == 0) {
            return absent();
        }
        return new LatencyStats(nanos.getTotalCount(), ms(nanos.getValueAtPercentile(50)), ms(nanos.getValueAtPercentile(90)),
                ms(nanos.getValueAtPercentile(99)), nanos.getMean() / 1e6);
    }

    /** A series that was not measured, such as Squid when it is not installed. */
    public static LatencyStats absent() {
        return new LatencyStats(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    }

    /** A histogram for nanosecond latencies up to a minute, at three significant digits. */
    public static Histogram newHistogram() {
        return new Histogram(60_000_000_000L, 3);
    }

    /** Whether this series was measured. */
    public boolean present() {
        return count > 0;
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }
}
