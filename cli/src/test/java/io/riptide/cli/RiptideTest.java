package io.riptide.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.crypto.SigningKey;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RiptideTest {
    @TempDir
    Path dir;

    private final CliRun cli = new CliRun();

    @Test
    void everyCommandPrintsTheVersion() {
        for (String[] args : new String[][] {{"--version"}, {"node", "--version"}, {"bench", "insert", "-V"}}) {
            CliRun run = new CliRun();
            assertEquals(0, run.run(args));
            assertTrue(run.out().startsWith("riptide "), String.join(" ", args) + ": " + run.out());
        }
    }

    @Test
    void helpListsTheSubcommands() {
        assertEquals(0, cli.run("--help"));
        assertTrue(cli.out().contains("simulate"), cli.out());
        assertTrue(cli.out().contains("keygen"), cli.out());
    }

    @Test
    void versionNamesRiptide() {
        assertEquals(0, cli.run("--version"));
        assertTrue(cli.out().startsWith("riptide "), cli.out());
    }

    @Test
    void unknownScenarioIsAUsageErrorListingKnownOnes() {
        assertEquals(2, cli.run("simulate", "no-such-thing", "--out", dir.toString()));
        assertTrue(cli.err().contains("Unknown scenario 'no-such-thing'"), cli.err());
        assertTrue(cli.err().contains("Known scenarios: "), cli.err());
        for (String name : new String[] {"churn", "dissemination", "hostile", "placement-load", "routing-scale", "service-discovery", "topology"}) {
            assertTrue(cli.err().contains(name), name + " in " + cli.err());
        }
    }

    @Test
    void badScenarioOptionIsAUsageError() {
        assertEquals(2, cli.run("simulate", "topology", "--out", dir.toString(), "--samples", "lots"));
        assertTrue(cli.err().contains("--samples: expected an integer, got 'lots'"), cli.err());
    }

    @Test
    void topologyRunsTwiceGiveByteIdenticalResults() throws Exception {
        Path a = dir.resolve("a");
        Path b = dir.resolve("b");
        assertEquals(0, cli.run("simulate", "topology", "--nodes", "200", "--seed", "1", "--out", a.toString()));
        assertEquals(0, cli.run("simulate", "topology", "--nodes", "200", "--seed", "1", "--out", b.toString(), "--samples=100000"));
        assertArrayEquals(Files.readAllBytes(a.resolve("result.json")), Files.readAllBytes(b.resolve("result.json")));
        assertTrue(cli.out().contains("result.json"), cli.out());
        assertTrue(cli.err().contains("sampling latencies: done"), cli.err());
    }

    @Test
    void unusedScenarioOptionsAreWarnedAbout() {
        assertEquals(0, cli.run("simulate", "topology", "--nodes", "200", "--out", dir.toString(), "--samples", "10", "--colour", "red"));
        assertTrue(cli.err().contains("did not use option --colour"), cli.err());
    }

    @Test
    void keygenWritesALoadableKeyAndPrintsItsNodeId() throws Exception {
        Path file = dir.resolve("keys/node.key");
        assertEquals(0, cli.run("keygen", "--out", file.toString()));
        SigningKey key = SigningKey.load(file);
        assertTrue(cli.out().contains("Node ID: " + key.publicKey().nodeId()), cli.out());
        assertTrue(cli.out().contains("Public key: " + key.publicKey() + " "), cli.out());
        assertEquals(2, cli.run("keygen", "--out", file.toString()));
        assertTrue(cli.err().contains("already exists"), cli.err());
    }
}
