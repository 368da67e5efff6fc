package io.riptide.cli;

import io.riptide.cli.bench.ProxyFactory;
import io.riptide.cli.bench.SquidProxy;
import io.riptide.simulator.scenario.Scenarios;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code riptide} command. Subcommands are registered in {@link #commandLine}: to add one
 * ({@code node}, {@code proxy}, ...), write a picocli {@code @Command} class in this package and add
 * one {@code addSubcommand} line there. Exit codes: 0 success, 1 failure, 2 usage error.
 */
@Command(name = "riptide", mixinStandardHelpOptions = true, versionProvider = RiptideVersion.class,
        description = "A peer-to-peer cooperative web cache over a decentralised object location and routing overlay.",
        synopsisSubcommandLabel = "COMMAND")
public final class Riptide implements Runnable {
    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Missing command: choose one of " + spec.subcommands().keySet());
    }

    /**
     * The full command tree. {@code stderrIsTerminal} picks a redrawn progress bar over plain lines;
     * {@code scenarios} is what {@code simulate} can run.
     */
    public static CommandLine commandLine(Scenarios scenarios, boolean stderrIsTerminal) {
        CommandLine root = new CommandLine(new Riptide());
        root.addSubcommand("simulate", SimulateCommand.commandLine(scenarios, stderrIsTerminal));
        root.addSubcommand("keygen", new KeygenCommand());
        root.addSubcommand("node", new NodeCommand());
        root.addSubcommand("demo", new DemoCommand());
        root.addSubcommand("gateway", new GatewayCommand());
        root.addSubcommand("cache-manager", new CacheManagerCommand());
        root.addSubcommand("inspect", new InspectCommand());
        root.addSubcommand("status", new StatusCommand());
        root.addSubcommand("proxy", new io.riptide.proxy.ProxyMain());
        root.addSubcommand("bench", new CommandLine(new BenchCommand())
                .addSubcommand("insert", new BenchCommand.Insert(stderrIsTerminal))
                .addSubcommand("proxy-overhead", new BenchCommand.ProxyOverhead(stderrIsTerminal, ProxyFactory::passThrough,
                        SquidProxy::installed))
                .addSubcommand("hit-throughput", new BenchCommand.HitThroughput(stderrIsTerminal, ProxyFactory::overlayHits)));
        root.addSubcommand("help", new CommandLine.HelpCommand());
        return root;
    }

    /** Runs the command and exits with its code. */
    public static void main(String[] args) {
        System.exit(commandLine(Scenarios.builtIn(), stderrIsTerminal()).execute(args));
    }

    /** The launcher script knows (bash {@code -t 2}); without it, Java's console check is the best guess. */
    private static boolean stderrIsTerminal() {
        String fromLauncher = System.getenv("RIPTIDE_STDERR_TTY");
        return fromLauncher != null ? fromLauncher.equals("1") : System.console() != null;
    }
}
