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

/** Small runs of the paper's Figs. 15 and 16: the result contract, and Bloom filters finding near copies. */
class LocationLatencyScenariosTest {
    @TempDir
    Path dir;

    private JsonNode run(Scenario scenario, String sub, Map<String, String> options) throws Exception {
        Path out = Files.createDirectories(dir.resolve(sub));
        scenario.run(new ScenarioContext(1, out, new ScenarioOptions(options), Progress.silent()));
        return new ObjectMapper().readTree(Files.readAllBytes(out.resolve("result.json")));
    }

    @Test
    void serviceLocationWithBloomFiltersFindsAManagerNearlyAsNearAsTheNearest() throws Exception {
        // Latency only: at this size, with links on, the Bloom filters have not converged after 60 s (0.73;
        // docs/results.md reports it, and the paper-size run, which meets the target with links on).
        Map<String, String> options = Map.of("nodes", "300", "clients", "30", "managers", "5", "settle-s", "60",
                "links", "false");
        JsonNode json = run(new ServiceLocationScenario(), "a", options);
        run(new ServiceLocationScenario(), "b", options);
        assertArrayEquals(Files.readAllBytes(dir.resolve("a/result.json")), Files.readAllBytes(dir.resolve("b/result.json")));
        assertTrue(Files.exists(dir.resolve("a/rtt-cdf.png")) && Files.exists(dir.resolve("a/rtt-per-client.csv")));
        assertEquals(30, json.get("clients").asInt());
        assertEquals(0, json.get("unanswered_bloom").asInt());
        assertTrue(json.get("share_within_1_25x_nearest").asDouble() >= 0.9, json.toString());
        assertTrue(json.get("share_within_1_25x_nearest").asDouble() >= json.get("share_within_1_25x_nearest_tapestry").asDouble());
    }

    @Test
    void hitLatencyWithBloomFiltersBeatsTapestryAndEveryHitIsServed() throws Exception {
        Map<String, String> options = Map.of("nodes", "300", "clients", "20", "requests", "5", "directories", "3",
                "settle-s", "60", "manager-host", "same");
        JsonNode json = run(new HitLatencyScenario(), "a", options);
        run(new HitLatencyScenario(), "b", options);
        assertArrayEquals(Files.readAllBytes(dir.resolve("a/result.json")), Files.readAllBytes(dir.resolve("b/result.json")));
        assertTrue(Files.exists(dir.resolve("a/hit-latency-cdf.png")) && Files.exists(dir.resolve("a/hit-latency.csv")));
        for (String field : new String[] {"proxy_cache_p80_ms", "riptide_p80_ms", "riptide_bloom_p80_ms", "riptide_bloom_max_ms"}) {
            assertTrue(json.get(field).asDouble() > 0, field + " in " + json);
        }
        assertEquals(100, json.get("requests").asInt());
        assertEquals(0, json.get("riptide_bloom_failed").asInt(), "the CDF with Bloom filters reaches 1.0");
        assertTrue(json.get("riptide_bloom_p80_ms").asDouble() < json.get("riptide_p80_ms").asDouble(), json.toString());
        // The manager on the proxy's host: reading straight from it costs what the proxy does, and
        // Bloom reads get there once each client keeps that node's filter as a provider's; the shipped
        // proxy then verifies the copy, which the plain proxy cache has no need to do, and its host's
        // front and access loop take their service times (HostStages).
        double proxy = json.get("proxy_cache_p80_ms").asDouble();
        double bloom = json.get("riptide_bloom_p80_ms").asDouble();
        assertEquals(proxy, json.get("manager_direct_p80_ms").asDouble());
        assertEquals(0.07728, json.get("verify_service_ms").asDouble());
        assertEquals(0.13008, json.get("proxy_service_ms").asDouble(), 1e-9);
        // result.json keeps six significant digits, so the sum is compared to that precision.
        assertTrue(bloom <= proxy + json.get("proxy_service_ms").asDouble() + 1e-4, json.toString());
        assertEquals(bloom <= proxy, json.get("target_met").asBoolean(), "the target is reported as it stands");
    }
}
