package io.riptide.cli;

import io.riptide.cli.bench.ProxyFactory;
import io.riptide.cli.bench.SquidProxy;
import io.riptide.cli.config.ConfigOption;
import io.riptide.cli.errors.DebugOption;
import io.riptide.cli.errors.FailureHandler;
import io.riptide.cli.errors.UsageErrorHandler;
import io.riptide.simulator.scenario.Scenarios;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The {@code riptide} command. Subcommands are registered in {@link #commandLine}: to add one
 * ({@code node}, {@code proxy}, ...), write a picocli {@code @Command} class in this package and add
 * one {@code addSubcommand} line there. Every command that runs something then gets {@code --config FILE}
 * and {@code --debug}, and every command the exit codes in its help: 0 success, 1 runtime failure,
 * 2 usage or config error.
 */
@Command(name = "riptide", mixinStandardHelpOptions = true, versionProvider = RiptideVersion.class,
        description = "A peer-to-peer cooperative web cache over a decentralised object location and routing overlay.",
        synopsisSubcommandLabel = "COMMAND",
        footerHeading = "%nExample:%n", footer = {"  riptide demo", "  riptide node --help"})
public final class Riptide implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        return missingCommand(spec);
    }

    /** A command that only groups others, run alone: its usage on stderr, and the usage error code. */
    static int missingCommand(CommandSpec group) {
        CommandLine cl = group.commandLine();
        cl.getErr().println(group.qualifiedName() + ": missing command: choose one of " + String.join(", ", group.subcommands().keySet()));
        cl.getErr().println();
        cl.usage(cl.getErr());
        cl.getErr().flush();
        return CommandLine.ExitCode.USAGE;
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
        root.addSubcommand("purge", new PurgeCommand());
        root.addSubcommand("revoke", new RevokeCommand());
        root.addSubcommand("proxy", new io.riptide.proxy.ProxyMain());
        root.addSubcommand("ca", new CommandLine(new CaCommand()).addSubcommand("init", new CaCommand.Init()));
        root.addSubcommand("bench", new CommandLine(new BenchCommand())
                .addSubcommand("insert", new BenchCommand.Insert(stderrIsTerminal))
                .addSubcommand("proxy-overhead", new BenchCommand.ProxyOverhead(stderrIsTerminal, ProxyFactory::passThrough,
                        SquidProxy::installed))
                .addSubcommand("hit-throughput", new BenchCommand.HitThroughput(stderrIsTerminal, ProxyFactory::overlayHits))
                .addSubcommand("failover", new BenchCommand.Failover(stderrIsTerminal))
                .addSubcommand("overload", new BenchCommand.Overload(stderrIsTerminal))
                .addSubcommand("store", new BenchCommand.Store(stderrIsTerminal)));
        root.addSubcommand("help", new CommandLine.HelpCommand());
        // Last, so that it reaches every command added above.
        applyConventions(root, System.getenv());
        return root;
    }

    /**
     * What every command shares, applied to the whole tree: {@code --config} and {@code --debug} on
     * each command that runs something, the exit codes in each help, and the error handlers that
     * make those codes true.
     */
    static void applyConventions(CommandLine root, Map<String, String> env) {
        applyToTree(root);
        root.setParameterExceptionHandler(new UsageErrorHandler());
        root.setExecutionExceptionHandler(new FailureHandler(env));
    }

    private static void applyToTree(CommandLine command) {
        CommandSpec spec = command.getCommandSpec();
        if (spec.versionProvider() == null) {
            // -V is on every command; without a provider a subcommand's would print nothing at all.
            spec.versionProvider(new RiptideVersion());
        }
        if (spec.usageMessage().descriptionHeading().isEmpty()) {
            spec.usageMessage().descriptionHeading("%n");
        }
        if (spec.usageMessage().optionListHeading().isEmpty()) {
            spec.usageMessage().optionListHeading("%nOptions:%n");
        }
        if (!command.getSubcommands().isEmpty()) {
            spec.usageMessage().commandListHeading("%nCommands:%n");
        }
        if (spec.usageMessage().exitCodeList().isEmpty()) {
            Map<String, String> codes = new LinkedHashMap<>();
            codes.put("0", "success");
            codes.put("1", "runtime failure (the message says what went wrong and what to do)");
            codes.put("2", "usage or config error (nothing was started)");
            spec.usageMessage().exitCodeListHeading("%nExit codes:%n").exitCodeList(codes);
        }
        boolean runs = command.getSubcommands().isEmpty() && !(command.getCommand() instanceof CommandLine.HelpCommand);
        if (runs) {
            command.addMixin("config", new ConfigOption());
            command.addMixin("debug", new DebugOption());
        }
        for (CommandLine sub : command.getSubcommands().values()) {
            applyToTree(sub);
        }
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
