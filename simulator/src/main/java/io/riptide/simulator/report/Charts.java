package io.riptide.simulator.report;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;

/**
 * Draws report charts as PNG files with XChart, headless: line, CDF, bar and histogram charts, each
 * with title, axis labels and legend. Nothing time-dependent is drawn, so reruns look the same.
 */
public final class Charts {
    private final int width;
    private final int height;

    /** Charts of 800 × 600 pixels. */
    public Charts() {
        this(800, 600);
    }

    /** Charts of {@code width} × {@code height} pixels. */
    public Charts(int width, int height) {
        this.width = width;
        this.height = height;
        // Must precede AWT's first use; simulations run on servers and in CI with no display.
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    /** A line chart of one or more series. */
    public void line(Path png, String title, String xLabel, String yLabel, List<Series> series) throws IOException {
        XYChart chart = xyChart(title, xLabel, yLabel);
        for (Series s : series) {
            chart.addSeries(s.name(), s.x(), s.y());
        }
        save(chart, png);
    }

    /** A CDF chart: for each named sample, the fraction of values at or below x. */
    public void cdf(Path png, String title, String xLabel, Map<String, double[]> samples) throws IOException {
        cdf(png, title, xLabel, samples, Double.NaN);
    }

    /** As {@link #cdf(Path, String, String, Map)} with the x axis cut at {@code xMax} (NaN: not cut), so a long tail does not squash the body. */
    public void cdf(Path png, String title, String xLabel, Map<String, double[]> samples, double xMax) throws IOException {
        XYChart chart = xyChart(title, xLabel, "fraction ≤ x");
        if (!Double.isNaN(xMax)) {
            chart.getStyler().setXAxisMin(0.0).setXAxisMax(xMax);
        }
        chart.getStyler().setYAxisMin(0.0).setYAxisMax(1.0);
        // Without a pattern XChart labels small samples' distinct fractions one by one.
        chart.getStyler().setYAxisDecimalPattern("0.0").setYAxisTickMarkSpacingHint(60);
        for (Map.Entry<String, double[]> e : samples.entrySet()) {
            Series s = EmpiricalCdf.of(e.getKey(), e.getValue());
            chart.addSeries(s.name(), s.x(), s.y());
        }
        save(chart, png);
    }

    /** A grouped bar chart: one bar per category for each named series (values in category order). */
    public void bar(Path png, String title, String xLabel, String yLabel, List<String> categories,
            Map<String, double[]> valuesBySeries) throws IOException {
        CategoryChart chart = categoryChart(title, xLabel, yLabel);
        for (Map.Entry<String, double[]> e : valuesBySeries.entrySet()) {
            if (e.getValue().length != categories.size()) {
                throw new IllegalArgumentException("series '" + e.getKey() + "' has " + e.getValue().length
                        + " values for " + categories.size() + " categories");
            }
            chart.addSeries(e.getKey(), categories, boxed(e.getValue()));
        }
        save(chart, png);
    }

    /**
     * Counts stacked into one bar per category (e.g. seeds that met and missed a target), on a y axis
     * from 0 to {@code yMax} with whole-number ticks, series drawn in {@code colours} (one per series,
     * in order), legend beside the plot so it never hides a bar.
     */
    public void stackedCounts(Path png, String title, String xLabel, String yLabel, List<String> categories,
            Map<String, double[]> countsBySeries, double yMax, List<java.awt.Color> colours) throws IOException {
        CategoryChart chart = categoryChart(title, xLabel, yLabel);
        chart.getStyler().setStacked(true);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        double top = Math.max(1.0, yMax);
        // Ticks at whole counts only: XChart's spacing is in pixels, so ask for a bit less than one
        // count's height (the plot is about the chart's height less 150 px of title and labels).
        int countPixels = (int) ((height - 150) / top);
        chart.getStyler().setYAxisDecimalPattern("#0").setYAxisMin(0.0).setYAxisMax(top)
                .setYAxisTickMarkSpacingHint(Math.max(20, countPixels * 4 / 5));
        chart.getStyler().setSeriesColors(colours.toArray(java.awt.Color[]::new));
        for (Map.Entry<String, double[]> e : countsBySeries.entrySet()) {
            if (e.getValue().length != categories.size()) {
                throw new IllegalArgumentException("series '" + e.getKey() + "' has " + e.getValue().length
                        + " values for " + categories.size() + " categories");
            }
            chart.addSeries(e.getKey(), categories, boxed(e.getValue()));
        }
        save(chart, png);
    }

    /** A histogram: one bar per bin, labelled with the bin's lower edge. */
    public void histogram(Path png, String title, String xLabel, String seriesName, BinnedCounts bins) throws IOException {
        CategoryChart chart = categoryChart(title, xLabel, "count");
        chart.getStyler().setAvailableSpaceFill(0.95);
        chart.getStyler().setXAxisLabelRotation(90);
        List<String> labels = new ArrayList<>();
        List<Number> counts = new ArrayList<>();
        for (int i = 0; i < bins.counts().length; i++) {
            labels.add(NumberText.format(bins.lowerEdge(i), 3));
            counts.add(bins.counts()[i]);
        }
        chart.addSeries(seriesName, labels, counts);
        save(chart, png);
    }

    private XYChart xyChart(String title, String xLabel, String yLabel) {
        XYChart chart = new XYChartBuilder().width(width).height(height).title(title).xAxisTitle(xLabel).yAxisTitle(yLabel).build();
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line).setMarkerSize(0);
        style(chart.getStyler());
        return chart;
    }

    private CategoryChart categoryChart(String title, String xLabel, String yLabel) {
        CategoryChart chart = new CategoryChartBuilder().width(width).height(height).title(title).xAxisTitle(xLabel).yAxisTitle(yLabel).build();
        style(chart.getStyler());
        return chart;
    }

    private static void style(Styler styler) {
        styler.setLegendVisible(true);
        styler.setLegendPosition(Styler.LegendPosition.InsideNE);
        styler.setChartBackgroundColor(java.awt.Color.WHITE);
    }

    private static List<Number> boxed(double[] values) {
        List<Number> list = new ArrayList<>(values.length);
        for (double v : values) {
            list.add(v);
        }
        return list;
    }

    private static void save(Chart<?, ?> chart, Path png) throws IOException {
        Path parent = png.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try (OutputStream out = Files.newOutputStream(png)) {
            BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
        }
    }
}
