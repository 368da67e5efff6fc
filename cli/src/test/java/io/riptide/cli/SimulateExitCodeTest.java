package io.riptide.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.simulator.report.ResultJson;
import io.riptide.simulator.scenario.Scenario;
import io.riptide.simulator.scenario.ScenarioContext;
import io.riptide.simulator.scenario.Scenarios;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code simulate} exits 1 when a checking scenario ({@code faults}) finds an invariant violated, at
 * one seed or at any seed of {@code --seeds}, and 0 when a measuring scenario misses its target.
 */
class SimulateExitCodeTest {
    @TempDir
    Path dir;

    /** Meets its target at even seeds only; {@code failing} says whether a miss fails the run. */
    private record Checker(String name, boolean failing) implements Scenario {
        @Override
        public String description() {
            return "a stand-in";
        }

        @Override
        public boolean missIsFailure() {
            return failing;
        }

        @Override
        public void run(ScenarioContext context) throws Exception {
            new ResultJson().put("scenario", name).put("seed", context.seed()).put("target_met", context.seed() % 2 == 0)
                    .write(context.output("result.json"));
        }
    }

    private int run(CliRun cli, String... args) {
        Scenarios scenarios = Scenarios.builtIn().with(new Checker("checks", true)).with(new Checker("measures", false));
        return cli.run(Riptide.commandLine(scenarios, false), args);
    }

    @Test
    void aViolatedInvariantExitsOneAMissedFigureDoesNot() {
        assertEquals(0, run(new CliRun(), "simulate", "checks", "--seed", "2", "--out", dir.resolve("a").toString()));
        CliRun failed = new CliRun();
        assertEquals(1, run(failed, "simulate", "checks", "--seed", "3", "--out", dir.resolve("b").toString()));
        assertTrue(failed.err().contains("checks: the run missed its target"), failed.err());
        assertTrue(failed.out().contains("Results of 'checks' (seed 3)"), "the results are listed all the same: " + failed.out());
        assertEquals(0, run(new CliRun(), "simulate", "measures", "--seed", "3", "--out", dir.resolve("c").toString()));
    }

    @Test
    void oneFailingSeedOfManyExitsOne() {
        CliRun all = new CliRun();
        assertEquals(0, run(all, "simulate", "checks", "--seeds", "2,4", "--out", dir.resolve("even").toString()));
        CliRun one = new CliRun();
        assertEquals(1, run(one, "simulate", "checks", "--seeds", "2-4", "--out", dir.resolve("mixed").toString()));
        assertTrue(one.err().contains("a seed missed its target (result.json says which, per_seed)"), one.err());
        assertFalse(all.err().contains("missed"), all.err());
    }
}
