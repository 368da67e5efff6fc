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

/** A small origin-shield run: one fetch by the cache per document however many proxies ask at once. */
class OriginShieldScenarioTest {
    @TempDir
    Path dir;

    private JsonNode run(String sub, Map<String, String> options) throws Exception {
        Path out = Files.createDirectories(dir.resolve(sub));
        new OriginShieldScenario().run(new ScenarioContext(5, out, new ScenarioOptions(options), Progress.silent()));
        return new ObjectMapper().readTree(Files.readAllBytes(out.resolve("result.json")));
    }

    @Test
    void proxiesInManyStubsAskingAtOnceCauseOneCacheFetchPerDocumentAndThenHit() throws Exception {
        // Latency only: with links on, the second wave's burst overflows the uplinks of the stubs that hold
        // the one copy of each document (docs/results.md, origin-shield).
        Map<String, String> options = Map.of("nodes", "300", "proxies", "40", "documents", "5", "gateways", "2",
                "managers", "3", "settle-s", "15", "wave-gap-s", "20", "links", "false");
        JsonNode json = run("a", options);
        run("b", options);
        assertArrayEquals(Files.readAllBytes(dir.resolve("a/result.json")), Files.readAllBytes(dir.resolve("b/result.json")));
        assertTrue(Files.exists(dir.resolve("a/origin-fetches.csv")) && Files.exists(dir.resolve("a/waves.png")));
        assertTrue(json.get("proxy_stubs").asInt() > 1, json.toString());
        assertEquals(5, json.get("origin_fetches").asLong(), json.toString());
        for (JsonNode n : json.get("origin_fetches_per_document")) {
            assertEquals(1, n.asLong(), json.toString());
        }
        assertEquals(200, json.get("requests_per_wave").asLong());
        assertEquals(200, json.get("second_wave_replica_hits").asLong(), "the second wave is served by the overlay");
        assertEquals(0, json.get("proxy_direct_fetches_second_wave").asLong());
        // Counted at the origin: every first-wave request missed (nothing was cached yet), none of the second.
        assertEquals(200, json.get("users_origin_fetches_first_wave").asLong(), json.toString());
        assertEquals(0, json.get("users_origin_fetches_second_wave").asLong(), json.toString());
        assertEquals(205, json.get("all_origin_fetches").asLong(), json.toString());
        assertTrue(json.get("target_met").asBoolean());
        // What the second wave had to be served from, and that nothing was dropped without link queueing.
        assertEquals(5, json.get("copies_per_document_before_second_wave").size(), json.toString());
        for (JsonNode n : json.get("copies_per_document_before_second_wave")) {
            assertTrue(n.asLong() >= 1, json.toString());
        }
        assertEquals(0, json.get("second_wave_messages_overflowed").asLong(), json.toString());
    }
}
