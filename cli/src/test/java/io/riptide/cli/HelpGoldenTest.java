package io.riptide.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.riptide.simulator.scenario.Scenarios;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The exact {@code --help} of every command in the tree, compared with the golden files in
 * {@code src/test/resources/help/} (named by the command path: {@code riptide.txt},
 * {@code node.txt}, {@code bench-insert.txt}, ...). A command without a golden file fails too.
 *
 * <p>After changing an option or a description on purpose, rewrite the golden files and review the
 * diff: {@code ./mvnw -q -o -pl cli -am test -Dtest=HelpGoldenTest -Driptide.updateGolden=true}.
 */
class HelpGoldenTest {
    private static final Path GOLDEN = Path.of("src/test/resources/help");
    private static final boolean UPDATE = Boolean.getBoolean("riptide.updateGolden");

    @TestFactory
    Stream<DynamicTest> everyCommandsHelpMatchesItsGoldenFile() {
        return commands().stream().map(path -> DynamicTest.dynamicTest(name(path), () -> {
            CliRun cli = new CliRun();
            List<String> args = new ArrayList<>(path);
            args.add("--help");
            assertEquals(0, cli.run(args.toArray(String[]::new)), cli.err());
            assertEquals("", cli.err());
            String help = cli.out().replace("\r\n", "\n");
            Path file = GOLDEN.resolve(name(path) + ".txt");
            if (UPDATE) {
                Files.createDirectories(GOLDEN);
                Files.writeString(file, help, StandardCharsets.UTF_8);
                return;
            }
            if (!Files.exists(file)) {
                fail("no golden help for '" + String.join(" ", path) + "' at " + file.toAbsolutePath()
                        + "; write it with -Driptide.updateGolden=true and review it");
            }
            assertEquals(Files.readString(file, StandardCharsets.UTF_8), help,
                    "help of '" + String.join(" ", path) + "' changed; if on purpose, rerun with -Driptide.updateGolden=true");
        }));
    }

    @Test
    void everyOptionSaysItsDefaultOrThatItIsRequired() {
        List<String> missing = new ArrayList<>();
        forEach(root(), new ArrayList<>(), (path, cl) -> {
            for (OptionSpec o : cl.getCommandSpec().options()) {
                String text = String.join(" ", o.description());
                if (o.usageHelp() || o.versionHelp()) {
                    continue;
                }
                if (text.isBlank() || !(text.contains("default") || text.contains("(required)"))) {
                    missing.add(String.join(" ", path) + " " + o.longestName());
                }
            }
        });
        assertEquals(List.of(), missing, "options whose description names no default");
    }

    @Test
    void everyCommandThatRunsSomethingShowsAnExampleAndTheExitCodes() {
        List<String> missing = new ArrayList<>();
        forEach(root(), new ArrayList<>(), (path, cl) -> {
            if (!cl.getSubcommands().isEmpty() || cl.getCommand() instanceof CommandLine.HelpCommand) {
                return;
            }
            String help = cl.getUsageMessage();
            if (!help.contains("Exit codes:") || !help.contains("Example") || !help.contains("--config")) {
                missing.add(String.join(" ", path));
            }
        });
        assertEquals(List.of(), missing, "commands whose help lacks an example, the exit codes or --config");
    }

    @Test
    void noCommandIsAUsageErrorThatPrintsTheUsage() {
        CliRun cli = new CliRun();
        assertEquals(2, cli.run());
        assertTrue(cli.err().startsWith("riptide: missing command: choose one of simulate, keygen, node, "), cli.err());
        assertTrue(cli.err().contains("Usage: riptide [-hV] COMMAND"), cli.err());
        assertEquals("", cli.out());
        CliRun bench = new CliRun();
        assertEquals(2, bench.run("bench"));
        assertTrue(bench.err().startsWith("riptide bench: missing command: choose one of insert, proxy-overhead, hit-throughput"),
                bench.err());
    }

    private static CommandLine root() {
        return Riptide.commandLine(Scenarios.builtIn(), false);
    }

    /** Every command path below the root (the root itself is the empty path), except picocli's help command. */
    private static List<List<String>> commands() {
        List<List<String>> paths = new ArrayList<>();
        forEach(root(), new ArrayList<>(), (path, cl) -> paths.add(List.copyOf(path)));
        return paths;
    }

    private interface Visitor {
        void visit(List<String> path, CommandLine command);
    }

    private static void forEach(CommandLine command, List<String> path, Visitor visitor) {
        if (command.getCommand() instanceof CommandLine.HelpCommand) {
            return;
        }
        visitor.visit(path, command);
        for (var e : command.getSubcommands().entrySet()) {
            List<String> sub = new ArrayList<>(path);
            sub.add(e.getKey());
            forEach(e.getValue(), sub, visitor);
        }
    }

    private static String name(List<String> path) {
        return path.isEmpty() ? "riptide" : String.join("-", path);
    }
}
