package io.riptide.simulator.seeds;

import io.riptide.simulator.paper.PaperFigures;
import io.riptide.simulator.paper.PaperReport;
import io.riptide.simulator.report.Progress;
import io.riptide.simulator.scenario.Scenario;
import io.riptide.simulator.scenario.ScenarioContext;
import io.riptide.simulator.scenario.ScenarioOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
 * One run of a scenario at one seed into one directory, with everything {@code simulate --seed}
 * writes: the scenario's own outputs and, for a scenario with a figure in EXPERIMENTS.md, its
 * one-figure {@code report.html}. A multi-seed run is this once per seed.
 */
public final class SingleSeedRun {
    private SingleSeedRun() {
    }

    /**
     * Runs {@code scenario} at {@code seed} into {@code dir} (created if missing) with {@code options}
     * (names without dashes); returns the options the scenario never read.
     */
    public static Set<String> run(Scenario scenario, long seed, Path dir, Map<String, String> options, Progress progress)
            throws Exception {
        Files.createDirectories(dir);
        ScenarioOptions scenarioOptions = new ScenarioOptions(options);
        scenario.run(new ScenarioContext(seed, dir, scenarioOptions, progress));
        var figure = PaperFigures.find(scenario.name());
        if (figure.isPresent() && Files.exists(dir.resolve("result.json"))) {
            PaperReport.writeSingle(dir, seed, figure.get());
        }
        return scenarioOptions.unread();
    }
}
