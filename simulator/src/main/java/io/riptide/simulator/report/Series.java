package io.riptide.simulator.report;

/** One named line of a chart: x and y values of equal length. */
public record Series(String name, double[] x, double[] y) {
    public Series {
        if (x.length != y.length) {
            throw new IllegalArgumentException("series '" + name + "': x has " + x.length + " points, y has " + y.length);
        }
    }
}
