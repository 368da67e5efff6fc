package io.riptide.cli;

import io.riptide.simulator.report.Progress;
import io.riptide.simulator.scenario.Scenario;
import io.riptide.simulator.scenario.ScenarioOptionException;
import io.riptide.simulator.scenario.Scenarios;
import io.riptide.simulator.seeds.SeedList;
import io.riptide.simulator.seeds.SeedsRun;
import io.riptide.simulator.seeds.SingleSeedRun;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code riptide simulate <scenario> --seed S --out DIR [--key value ...]}: runs one named scenario, or
 * with {@code --seeds LIST} runs it once per seed and sums the seeds up.
 */
@Command(name = "simulate", mixinStandardHelpOptions = true,
        description = {"Runs a simulated experiment and writes result.json, CSV and charts to --out.",
            "Same seed, same results. Options other than those below go to the scenario, as --key value (after "
            + "the scenario name)."},
        footerHeading = "%nScenarios:%n")
final class SimulateCommand implements Callable<Integer> {
    private final Scenarios scenarios;
    private final boolean terminal;

    @Spec
    private CommandSpec spec;

    /** The seed when neither --seed nor --seeds is given; the help text says it too. */
    private static final long DEFAULT_SEED = 1;

    // No picocli default: null tells "not given" apart from "--seed 1", which --seeds must refuse.
    @Option(names = "--seed", paramLabel = "S", description = "Seed for all randomness; same seed, same result.json (default: 1).")
    private Long seed;

    @Option(names = "--seeds", paramLabel = "LIST", converter = SeedsConverter.class,
            description = "Run once per seed, e.g. 1-5 or 1,2,3, each into DIR/seed-N/; DIR/result.json (the first seed's "
                    + "figures plus per_seed) and report.html cover every seed. Not with --seed (default: one run, --seed).")
    private SeedList seeds;

    @Option(names = "--out", paramLabel = "DIR", required = true, description = "Directory for the results, created if missing (required).")
    private Path out;

    @Option(names = "--nodes", paramLabel = "N", description = "Number of simulated nodes (default: the scenario's own).")
    private Integer nodes;

    @Parameters(paramLabel = "SCENARIO [--key value]", arity = "1..*",
            description = "The scenario's name, then its own options.")
    private List<String> arguments = new ArrayList<>();

    private SimulateCommand(Scenarios scenarios, boolean terminal) {
        this.scenarios = scenarios;
        this.terminal = terminal;
    }

    /** The subcommand, set up to pass options it does not know to the scenario. */
    static CommandLine commandLine(Scenarios scenarios, boolean terminal) {
        CommandLine cl = new CommandLine(new SimulateCommand(scenarios, terminal));
        cl.setUnmatchedOptionsArePositionalParams(true);
        List<String> footer = new ArrayList<>();
        for (Scenario s : scenarios.all()) {
            footer.addAll(wrap(String.format("  %-18s ", s.name()), s.description()));
        }
        footer.add("");
        footer.addAll(wrap("", "Scenarios that build an overlay also take --hosts-per-stub N, --join-rate PER_S, --settle-s S and "
                + "--links true|false (queue messages between stubs on the 1.5 Mb/s stub uplinks, as the paper's network; on by default in every scenario; --links false gives the latency-only figures)."));
        footer.add("");
        footer.add("Examples:");
        footer.add("  riptide simulate topology --nodes 200 --out results/topology --samples 10000");
        footer.add("  riptide simulate paper --seeds 1-5 --out results/paper-seeds");
        footer.add("  riptide simulate faults --seeds 1-20 --out results/faults");
        cl.getCommandSpec().usageMessage().footer(footer.toArray(String[]::new));
        Map<String, String> codes = new LinkedHashMap<>();
        codes.put("0", "success");
        codes.put("1", "runtime failure (the message says what went wrong and what to do), or a checking scenario "
                + "(faults) found an invariant violated: its results name it and the command that replays it");
        codes.put("2", "usage or config error (nothing was started)");
        cl.getCommandSpec().usageMessage().exitCodeListHeading("%nExit codes:%n").exitCodeList(codes);
        return cl;
    }

    /** {@code text} after {@code first}, wrapped at 80 columns under its own start (picocli does not wrap footers). */
    private static List<String> wrap(String first, String text) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder(first);
        for (String word : text.split(" ")) {
            if (line.length() > first.length() && line.length() + 1 + word.length() > 80) {
                lines.add(line.toString());
                line = new StringBuilder(" ".repeat(first.length()));
            } else if (line.length() > first.length()) {
                line.append(' ');
            }
            line.append(word);
        }
        lines.add(line.toString());
        return lines;
    }

    @Override
    public Integer call() throws Exception {
        Map<String, String> options = new LinkedHashMap<>();
        String name = parse(options);
        Scenario scenario = scenarios.find(name).orElseThrow(() -> usage(
                "Unknown scenario '" + name + "'. Known scenarios: " + String.join(", ", scenarios.names())));
        if (nodes != null) {
            options.put("nodes", Integer.toString(nodes));
        }
        if (seed != null && seeds != null) {
            throw usage("--seed and --seeds cannot be given together: --seed S runs one seed into --out, --seeds LIST runs "
                    + "each seed into --out/seed-N/");
        }
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter stdout = spec.commandLine().getOut();
        Files.createDirectories(out);
        Progress progress = new Progress(err, terminal);
        Set<String> unreadOptions;
        try {
            unreadOptions = seeds == null
                    ? SingleSeedRun.run(scenario, seed == null ? DEFAULT_SEED : seed, out, options, progress)
                    : new SeedsRun(scenario, options, progress, err).run(seeds, out);
        } catch (ScenarioOptionException e) {
            throw usage(e.getMessage());
        }
        for (String unread : unreadOptions) {
            err.println("warning: scenario '" + name + "' did not use option --" + unread);
        }
        err.flush();
        String seedText = seeds == null ? "seed " + (seed == null ? DEFAULT_SEED : seed) : "seeds " + seeds.text();
        stdout.println("Results of '" + name + "' (" + seedText + ") in " + out.toAbsolutePath().normalize() + ":");
        try (Stream<Path> files = Files.list(out)) {
            files.map(p -> p.getFileName().toString()).sorted().forEach(f -> stdout.println("  " + f));
        }
        stdout.flush();
        if (scenario.missIsFailure() && !targetMet(out.resolve("result.json"), seeds != null)) {
            err.println(name + ": " + (seeds == null ? "the run" : "a seed") + " missed its target (result.json says which"
                    + (seeds == null ? "" : ", per_seed") + "): exit code 1");
            err.flush();
            return 1;
        }
        return 0;
    }

    /** Whether {@code result} says the target was met: at every seed, for a multi-seed run. */
    private static boolean targetMet(Path result, boolean everySeed) throws java.io.IOException {
        if (!Files.exists(result)) {
            return false;
        }
        com.fasterxml.jackson.databind.JsonNode json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(result.toFile());
        return json.path(everySeed ? "target_met_every_seed" : "target_met").asBoolean(false);
    }

    /** Splits the positional words into the scenario name and its {@code --key value} options. */
    private String parse(Map<String, String> options) {
        String name = null;
        for (int i = 0; i < arguments.size(); i++) {
            String word = arguments.get(i);
            if (word.startsWith("--") && word.length() > 2) {
                String key = word.substring(2);
                String value = "true";
                int eq = key.indexOf('=');
                if (eq >= 0) {
                    value = key.substring(eq + 1);
                    key = key.substring(0, eq);
                } else if (i + 1 < arguments.size() && !arguments.get(i + 1).startsWith("--")) {
                    value = arguments.get(++i);
                }
                if (options.put(key, value) != null) {
                    throw usage("Option --" + key + " given twice");
                }
            } else if (name == null) {
                name = word;
            } else {
                throw usage("Unexpected argument '" + word + "': give the scenario name once, then --key value options");
            }
        }
        if (name == null) {
            throw usage("Missing scenario name. Known scenarios: " + String.join(", ", scenarios.names()));
        }
        return name;
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
