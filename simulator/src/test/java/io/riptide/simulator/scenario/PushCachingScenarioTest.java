package io.riptide.simulator.scenario;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.riptide.simulator.report.Progress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A short push-caching run (2 and 24 users): the contract of its result, and the shape of Figs.
 * 23–24. With push the p95 stays flat; without push (no caching) every request crosses the origin
 * link, so once it saturates latency grows with the users and throughput sticks at the link's rate.
 * Runs with the default network model: overlay messages between stubs queue on the stub uplinks.
 */
class PushCachingScenarioTest {
    private static final Map<String, String> OPTIONS = Map.of("nodes", "120", "hosts-per-stub", "40", "clients", "2,24",
            "duration-s", "12", "settle-s", "15", "proxies", "4", "replicas", "2");

    // One run shared by the tests: it is the slow part.
    @TempDir
    static Path dir;
    private static JsonNode json;
    private static JsonNode fewest;
    private static JsonNode most;

    @BeforeAll
    static void runOnce() throws Exception {
        json = run("a");
        fewest = json.get("rows").get(0);
        most = json.get("rows").get(1);
    }

    private static JsonNode run(String sub) throws Exception {
        Path out = Files.createDirectories(dir.resolve(sub));
        new PushCachingScenario().run(new ScenarioContext(5, out, new ScenarioOptions(OPTIONS), Progress.silent()));
        return new ObjectMapper().readTree(Files.readAllBytes(out.resolve("result.json")));
    }

    private static double at(JsonNode row, String field) {
        assertTrue(row.has(field), field);
        return row.get(field).asDouble();
    }

    @Test
    void resultKeepsItsContractAndIsReproducible() throws Exception {
        run("b");
        assertArrayEquals(Files.readAllBytes(dir.resolve("a/result.json")), Files.readAllBytes(dir.resolve("b/result.json")));
        for (String f : new String[] {"push-caching.csv", "latency-cdf-push.png", "latency-cdf-nopush.png", "latency-cdf-recheck.png",
                "throughput.png", "p95-latency.png"}) {
            assertTrue(Files.exists(dir.resolve("a").resolve(f)), f);
        }
        assertEquals(2, json.get("rows").size());
        assertEquals("[2,24]", json.get("client_counts").toString());
        for (JsonNode row : json.get("rows")) {
            for (String f : new String[] {"clients", "p50_ms_push", "p95_ms_push", "p50_ms_nopush", "p95_ms_nopush",
                    "throughput_push", "throughput_nopush", "p95_ms_recheck", "throughput_recheck", "throughput_sd_push",
                    "throughput_sd_nopush"}) {
                assertTrue(row.has(f), f);
            }
        }
        assertTrue(json.has("target_met"));
        assertTrue(json.get("links").asBoolean(), "link queueing is on by default");
    }

    @Test
    void theCpuModelSaysHowEachStageWasCalibratedAndWhatTheHostsUsed() {
        JsonNode cpu = json.get("cpu_model");
        assertEquals(2, cpu.get("cores_per_host").asInt());
        assertEquals(4, cpu.get("stages").size());
        for (JsonNode stage : cpu.get("stages")) {
            assertTrue(stage.get("service_us").asDouble() > 0, stage.toString());
            assertTrue(stage.get("threads").asInt() >= 1, stage.toString());
            assertFalse(stage.get("measured_by").asText().isBlank(), stage.toString());
        }
        // More users, more work for the busiest proxy host, none of it shed at these loads.
        assertTrue(at(most, "cpu_busiest_host_push") > at(fewest, "cpu_busiest_host_push"));
        assertTrue(at(most, "cpu_busiest_host_push") < 1);
        assertEquals(0, at(most, "stage_refusals_push"));
    }

    @Test
    void withPushTheP95StaysFlat() {
        assertTrue(json.get("p95_push_growth").asDouble() <= 1.5, json.toString());
        assertTrue(at(most, "p95_ms_push") <= at(fewest, "p95_ms_push") * 1.5, "more users, no slower: " + json);
        assertTrue(at(most, "p95_ms_push") < 60, json.toString());
    }

    @Test
    void withoutPushEveryRequestCrossesTheOriginLink() {
        for (JsonNode row : json.get("rows")) {
            assertEquals(0, at(row, "overlay_share_nopush"));
            // Requests still in flight at the end were fetched but not counted as answered.
            assertTrue(at(row, "origin_fetches_nopush") >= at(row, "throughput_nopush") * 12, row.toString());
        }
    }

    @Test
    void withoutPushLatencyGrowsWithUsersOnceTheLinkSaturates() {
        double capacity = json.get("origin_link_capacity_per_s").asDouble();
        assertTrue(at(fewest, "throughput_nopush") < 0.8 * capacity, json.toString());
        assertTrue(at(most, "throughput_nopush") > 0.95 * capacity, json.toString());
        assertTrue(at(most, "throughput_nopush") <= 1.01 * capacity, json.toString());
        // Saturated, a closed loop of n users waits for n responses on the link: 24 users, ~24 × 13 ms.
        assertTrue(at(most, "p95_ms_nopush") > 5 * at(fewest, "p95_ms_nopush"), json.toString());
        assertTrue(at(most, "p95_ms_nopush") > 250, json.toString());
    }

    @Test
    void pushAnswersFarMoreRequestsThanTheLinkCarries() {
        assertTrue(at(most, "throughput_push") > 5 * at(most, "throughput_nopush"), json.toString());
        assertTrue(at(most, "overlay_share_push") > 0.95, json.toString());
    }
}
