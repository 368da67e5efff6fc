package io.riptide.simulator.scenario;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.riptide.simulator.report.Progress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A short push-caching run: the contract of its result, and push beating the slow origin link. */
class PushCachingScenarioTest {
    @TempDir
    Path dir;

    private JsonNode run(String sub, Map<String, String> options) throws Exception {
        Path out = Files.createDirectories(dir.resolve(sub));
        new PushCachingScenario().run(new ScenarioContext(5, out, new ScenarioOptions(options), Progress.silent()));
        return new ObjectMapper().readTree(Files.readAllBytes(out.resolve("result.json")));
    }

    @Test
    void pushKeepsLatencyLowAtTheLargestClientCount() throws Exception {
        Map<String, String> options = Map.of("nodes", "120", "hosts-per-stub", "40", "clients", "4,24", "duration-s", "12",
                "settle-s", "15", "proxies", "4", "replicas", "2");
        JsonNode json = run("a", options);
        run("b", options);
        assertArrayEquals(Files.readAllBytes(dir.resolve("a/result.json")), Files.readAllBytes(dir.resolve("b/result.json")));
        for (String f : new String[] {"push-caching.csv", "latency-cdf-push.png", "latency-cdf-nopush.png", "throughput.png"}) {
            assertTrue(Files.exists(dir.resolve("a").resolve(f)), f);
        }
        JsonNode rows = json.get("rows");
        assertEquals(2, rows.size());
        for (JsonNode row : rows) {
            for (String f : new String[] {"clients", "p50_ms_push", "p95_ms_push", "p50_ms_nopush", "p95_ms_nopush",
                    "throughput_push", "throughput_nopush"}) {
                assertTrue(row.has(f), f);
            }
        }
        assertTrue(json.has("target_met"));
        JsonNode largest = rows.get(1);
        assertTrue(largest.get("p95_ms_push").asDouble() < largest.get("p95_ms_nopush").asDouble(), json.toString());
        assertTrue(largest.get("throughput_push").asDouble() > largest.get("throughput_nopush").asDouble(), json.toString());
    }
}
