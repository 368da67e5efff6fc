package io.riptide.simulator.scenario;

import io.riptide.simulator.report.Progress;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * What a scenario run is given: the seed all its randomness must come from, the directory its
 * outputs go to (it exists when the run starts), its options, and where to show progress.
 */
public record ScenarioContext(long seed, Path outDir, ScenarioOptions options, Progress progress) {

    /** The path of output file {@code fileName} in {@link #outDir}. */
    public Path output(String fileName) {
        return outDir.resolve(fileName);
    }

    /** A fresh random stream from the seed: each call starts the same sequence again. */
    public SplittableRandom random() {
        return new SplittableRandom(seed);
    }
}
