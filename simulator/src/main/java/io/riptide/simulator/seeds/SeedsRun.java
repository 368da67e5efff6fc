package io.riptide.simulator.seeds;

import io.riptide.simulator.report.Progress;
import io.riptide.simulator.scenario.Scenario;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code simulate <scenario> --seeds LIST}: runs the scenario once per seed, one after another, each
 * into {@code out/seed-<N>/} with everything a one-seed run writes, and after each seed rewrites
 * {@code out/result.json} and {@code out/report.html} over the seeds finished so far, so a long run
 * can be read while it goes and a run cut short still says what it found.
 */
public final class SeedsRun {
    private final Scenario scenario;
    private final Map<String, String> options;
    private final Progress progress;
    private final PrintWriter log;

    /**
     * Runs {@code scenario} with {@code options} (names without dashes) at each seed, showing each
     * task's progress on {@code progress} and a line per seed on {@code log}.
     */
    public SeedsRun(Scenario scenario, Map<String, String> options, Progress progress, PrintWriter log) {
        this.scenario = scenario;
        this.options = Map.copyOf(options);
        this.progress = progress;
        this.log = log;
    }

    /** Runs every seed of {@code seeds} under {@code out}; returns the options no seed's run read. */
    public Set<String> run(SeedList seeds, Path out) throws Exception {
        Files.createDirectories(out);
        Set<String> unread = null;
        List<Long> finished = new ArrayList<>();
        for (long seed : seeds.seeds()) {
            Path dir = out.resolve(SeedSummary.dirName(seed));
            log.printf("%s: seed %d (%d of %d) into %s%n", scenario.name(), seed, finished.size() + 1, seeds.size(), dir);
            log.flush();
            Set<String> notRead = SingleSeedRun.run(scenario, seed, dir, options, progress);
            if (unread == null) {
                unread = new TreeSet<>(notRead);
            } else {
                unread.retainAll(notRead);
            }
            finished.add(seed);
            SeedSummary summary = SeedSummary.collect(out, scenario.name(), seeds, finished);
            summary.writeJson(out);
            SeedsReport.write(out, summary);
            SeedOutcome outcome = summary.runs().get(summary.runs().size() - 1);
            String figures = "";
            if (summary.nested()) {
                long met = summary.figures().stream().filter(f -> f.seeds().get(f.seeds().size() - 1).met()).count();
                figures = " (" + met + " of " + summary.figures().size() + " figures)";
            }
            log.printf("%s: seed %d: %s%s; %d of %d seeds run so far met the target%n", scenario.name(), seed, outcome.verdict(),
                    figures, summary.met(), finished.size());
            log.flush();
        }
        return unread == null ? Set.of() : unread;
    }
}
