package io.riptide.cli;

import io.riptide.dolr.admin.AdminServer;
import io.riptide.dolr.admin.CounterLog;
import io.riptide.dolr.admin.StatusReports;
import io.riptide.dolr.admin.StatusSource;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The admin server's options, shared by every command that runs a node or agent, and its lifecycle:
 * {@link #start} serves the status page, {@code /status.json} and {@code /metrics} when asked, and
 * logs counters that moved (refusals, replicas placed) whether or not the server runs.
 */
final class AdminOptions {
    /** The admin port used when {@code --admin-port} is given without a value, and that {@code riptide status} asks. */
    static final int DEFAULT_PORT = 8711;
    /** How often moved counters are logged. */
    private static final Duration LOG_EVERY = Duration.ofSeconds(10);
    /** How long a status report may take before the page answers 503. */
    private static final Duration REPORT_DEADLINE = Duration.ofSeconds(5);

    @Spec(Spec.Target.MIXEE)
    private CommandSpec spec;

    @Option(names = "--admin-port", paramLabel = "P", arity = "0..1", fallbackValue = "" + DEFAULT_PORT,
            description = "Serve the status page (/), /status.json and Prometheus /metrics on port P; --admin-port alone"
                    + " means " + DEFAULT_PORT + " (what riptide status asks), 0 picks a free port (default: off).")
    private Integer port;

    @Option(names = "--admin-host", paramLabel = "H", defaultValue = "127.0.0.1",
            description = "Address the admin server listens on; off loopback anyone on the network can read the node's"
                    + " state, so only on a trusted network (default: ${DEFAULT-VALUE}).")
    private String host;

    private AdminServer server;
    private ScheduledExecutorService logTimer;

    /**
     * Starts the admin server (if {@code --admin-port} was given) and the counter log; prints the
     * status page's URL. False, with the reason printed to stderr, if the port cannot be bound.
     */
    boolean start(String title, List<StatusSource> sources, List<CounterLog.Watch> watches, PrintWriter out) {
        return start(title, sources, watches, java.util.Map.of(), out);
    }

    /** As above, the admin server also taking {@code actions} (POST, from this host only). */
    boolean start(String title, List<StatusSource> sources, List<CounterLog.Watch> watches,
                  java.util.Map<String, io.riptide.dolr.admin.AdminAction> actions, PrintWriter out) {
        if (port != null && (port < 0 || port > 0xffff)) {
            throw new ParameterException(spec.commandLine(), "--admin-port must be between 0 and 65535, got " + port);
        }
        try {
            InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new ParameterException(spec.commandLine(), "--admin-host: unknown host '" + host + "'");
        }
        StatusReports reports = new StatusReports(title, sources, REPORT_DEADLINE);
        if (port != null) {
            try {
                server = AdminServer.start(host, port, reports, actions);
            } catch (UncheckedIOException e) {
                spec.commandLine().getErr().println("riptide " + spec.name() + ": " + e.getCause().getMessage()
                        + "; choose another --admin-port, or 0 for any free one");
                return false;
            }
            RunningNode.say(out, "status page http://" + server.hostPort() + "/ (also /status.json and /metrics)");
        }
        CounterLog counters = new CounterLog(watches, LOG_EVERY);
        logTimer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "riptide-counter-log");
            t.setDaemon(true);
            return t;
        });
        logTimer.scheduleAtFixedRate(() -> reports.collect().thenAccept(counters::check), 0, LOG_EVERY.toMillis(),
                TimeUnit.MILLISECONDS);
        return true;
    }

    /** Stops the admin server and the counter log. Idempotent. */
    void stop() {
        if (logTimer != null) {
            logTimer.shutdownNow();
        }
        if (server != null) {
            server.close();
        }
    }
}
