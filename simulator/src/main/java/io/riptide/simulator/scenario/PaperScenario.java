package io.riptide.simulator.scenario;

import io.riptide.simulator.paper.PaperFigure;
import io.riptide.simulator.paper.PaperFigures;
import io.riptide.simulator.paper.PaperReport;
import io.riptide.simulator.report.ResultJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Runs the paper's whole section-6 set at the paper's scale (1100 nodes; each scenario with its
 * defaults), each into its own directory, then writes one {@code report.html} that sets every figure
 * beside the paper's numbers.
 */
public final class PaperScenario implements Scenario {
    private final Scenarios scenarios;

    /** Runs the built-in scenarios. */
    public PaperScenario() {
        this(null);
    }

    /** Runs the scenarios of {@code scenarios} (null: the built-in ones). */
    public PaperScenario(Scenarios scenarios) {
        this.scenarios = scenarios;
    }

    @Override
    public String name() {
        return "paper";
    }

    @Override
    public String description() {
        return "the paper's whole section 6 at its scale, one report.html beside the paper's numbers (--only a,b)";
    }

    @Override
    public void run(ScenarioContext context) throws Exception {
        Scenarios all = scenarios == null ? Scenarios.builtIn() : scenarios;
        String only = context.options().getString("only", "");
        List<PaperFigure> figures = PaperFigures.all().stream()
                .filter(f -> only.isEmpty() || List.of(only.split(",")).contains(f.scenario())).toList();
        if (figures.isEmpty()) {
            throw new ScenarioOptionException("only", "no paper scenario named in '" + only + "'");
        }
        for (PaperFigure f : figures) {
            Scenario s = all.find(f.scenario()).orElseThrow(() -> new IllegalStateException("no scenario " + f.scenario()));
            Path dir = Files.createDirectories(context.outDir().resolve(f.scenario()));
            System.out.printf("paper: %s (%s)%n", f.scenario(), f.figure());
            s.run(new ScenarioContext(context.seed(), dir, new ScenarioOptions(Map.of()), context.progress()));
        }
        int met = PaperReport.write(context.outDir(), context.seed(), figures);
        long peakHeap = java.lang.management.ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == java.lang.management.MemoryType.HEAP)
                .mapToLong(p -> p.getPeakUsage().getUsed()).sum();
        ResultJson result = new ResultJson().put("scenario", name()).put("seed", context.seed())
                .put("figures", (long) figures.size()).put("targets_met", (long) met)
                .put("scenarios", figures.stream().map(PaperFigure::scenario).toList());
        result.put("target_met", met == figures.size());
        result.write(context.output("result.json"));
        // Wall time and heap are not results (they vary run to run): printed, never in result.json.
        System.out.printf("paper: %d of %d targets met; peak heap (sum of pool peaks) %d MB; open %s%n", met, figures.size(),
                peakHeap >> 20, context.outDir().resolve("report.html"));
    }
}
