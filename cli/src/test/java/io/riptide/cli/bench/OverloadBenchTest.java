package io.riptide.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the overload benchmark reads from the proxy: its stage samples on /metrics, and the heap after each collection. */
class OverloadBenchTest {
    @Test
    void readsEveryStageSampleOfAScrapeByMetricAndStage() {
        String scrape = """
                # TYPE riptide_stage_queue_length gauge
                riptide_stage_queue_length{stage="lookup"} 0
                riptide_stage_queue_length{stage="origin"} 17
                riptide_stage_shed_total{stage="origin"} 129613
                riptide_stage_wait_seconds_sum{stage="origin"} 0.25
                riptide_proxy_requests_total{result="shed"} 129613
                """;
        Map<String, Map<String, Double>> f = OverloadBench.stageFigures(scrape);
        assertEquals(Map.of("lookup", 0.0, "origin", 17.0), f.get("riptide_stage_queue_length"));
        assertEquals(129613.0, f.get("riptide_stage_shed_total").get("origin"));
        assertEquals(0.25, f.get("riptide_stage_wait_seconds_sum").get("origin"));
        assertEquals(3, f.size(), "only stage samples: " + f);
    }

    @Test
    void theHeapAfterCollectionsIsReadFromWhereTheOverloadBegan(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("gc.log");
        String before = "[20.053s][info][gc          ] GC(3) Pause Young (Normal) (G1 Evacuation Pause) 30M->90M(388M) 13.142ms\n";
        Files.writeString(log, before
                + "[41.461s][info][gc,start    ] GC(4) Pause Young (Normal) (G1 Evacuation Pause)\n"
                + "[41.461s][info][gc          ] GC(4) Pause Young (Normal) (G1 Evacuation Pause) 234M->11M(388M) 108.141ms\n"
                + "[46.753s][info][gc          ] GC(5) Pause Young (Normal) (G1 Evacuation Pause) 235M->12M(388M) 17.277ms\n");
        assertEquals(12.0, OverloadBench.heapAfterGcMb(log, before.length()));
        assertEquals(90.0, OverloadBench.heapAfterGcMb(log, 0));
    }
}
