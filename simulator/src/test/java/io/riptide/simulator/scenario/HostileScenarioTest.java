package io.riptide.simulator.scenario;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
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

/**
 * The hostile scenario at a reduced size (the same fifth of the nodes hostile): its result contract
 * holds, no forged byte reaches a client, the verdict follows the figures, and runs repeat.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HostileScenarioTest {
    private static final Map<String, String> SMALL = Map.of("nodes", "60", "hostile-fraction", "0.2", "objects", "8", "reads", "100");

    private Path dir;
    private JsonNode json;

    /** Runs once for all the tests. */
    @BeforeAll
    void runTwice(@TempDir Path tmp) throws Exception {
        dir = tmp;
        json = run("a", SMALL);
        run("b", SMALL);
    }

    private JsonNode run(String sub, Map<String, String> options) throws Exception {
        Path out = Files.createDirectories(dir.resolve(sub));
        new HostileScenario().run(new ScenarioContext(1, out, new ScenarioOptions(options), Progress.silent()));
        return new ObjectMapper().readTree(Files.readAllBytes(out.resolve("result.json")));
    }

    @Test
    void theSameSeedGivesTheSameBytes() throws Exception {
        assertArrayEquals(Files.readAllBytes(dir.resolve("a/result.json")), Files.readAllBytes(dir.resolve("b/result.json")));
    }

    @Test
    void resultHasItsContractFields() {
        for (String field : new String[] {"nodes", "hostile_nodes", "objects", "reads", "salted_roots", "client_read_success_rate",
                "forged_bytes_served", "plain_read_success_rate", "plain_reads_forged", "reads_widened", "extra_routed_reads",
                "replica_lists", "listed_holders_read", "hostile_dropped", "hostile_misrouted", "hostile_withheld",
                "hostile_forged_sent", "hostile_false_pointers", "messages", "targets", "target_met"}) {
            assertTrue(json.has(field), field + " in " + json);
        }
        assertEquals(60, json.get("nodes").asInt());
        assertEquals(12, json.get("hostile_nodes").asInt());
        assertEquals(4, json.get("salted_roots").asInt(), "the default");
        assertEquals(0.99, json.at("/targets/client_read_success_rate_min").asDouble());
        assertEquals(0, json.at("/targets/forged_bytes_served_max").asLong());
        assertTrue(json.get("messages").asLong() > 0);
    }

    @Test
    void noForgedByteReachesAClientAndTheVerdictFollowsTheFigures() {
        assertEquals(0, json.get("forged_bytes_served").asLong(), json.toString());
        assertTrue(json.get("hostile_forged_sent").asLong() > 0, "the hostile nodes did forge: " + json);
        boolean met = json.get("client_read_success_rate").asDouble() >= 0.99 && json.get("forged_bytes_served").asLong() == 0;
        assertEquals(met, json.get("target_met").asBoolean());
        assertTrue(json.get("client_read_success_rate").asDouble() > json.get("plain_read_success_rate").asDouble(), json.toString());
    }

    @Test
    void writesTheChartAndItsSeries() throws Exception {
        assertTrue(Files.size(dir.resolve("a/read-success.png")) > 100);
        assertEquals(2, Files.readAllLines(dir.resolve("a/read-success.csv")).size(), "a header and this seed's row");
    }

    @Test
    void refusesOptionsItCannotUse() {
        assertThrows(ScenarioOptionException.class, () -> run("bad", Map.of("salted-roots", "9")));
        assertThrows(ScenarioOptionException.class, () -> run("bad", Map.of("hostile-fraction", "1")));
    }
}
