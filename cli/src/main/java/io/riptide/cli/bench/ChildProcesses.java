package io.riptide.cli.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** What the benchmarks' child processes (servers, proxies, load generators) have in common. */
final class ChildProcesses {
    /** The children running now: stopped by a shutdown hook if this JVM ends first (Ctrl-C), so none is left behind. */
    private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            for (Process p : RUNNING) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
        }, "bench-children-shutdown"));
    }

    private ChildProcesses() {
    }

    /** Starts {@code builder}'s process and tracks it until {@link #stopTree}, so that it goes when this JVM goes. */
    static Process start(ProcessBuilder builder) throws IOException {
        Process p = builder.start();
        RUNNING.add(p);
        return p;
    }

    /** Stops {@code process} and everything it started: SIGTERM to all, then SIGKILL to whatever is left after 5 s. */
    static void stopTree(Process process) {
        if (process == null) {
            return;
        }
        RUNNING.remove(process);
        List<ProcessHandle> children = process.descendants().toList();
        process.destroy();
        children.forEach(ProcessHandle::destroy);
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        for (ProcessHandle child : children) {
            if (child.isAlive()) {
                child.destroyForcibly();
            }
        }
    }

    /** Waits until something accepts connections at {@code address}, failing if {@code process} exits or time runs out. */
    static void awaitListening(Process process, InetSocketAddress address, Duration timeout, String name, Path log)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!accepts(address)) {
            if (!process.isAlive()) {
                throw new IOException(name + " exited with " + process.exitValue() + " on start: " + tail(log));
            }
            if (System.nanoTime() > deadline) {
                throw new IOException(name + " did not listen on " + address + " within " + timeout.toSeconds() + " s: " + tail(log));
            }
            Thread.sleep(50);
        }
    }

    static boolean accepts(InetSocketAddress address) {
        try (Socket s = new Socket()) {
            s.connect(address, 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** A port free on loopback just now (another process may take it before it is used, which then fails loudly). */
    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** The last 2,000 characters of a log file, or a note that there is none. */
    static String tail(Path log) {
        if (log == null || !Files.exists(log)) {
            return "(no log)";
        }
        try {
            String s = Files.readString(log, StandardCharsets.ISO_8859_1);
            return s.substring(Math.max(0, s.length() - 2000));
        } catch (IOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
    }

    /** The first line a short command prints (stdout and stderr), such as a version; "unknown" if it cannot run. */
    static String firstLine(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String text = new String(p.getInputStream().readNBytes(4096), StandardCharsets.UTF_8);
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
            String first = text.lines().map(String::strip).filter(l -> !l.isEmpty()).findFirst().orElse("");
            return first.isEmpty() ? "unknown" : first;
        } catch (IOException e) {
            return "unknown";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    /** Deletes a directory tree; a leftover temp directory is harmless, so failures are ignored. */
    static void deleteTree(Path root) {
        if (root == null) {
            return;
        }
        try (Stream<Path> files = Files.walk(root)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // nothing to do
        }
    }
}
