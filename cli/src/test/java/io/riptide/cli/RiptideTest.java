package io.riptide.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.crypto.SigningKey;
import io.riptide.simulator.scenario.Scenarios;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class RiptideTest {
    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = Riptide.commandLine(Scenarios.builtIn(), false);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @Test
    void helpListsTheSubcommands() {
        assertEquals(0, run("--help"));
        assertTrue(out.toString().contains("simulate"), out.toString());
        assertTrue(out.toString().contains("keygen"), out.toString());
    }

    @Test
    void versionNamesRiptide() {
        assertEquals(0, run("--version"));
        assertTrue(out.toString().startsWith("riptide "), out.toString());
    }

    @Test
    void unknownScenarioIsAUsageErrorListingKnownOnes() {
        assertEquals(2, run("simulate", "no-such-thing", "--out", dir.toString()));
        assertTrue(err.toString().contains("Unknown scenario 'no-such-thing'"), err.toString());
        assertTrue(err.toString().contains("Known scenarios: topology"), err.toString());
    }

    @Test
    void badScenarioOptionIsAUsageError() {
        assertEquals(2, run("simulate", "topology", "--out", dir.toString(), "--samples", "lots"));
        assertTrue(err.toString().contains("--samples: expected an integer, got 'lots'"), err.toString());
    }

    @Test
    void topologyRunsTwiceGiveByteIdenticalResults() throws Exception {
        Path a = dir.resolve("a");
        Path b = dir.resolve("b");
        assertEquals(0, run("simulate", "topology", "--nodes", "200", "--seed", "1", "--out", a.toString()));
        assertEquals(0, run("simulate", "topology", "--nodes", "200", "--seed", "1", "--out", b.toString(), "--samples=100000"));
        assertArrayEquals(Files.readAllBytes(a.resolve("result.json")), Files.readAllBytes(b.resolve("result.json")));
        assertTrue(out.toString().contains("result.json"), out.toString());
        assertTrue(err.toString().contains("sampling latencies: done"), err.toString());
    }

    @Test
    void unusedScenarioOptionsAreWarnedAbout() {
        assertEquals(0, run("simulate", "topology", "--nodes", "200", "--out", dir.toString(), "--samples", "10", "--colour", "red"));
        assertTrue(err.toString().contains("did not use option --colour"), err.toString());
    }

    @Test
    void keygenWritesALoadableKeyAndPrintsItsNodeId() throws Exception {
        Path file = dir.resolve("keys/node.key");
        assertEquals(0, run("keygen", "--out", file.toString()));
        SigningKey key = SigningKey.load(file);
        assertTrue(out.toString().contains("Node ID: " + key.publicKey().nodeId()), out.toString());
        assertEquals(2, run("keygen", "--out", file.toString()));
        assertTrue(err.toString().contains("already exists"), err.toString());
    }
}
