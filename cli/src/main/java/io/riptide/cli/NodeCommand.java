package io.riptide.cli;

import io.riptide.core.crypto.SigningKey;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.dolr.server.OverlayServer;
import io.riptide.dolr.server.ServerSettings;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code riptide node --port P [--join HOST:PORT]}: runs one overlay node until stopped. */
@Command(name = "node", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs one overlay node: a routing and storage member of the Riptide overlay.",
            "Starts a new overlay, or joins one through --join, then prints a status line now and then.",
            "Stop it with Ctrl-C or SIGTERM."})
final class NodeCommand implements Callable<Integer> {
    /** How long one status query may take before the line is skipped. */
    private static final long STATUS_WAIT_SECONDS = 5;

    @Spec
    private CommandSpec spec;

    @Option(names = "--port", paramLabel = "P", required = true,
            description = "TCP port to listen on; 0 picks a free one (the port is printed).")
    private int port;

    @Option(names = "--host", paramLabel = "H", defaultValue = "127.0.0.1",
            description = "Address to listen on, and the address peers are told to use (default: ${DEFAULT-VALUE}).")
    private String host;

    @Option(names = "--join", paramLabel = "HOST:PORT",
            description = "A member of the overlay to join through (default: start a new overlay).")
    private String join;

    @Option(names = "--key", paramLabel = "FILE",
            description = {"The node's key, which fixes its node ID; created if the file is missing.",
                "Without it the node uses a new key for this run only (default)."})
    private Path keyFile;

    @Option(names = "--status-every", paramLabel = "DURATION", defaultValue = "10s", converter = DurationConverter.class,
            description = "How often to print a status line, e.g. 500ms, 10s, 2m (default: ${DEFAULT-VALUE}).")
    private Duration statusEvery;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        NodeAddress listen = listenAddress();
        NodeAddress bootstrap = bootstrapAddress();
        if (statusEvery.isZero()) {
            throw new ParameterException(spec.commandLine(), "--status-every must be longer than zero");
        }
        SigningKey key = key(out);

        OverlayServer server;
        try {
            server = OverlayServer.start(ServerSettings.of(key, listen).joining(bootstrap));
        } catch (UncheckedIOException e) {
            spec.commandLine().getErr().println("riptide node: " + e.getCause().getMessage());
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        ScheduledExecutorService statusTimer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "riptide-status");
            t.setDaemon(true);
            return t;
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            statusTimer.shutdownNow();
            server.close();
            say(out, "node stopped");
            stopped.countDown();
        }, "riptide-node-shutdown"));

        say(out, "node " + server.self().id() + " listening on " + server.address());
        server.joined().thenRun(() -> say(out, bootstrap == null
                ? "started a new overlay"
                : "joined the overlay through " + bootstrap));
        statusTimer.scheduleAtFixedRate(() -> printStatus(server, out), statusEvery.toMillis(), statusEvery.toMillis(),
                TimeUnit.MILLISECONDS);
        // Runs until the shutdown hook closes the node; System.exit then completes after the hook.
        stopped.await();
        return 0;
    }

    private NodeAddress listenAddress() {
        if (port < 0 || port > 0xffff) {
            throw new ParameterException(spec.commandLine(), "--port must be between 0 and 65535, got " + port);
        }
        requireResolvable(host, "--host");
        return new NodeAddress(host, port);
    }

    private NodeAddress bootstrapAddress() {
        if (join == null) {
            return null;
        }
        NodeAddress address;
        try {
            address = NodeAddress.parse(join);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--join: " + e.getMessage());
        }
        if (address.port() == 0) {
            throw new ParameterException(spec.commandLine(), "--join: port 0 is not a node's port, in '" + join + "'");
        }
        requireResolvable(address.host(), "--join");
        return address;
    }

    private void requireResolvable(String name, String option) {
        try {
            InetAddress.getByName(name);
        } catch (UnknownHostException e) {
            throw new ParameterException(spec.commandLine(), option + ": unknown host '" + name + "'");
        }
    }

    private SigningKey key(PrintWriter out) throws IOException {
        if (keyFile == null) {
            say(out, "using a new key for this run only; pass --key FILE to keep the node's ID across restarts");
            return SigningKey.generate(new SecureRandom());
        }
        if (Files.exists(keyFile)) {
            try {
                return SigningKey.load(keyFile);
            } catch (IOException e) {
                throw new ParameterException(spec.commandLine(), "--key: cannot read the key: " + e.getMessage());
            }
        }
        SigningKey key = SigningKey.generate(new SecureRandom());
        key.save(keyFile);
        say(out, "created a new key in " + keyFile.toAbsolutePath().normalize());
        return key;
    }

    private static void printStatus(OverlayServer server, PrintWriter out) {
        try {
            say(out, StatusLine.of(server.status().get(STATUS_WAIT_SECONDS, TimeUnit.SECONDS)));
        } catch (Exception e) {
            // A node busy or closing misses one line; the next period tries again.
            say(out, "status unavailable: " + e);
        }
    }

    private static void say(PrintWriter out, String line) {
        // Flushed per line: the output is often a pipe read by scripts and tests.
        out.println(line);
        out.flush();
    }
}
