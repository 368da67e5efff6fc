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

/** The overlay scenarios at a small scale: their contracts (fields, targets, determinism) hold. */
class OverlayScenariosTest {
    @TempDir
    Path dir;

    private JsonNode run(Scenario scenario, String sub, Map<String, String> options) throws Exception {
        Path out = Files.createDirectories(dir.resolve(sub));
        scenario.run(new ScenarioContext(1, out, new ScenarioOptions(options), Progress.silent()));
        return new ObjectMapper().readTree(Files.readAllBytes(out.resolve("result.json")));
    }

    @Test
    void routingScaleMeetsItsTargetsAndIsDeterministic() throws Exception {
        Map<String, String> options = Map.of("nodes", "300", "hosts-per-stub", "30", "routes", "300", "objects", "60",
                "locates", "300", "settle-s", "30");
        JsonNode json = run(new RoutingScaleScenario(), "a", options);
        run(new RoutingScaleScenario(), "b", options);
        assertArrayEquals(Files.readAllBytes(dir.resolve("a/result.json")), Files.readAllBytes(dir.resolve("b/result.json")));
        assertEquals(300, json.get("nodes").asInt());
        assertEquals(1.0, json.get("route_success_rate").asDouble());
        assertEquals(1.0, json.get("locate_success_rate").asDouble());
        assertTrue(json.get("route_mean_hops").asDouble() <= Math.log(300) / Math.log(16) + 0.5, json.toString());
        assertTrue(json.get("route_p50_rdp").asDouble() <= 1.5, json.toString());
        double bloom = json.get("local_locate_p50_rdp").asDouble();
        assertTrue(bloom <= 1.5 && bloom < json.get("local_locate_p50_rdp_no_bloom").asDouble(), json.toString());
        for (String field : new String[] {"locate_mean_hops", "locate_p50_rdp"}) {
            assertTrue(json.get(field).isNumber(), field);
        }
        assertTrue(Files.size(dir.resolve("a/rdp-cdf.png")) > 1000);
    }

    @Test
    void churnRepairsWithinThirtySecondsAndLookupsKeepSucceeding() throws Exception {
        JsonNode json = run(new ChurnScenario(), "churn", Map.of("nodes", "300", "hosts-per-stub", "30",
                "fail-fraction", "0.2", "objects", "100", "lookups", "1000", "observe-s", "40", "settle-s", "30"));
        assertEquals(60, json.get("failed_nodes").asInt());
        assertTrue(json.get("lookup_success_after_failure").asDouble() >= 0.99, json.toString());
        double repair = json.get("repair_time_s").asDouble();
        assertTrue(repair > 0 && repair <= 30, json.toString());
        assertEquals(1.0, json.get("lookup_success_after_repair").asDouble());
        assertTrue(Files.size(dir.resolve("churn/repair.png")) > 1000);
    }
}
