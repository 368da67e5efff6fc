package io.riptide.dolr.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Metric families are named by Prometheus conventions and written in its text format one way. */
class MetricSetTest {
    @Test
    void writesCountersGaugesAndSummariesWithEscapedLabelsAndHelp() {
        Map<String, Long> byResult = new LinkedHashMap<>();
        byResult.put("hit", 3L);
        byResult.put("say \"hi\"\\\n", 1L);
        Map<Double, Double> q = new LinkedHashMap<>();
        q.put(0.5, 0.25);
        MetricSet m = new MetricSet()
                .counter("riptide_x_total", "Line one\nline two \\ end.", "result", byResult)
                .gauge("riptide_y_bytes", "Bytes.", 1.5)
                .summary("riptide_z_seconds", "Latency.", q, 4, Double.NaN);
        assertEquals("""
                # HELP riptide_x_total Line one\\nline two \\\\ end.
                # TYPE riptide_x_total counter
                riptide_x_total{result="hit"} 3
                riptide_x_total{result="say \\"hi\\"\\\\\\n"} 1
                # HELP riptide_y_bytes Bytes.
                # TYPE riptide_y_bytes gauge
                riptide_y_bytes 1.5
                # HELP riptide_z_seconds Latency.
                # TYPE riptide_z_seconds summary
                riptide_z_seconds{quantile="0.5"} 0.25
                riptide_z_seconds_sum NaN
                riptide_z_seconds_count 4
                """, PrometheusText.render(m.families()));
    }

    @Test
    void refusesNamesAgainstTheConventions() {
        MetricSet m = new MetricSet().counter("riptide_a_total", "A.", 1);
        assertEquals("counters, and only counters, end in _total: riptide_b",
                assertThrows(IllegalArgumentException.class, () -> m.counter("riptide_b", "B.", 1)).getMessage());
        assertEquals("counters, and only counters, end in _total: riptide_c_total",
                assertThrows(IllegalArgumentException.class, () -> m.gauge("riptide_c_total", "C.", 1)).getMessage());
        assertEquals("metric riptide_a_total added twice",
                assertThrows(IllegalArgumentException.class, () -> m.counter("riptide_a_total", "A.", 2)).getMessage());
        assertEquals("not a metric name: riptide-d",
                assertThrows(IllegalArgumentException.class, () -> m.gauge("riptide-d", "D.", 1)).getMessage());
        assertEquals("not a label name: __x", assertThrows(IllegalArgumentException.class,
                () -> m.gauge("riptide_e", "E.", "__x", Map.of("v", 1))).getMessage());
    }
}
