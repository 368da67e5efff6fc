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

/** A small flash crowd: the contract of its result, and the cache manager's replicas taking load at once. */
class FlashCrowdScenarioTest {
    @TempDir
    Path dir;

    private JsonNode run(String sub, Map<String, String> options) throws Exception {
        Path out = Files.createDirectories(dir.resolve(sub));
        new FlashCrowdScenario().run(new ScenarioContext(3, out, new ScenarioOptions(options), Progress.silent()));
        return new ObjectMapper().readTree(Files.readAllBytes(out.resolve("result.json")));
    }

    @Test
    void newReplicasServeInTheirFirstIntervalAndTheOriginIsAskedOnce() throws Exception {
        // Reads go to the nearest replica, so only as many replicas take load as there are places the
        // load comes from: the crowd comes from more places than the manager may add replicas.
        Map<String, String> options = Map.of("nodes", "200", "hosts-per-stub", "40", "places", "12", "max-replicas", "3",
                "rate", "40", "crowd-s", "40", "cool-s", "10", "settle-s", "15");
        JsonNode json = run("a", options);
        run("b", options);
        assertArrayEquals(Files.readAllBytes(dir.resolve("a/result.json")), Files.readAllBytes(dir.resolve("b/result.json")));
        assertTrue(Files.exists(dir.resolve("a/replica-load.csv")) && Files.exists(dir.resolve("a/replica-load.png")));
        for (String field : new String[] {"stubs", "replicas_added", "first_interval_requests_per_new_replica",
                "origin_fetches_hot_doc", "replicas", "target_met"}) {
            assertTrue(json.has(field), field);
        }
        assertTrue(json.get("replicas_added").asInt() >= 1, json.toString());
        for (JsonNode n : json.get("first_interval_requests_per_new_replica")) {
            assertTrue(n.asLong() > 0, json.toString());
        }
        assertTrue(json.get("origin_fetches_hot_doc").asLong() <= json.get("stubs").asLong(), json.toString());
        assertEquals(json.get("requests").asLong(), json.get("served_by_replicas").asLong() + json.get("served_by_origin").asLong());
        assertTrue(json.get("target_met").asBoolean(), json.toString());
    }
}
