package io.riptide.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code simulate --seeds}: parsing, the clash with {@code --seed}, and the per-seed layout it writes. */
class SimulateSeedsTest {
    @TempDir
    Path dir;

    private final CliRun cli = new CliRun();

    @Test
    void aListRunsEachSeedIntoItsOwnDirectoryAndSumsThemUp() throws Exception {
        Path out = dir.resolve("seeds");
        assertEquals(0, cli.run("simulate", "topology", "--nodes", "200", "--seeds", "2,1", "--out", out.toString(),
                "--samples", "1000"), cli.err());
        for (String seed : new String[] {"seed-1", "seed-2"}) {
            assertTrue(Files.exists(out.resolve(seed).resolve("result.json")), seed);
            assertTrue(Files.exists(out.resolve(seed).resolve("latency-cdf.png")), seed);
        }
        JsonNode top = new ObjectMapper().readTree(Files.readAllBytes(out.resolve("result.json")));
        assertEquals(2, top.get("seed").asLong(), "the first seed listed");
        assertEquals("[2,1]", top.get("seeds").toString());
        assertEquals(2, top.get("per_seed").size());
        assertTrue(cli.err().contains("topology: seed 2 (1 of 2) into "), cli.err());
        assertTrue(cli.err().contains("topology: seed 1 (2 of 2) into "), cli.err());
        assertTrue(cli.out().contains("Results of 'topology' (seeds 2, 1) in "), cli.out());
        assertTrue(cli.out().contains("  seed-1\n") || cli.out().contains("  seed-1\r\n"), cli.out());

        // Seed 1 in the list writes what --seed 1 alone writes.
        Path alone = dir.resolve("alone");
        assertEquals(0, new CliRun().run("simulate", "topology", "--nodes", "200", "--seed", "1", "--out", alone.toString(),
                "--samples", "1000"));
        assertArrayEquals(Files.readAllBytes(alone.resolve("result.json")), Files.readAllBytes(out.resolve("seed-1/result.json")));
        assertFalse(Files.exists(alone.resolve("seed-1")));
    }

    @Test
    void seedAndSeedsTogetherIsAUsageError() {
        assertEquals(2, cli.run("simulate", "topology", "--seed", "1", "--seeds", "1-5", "--out", dir.toString()));
        assertTrue(cli.err().contains("--seed and --seeds cannot be given together"), cli.err());
        assertFalse(Files.exists(dir.resolve("seed-1")), "nothing ran");
    }

    @Test
    void aBadListIsAUsageErrorSayingWhatIsWrong() {
        assertEquals(2, cli.run("simulate", "topology", "--seeds", "5-1", "--out", dir.toString()));
        assertTrue(cli.err().contains("Invalid value for option '--seeds': range 5-1 goes down"), cli.err());
        CliRun words = new CliRun();
        assertEquals(2, words.run("simulate", "topology", "--seeds", "one", "--out", dir.toString()));
        assertTrue(words.err().contains("expected seeds such as 1-5 or 1,2,3, got 'one'"), words.err());
    }

    @Test
    void seedsMayComeFromAConfigFileAndStillClashWithSeed() throws Exception {
        Path conf = dir.resolve("simulate.conf");
        Files.writeString(conf, "seeds = 1-2\n");
        assertEquals(2, cli.run("simulate", "topology", "--config", conf.toString(), "--seed", "3", "--out", dir.toString()));
        assertTrue(cli.err().contains("--seed and --seeds cannot be given together"), cli.err());
        CliRun fromFile = new CliRun();
        Path out = dir.resolve("from-file");
        assertEquals(0, fromFile.run("simulate", "topology", "--config", conf.toString(), "--nodes", "200", "--out", out.toString(),
                "--samples", "1000"), fromFile.err());
        assertTrue(Files.exists(out.resolve("seed-2/result.json")));
    }
}
