package io.riptide.simulator.scenario;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.riptide.simulator.report.Progress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TopologyScenarioTest {
    @TempDir
    Path dir;

    private Path run(String sub, long seed) throws Exception {
        Path out = Files.createDirectories(dir.resolve(sub));
        ScenarioOptions options = new ScenarioOptions(Map.of("nodes", "500", "samples", "5000"));
        new TopologyScenario().run(new ScenarioContext(seed, out, options, Progress.silent()));
        return out;
    }

    @Test
    void writesReproducibleResultsAndCharts() throws Exception {
        Path a = run("a", 1);
        Path b = run("b", 1);
        Path c = run("c", 2);
        byte[] first = Files.readAllBytes(a.resolve("result.json"));
        assertArrayEquals(first, Files.readAllBytes(b.resolve("result.json")));
        assertTrue(!java.util.Arrays.equals(first, Files.readAllBytes(c.resolve("result.json"))), "seed must matter");
        JsonNode json = new ObjectMapper().readTree(first);
        assertTrue(json.at("/topology/stubs").asInt() == 5);
        double intra = json.at("/intraStubLatency/p50Ms").asDouble();
        double inter = json.at("/interStubLatency/p50Ms").asDouble();
        assertTrue(intra >= 1 && intra < inter && inter >= 20, "intra " + intra + ", inter " + inter);
        for (String file : new String[] {"latency-histogram.png", "latency-cdf.png", "latency-histogram.csv"}) {
            assertTrue(Files.size(a.resolve(file)) > 100, file);
        }
    }
}
