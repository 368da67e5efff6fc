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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** The service-discovery scenario at a small scale: its result contract holds, runs repeat, and traffic moves to each new manager. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ServiceDiscoveryScenarioTest {
    private static final Map<String, String> SMALL = Map.of("nodes", "300", "hosts-per-stub", "30", "clients", "40",
            "manager-interval-s", "60", "duration-s", "180", "settle-s", "30");

    private Path dir;
    private JsonNode json;

    /** Runs once for all the tests: a run takes a few seconds. */
    @BeforeAll
    void runTwice(@TempDir Path tmp) throws Exception {
        dir = tmp;
        json = run("a");
        run("b");
    }

    private JsonNode run(String sub) throws Exception {
        Path out = Files.createDirectories(dir.resolve(sub));
        new ServiceDiscoveryScenario().run(new ScenarioContext(1, out, new ScenarioOptions(SMALL), Progress.silent()));
        return new ObjectMapper().readTree(Files.readAllBytes(out.resolve("result.json")));
    }

    @Test
    void theSameSeedGivesTheSameBytes() throws Exception {
        assertArrayEquals(Files.readAllBytes(dir.resolve("a/result.json")), Files.readAllBytes(dir.resolve("b/result.json")));
    }

    @Test
    void resultHasItsContractFields() {
        for (String field : new String[] {"shift_interval_s", "shift_interval_s_manager2", "shift_interval_s_manager3",
                "share_to_nearest_after", "share_to_nearest_after_manager1", "share_to_nearest_after_manager2",
                "share_to_nearest_after_manager3", "intervals", "target_met", "hints_per_interval_manager1"}) {
            assertTrue(json.has(field), field);
        }
        assertEquals(18, json.get("intervals").asInt());
        assertEquals(3, json.get("share_to_nearest_after").size());
        assertEquals(18, json.get("hints_per_interval_manager3").size());
        assertTrue(json.get("target_met").isBoolean());
    }

    @Test
    void afterEachJoinMostHintsGoToTheNearestManager() {
        for (int m = 1; m <= 3; m++) {
            assertTrue(json.get("share_to_nearest_after_manager" + m).asDouble() >= 0.9, json.toString());
        }
        for (int m = 2; m <= 3; m++) {
            double shift = json.get("shift_interval_s_manager" + m).asDouble();
            assertTrue(shift > 0 && shift <= 30, json.toString());
        }
    }

    @Test
    void eachManagerReceivesHintsOnlyOnceItRuns() {
        JsonNode third = json.get("hints_per_interval_manager3");
        long before = 0;
        for (int k = 0; k < 11; k++) {
            before += third.get(k).asLong();
        }
        assertEquals(0, before, "manager 3 starts at 120 s: " + third);
        assertTrue(third.get(13).asLong() > 0, third.toString());
        assertTrue(Files.exists(dir.resolve("a/hints-per-interval.csv")));
        assertTrue(Files.exists(dir.resolve("a/hints-per-interval.png")));
    }
}
