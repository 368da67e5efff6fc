package io.riptide.cli;

import io.riptide.cli.errors.CommandFailure;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.dolr.server.OverlayServer;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Runs a started node in the foreground, as {@code riptide node} and {@code riptide gateway} do:
 * says where it listens and when it has joined, prints a status line now and then, and stops
 * cleanly on Ctrl-C or SIGTERM.
 */
final class RunningNode {
    /** How long one status query may take before the line is skipped. */
    private static final long STATUS_WAIT_SECONDS = 5;

    private RunningNode() {
    }

    /**
     * Blocks until the process is asked to stop. {@code what} names the node in its lines ("node",
     * "gateway"); {@code extra} adds agent figures to each status line (may return "").
     */
    static void run(String what, OverlayServer server, NodeAddress bootstrap, OverlayOptions overlay, PrintWriter out,
                    Supplier<String> extra) throws Exception {
        run(what, server, bootstrap, overlay, out, extra, () -> { });
    }

    /**
     * As above; {@code alsoClose} is closed after the node when the process stops. A node that has not
     * joined through {@code bootstrap} within the overlay's join timeout is closed and the command fails.
     */
    static void run(String what, OverlayServer server, NodeAddress bootstrap, OverlayOptions overlay, PrintWriter out,
                    Supplier<String> extra, AutoCloseable alsoClose) throws Exception {
        Duration statusEvery = overlay.statusEvery();
        Duration joinTimeout = overlay.joinTimeout();
        say(out, what + " " + server.self().id() + " listening on " + server.address());
        if (bootstrap == null) {
            server.joined().thenRun(() -> say(out, "started a new overlay"));
        } else if (server.awaitJoined(joinTimeout)) {
            say(out, "joined the overlay through " + bootstrap);
        } else {
            server.close();
            alsoClose.close();
            throw new CommandFailure("could not join the overlay through " + bootstrap + " within "
                    + DurationConverter.format(joinTimeout) + ": check that a node runs there and that this machine can reach it"
                    + " (address, firewall), or allow longer with --join-timeout");
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
            try {
                alsoClose.close();
            } catch (Exception e) {
                say(out, "while stopping: " + e);
            }
            say(out, what + " stopped");
            stopped.countDown();
        }, "riptide-" + what + "-shutdown"));

        statusTimer.scheduleAtFixedRate(() -> printStatus(server, out, extra), statusEvery.toMillis(), statusEvery.toMillis(),
                TimeUnit.MILLISECONDS);
        // Runs until the shutdown hook closes the node; System.exit then completes after the hook.
        stopped.await();
    }

    private static void printStatus(OverlayServer server, PrintWriter out, Supplier<String> extra) {
        try {
            String more = extra.get();
            say(out, StatusLine.of(server.status().get(STATUS_WAIT_SECONDS, TimeUnit.SECONDS)) + (more.isEmpty() ? "" : ", " + more));
        } catch (Exception e) {
            // A node busy or closing misses one line; the next period tries again.
            say(out, "status unavailable: " + e);
        }
    }

    /** Prints one line, flushed: the output is often a pipe read by scripts and tests. */
    static void say(PrintWriter out, String line) {
        out.println(line);
        out.flush();
    }
}
