package io.riptide.simulator.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChartsTest {
    private static final byte[] PNG_MAGIC = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    @TempDir
    Path dir;

    private final Charts charts = new Charts(400, 300);

    @Test
    void everyKindOfChartWritesAPng() throws Exception {
        double[] a = {1, 2, 2, 3, 5, 8, 13};
        double[] b = {2, 3, 3, 4, 4, 4, 9};
        Map<String, double[]> samples = new LinkedHashMap<>();
        samples.put("a", a);
        samples.put("b", b);
        charts.line(dir.resolve("line.png"), "Line", "x", "y", List.of(new Series("a", new double[] {1, 2, 3}, new double[] {3, 1, 2})));
        charts.cdf(dir.resolve("cdf.png"), "CDF", "ms", samples);
        charts.bar(dir.resolve("bar.png"), "Bars", "size", "ms", List.of("1 KB", "4 KB"),
                Map.of("direct", new double[] {1.0, 2.0}));
        charts.histogram(dir.resolve("sub/hist.png"), "Histogram", "ms", "latency", BinnedCounts.of(a, 4));
        Map<String, double[]> verdicts = new LinkedHashMap<>();
        verdicts.put("met", new double[] {2, 0});
        verdicts.put("missed", new double[] {0, 2});
        charts.stackedCounts(dir.resolve("stacked.png"), "Stacked", "figure", "seeds", List.of("a", "b"), verdicts, 2,
                List.of(java.awt.Color.GREEN, java.awt.Color.RED));
        for (String name : List.of("line.png", "cdf.png", "bar.png", "sub/hist.png", "stacked.png")) {
            byte[] bytes = Files.readAllBytes(dir.resolve(name));
            assertTrue(bytes.length > 1000, name + " is only " + bytes.length + " bytes");
            assertArrayEquals(PNG_MAGIC, Arrays.copyOf(bytes, 8), name + " is not a PNG");
        }
    }

    @Test
    void binnedCountsCoverEveryValueOnce() {
        BinnedCounts bins = BinnedCounts.of(new double[] {0, 1, 2, 3, 4, 10}, 5);
        assertEquals(0, bins.min());
        assertEquals(2, bins.width());
        assertArrayEquals(new long[] {2, 2, 1, 0, 1}, bins.counts());
    }

    @Test
    void empiricalCdfReachesOneAndIsThinned() {
        double[] many = new double[5000];
        for (int i = 0; i < many.length; i++) {
            many[i] = many.length - i;
        }
        Series cdf = EmpiricalCdf.of("x", many);
        assertEquals(EmpiricalCdf.MAX_POINTS, cdf.x().length);
        assertEquals(1.0, cdf.y()[cdf.y().length - 1]);
        assertEquals(5000.0, cdf.x()[cdf.x().length - 1]);
        for (int i = 1; i < cdf.x().length; i++) {
            assertTrue(cdf.x()[i] >= cdf.x()[i - 1] && cdf.y()[i] > cdf.y()[i - 1]);
        }
    }
}
