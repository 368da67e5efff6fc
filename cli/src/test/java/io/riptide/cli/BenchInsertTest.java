package io.riptide.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code riptide bench insert} runs end to end and writes its contract fields and chart. */
class BenchInsertTest {
    @TempDir
    Path dir;

    @Test
    void writesTheLatencyFiguresAndTheChart() throws Exception {
        CliRun cli = new CliRun();
        assertEquals(0, cli.run("bench", "insert", "--out", dir.toString(), "--objects", "5", "--size-kb", "1"), cli.err());
        JsonNode json = new ObjectMapper().readTree(Files.readAllBytes(dir.resolve("result.json")));
        assertEquals(5, json.get("objects").asInt());
        assertEquals(1024, json.get("size_bytes").asInt());
        for (String field : new String[] {"insert_p50_ms", "origin_fetch_p50_ms", "insert_excluding_fetch_p50_ms",
            "insert_excluding_fetch_p90_ms"}) {
            assertTrue(json.get(field).asDouble() > 0, field + " in " + json);
        }
        assertTrue(Files.size(dir.resolve("insert-latency-cdf.png")) > 1000);
        assertTrue(cli.out().contains("insert of 1 KB"), cli.out());
    }

    @Test
    void aBenchmarkMustBeNamed() {
        CliRun cli = new CliRun();
        assertEquals(2, cli.run("bench"));
        assertTrue(cli.err().startsWith("riptide bench: missing command: choose one of insert, proxy-overhead, hit-throughput"),
                cli.err());
    }
}
