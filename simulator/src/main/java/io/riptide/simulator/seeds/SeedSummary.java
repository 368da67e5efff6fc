package io.riptide.simulator.seeds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.riptide.simulator.paper.PaperFigure;
import io.riptide.simulator.paper.PaperFigures;
import io.riptide.simulator.paper.TargetFields;
import io.riptide.simulator.report.ResultJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a multi-seed run found, read back from each finished seed's directory: each seed's result and
 * verdict and, where the scenario redraws figures of the paper, each figure at each seed. Writes the
 * run's top-level {@code result.json}.
 *
 * @param scenario the scenario's name
 * @param seeds    the seeds asked for, in order
 * @param runs     the seeds finished so far, in order
 * @param figures  the paper's figures the runs redrew (several for {@code paper}, one for a scenario
 *                 with a figure, none otherwise)
 */
public record SeedSummary(String scenario, SeedList seeds, List<SeedOutcome> runs, List<FigureOutcomes> figures) {
    /** The scenario that runs the paper's whole set, each figure's scenario in a directory of its own. */
    public static final String PAPER = "paper";

    public SeedSummary {
        runs = List.copyOf(runs);
        figures = List.copyOf(figures);
    }

    /** The directory seed {@code seed} runs into, relative to the run's directory. */
    public static String dirName(long seed) {
        return "seed-" + seed;
    }

    /** Reads the results of the {@code finished} seeds of {@code seeds} under {@code out}. */
    public static SeedSummary collect(Path out, String scenario, SeedList seeds, List<Long> finished) throws IOException {
        List<SeedOutcome> runs = new ArrayList<>();
        for (long seed : finished) {
            runs.add(new SeedOutcome(seed, dirName(seed), read(out.resolve(dirName(seed)).resolve("result.json"))));
        }
        List<FigureOutcomes> figures = new ArrayList<>();
        for (PaperFigure f : figuresOf(scenario, runs)) {
            List<SeedOutcome> outcomes = new ArrayList<>();
            for (SeedOutcome run : runs) {
                String dir = nested(scenario) ? run.dir() + "/" + f.scenario() : run.dir();
                outcomes.add(new SeedOutcome(run.seed(), dir, read(out.resolve(dir).resolve("result.json"))));
            }
            figures.add(new FigureOutcomes(f, outcomes));
        }
        return new SeedSummary(scenario, seeds, runs, figures);
    }

    /** Whether each figure's run sits in a directory of its own inside each seed's ({@code paper}). */
    public boolean nested() {
        return nested(scenario);
    }

    /** How many of the finished seeds met the target. */
    public int met() {
        return (int) runs.stream().filter(SeedOutcome::met).count();
    }

    /** Whether every seed asked for has run and met the target. */
    public boolean everySeedMet() {
        return runs.size() == seeds.size() && met() == seeds.size();
    }

    /**
     * Writes {@code out/result.json}: the first seed's own result, key for key (so readers of one-seed
     * results keep working; its figures are the first seed's), then {@code seeds}, {@code seeds_run},
     * {@code per_seed} (each seed's verdict and target figures), {@code target_met_seeds} and
     * {@code target_met_every_seed}; for {@code paper}, also {@code per_figure}.
     */
    public void writeJson(Path out) throws IOException {
        Path first = runs.isEmpty() ? null : out.resolve(runs.get(0).dir()).resolve("result.json");
        ResultJson result = first != null && Files.exists(first) ? ResultJson.read(first) : new ResultJson().put("scenario", scenario);
        result.put("seeds", seeds.seeds().stream().mapToLong(Long::longValue).toArray());
        result.put("seeds_run", (long) runs.size());
        ResultJson.ObjectList perSeed = result.objects("per_seed");
        for (SeedOutcome run : runs) {
            ResultJson row = perSeed.add();
            putOutcome(row, run, scenario);
            if (nested()) {
                List<String> met = figures.stream().filter(f -> outcomeOf(f, run.seed()).map(SeedOutcome::met).orElse(false))
                        .map(f -> f.figure().scenario()).toList();
                row.put("scenarios_met", met);
            }
        }
        result.put("target_met_seeds", (long) met()).put("target_met_every_seed", everySeedMet());
        if (nested()) {
            ResultJson.ObjectList perFigure = result.objects("per_figure");
            for (FigureOutcomes f : figures) {
                ResultJson row = perFigure.add().put("scenario", f.figure().scenario()).put("figure", f.figure().figure())
                        .put("target_met_seeds", (long) f.met());
                ResultJson.ObjectList seedRows = row.objects("per_seed");
                for (SeedOutcome o : f.seeds()) {
                    putOutcome(seedRows.add(), o, f.figure().scenario());
                }
            }
        }
        result.write(out.resolve("result.json"));
    }

    private static void putOutcome(ResultJson row, SeedOutcome o, String scenario) {
        row.put("seed", o.seed()).put("dir", o.dir());
        // null, not false, when the run gives no verdict: "no target" is not "missed".
        row.put("target_met", o.hasVerdict() ? o.result().get("target_met") : null);
        if (o.result() != null) {
            for (String field : TargetFields.of(scenario)) {
                if (o.result().has(field)) {
                    row.put(field, o.result().get(field));
                }
            }
        }
    }

    private static Optional<SeedOutcome> outcomeOf(FigureOutcomes f, long seed) {
        return f.seeds().stream().filter(o -> o.seed() == seed).findFirst();
    }

    private static boolean nested(String scenario) {
        return PAPER.equals(scenario);
    }

    /** The figures redrawn: for {@code paper}, those its first finished seed ran (it may be given {@code --only}). */
    private static List<PaperFigure> figuresOf(String scenario, List<SeedOutcome> runs) {
        if (!nested(scenario)) {
            return PaperFigures.find(scenario).map(List::of).orElse(List.of());
        }
        JsonNode first = runs.isEmpty() ? null : runs.get(0).result();
        if (first == null) {
            return List.of();
        }
        List<PaperFigure> figures = new ArrayList<>();
        first.path("scenarios").forEach(name -> PaperFigures.find(name.asText()).ifPresent(figures::add));
        return figures;
    }

    private static JsonNode read(Path file) throws IOException {
        return Files.exists(file) ? new ObjectMapper().readTree(Files.readAllBytes(file)) : null;
    }
}
