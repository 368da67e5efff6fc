package io.riptide.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

/**
 * A {@code riptide node} (or another long-running command, such as {@code proxy}) in a JVM of its own, on the test class path. Its output goes to files, not
 * pipes, because {@link Process#destroy} closes the pipes and would lose what it prints on the way out.
 */
final class NodeProcess implements AutoCloseable {
    private static final Duration STOP_WAIT = Duration.ofSeconds(10);

    private final String name;
    private final Process process;
    private final Path stdout;
    private final Path stderr;

    private NodeProcess(String name, Process process, Path stdout, Path stderr) {
        this.name = name;
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    /** Starts {@code java ... io.riptide.cli.Riptide node ARGS}; its output goes to files in {@code dir}. */
    static NodeProcess start(String name, Path dir, String... nodeArgs) throws IOException {
        return command(name, dir, "node", nodeArgs);
    }

    /** Starts {@code java ... io.riptide.cli.Riptide COMMAND ARGS}; its output goes to files in {@code dir}. */
    static NodeProcess command(String name, Path dir, String riptideCommand, String... args) throws IOException {
        List<String> all = new ArrayList<>(List.of(riptideCommand));
        all.addAll(List.of(args));
        return start(name, dir, List.of(), Riptide.class.getName(), all);
    }

    /**
     * Starts {@code WRAPPER... java ... MAINCLASS ARGS} on the test class path: any {@code riptide}
     * command, or a test's own main, run through {@code wrapper} (such as entering a network namespace).
     */
    static NodeProcess start(String name, Path dir, List<String> wrapper, String mainClass, List<String> args) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // Surefire runs tests from a manifest-only jar; this property holds the real class path.
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(wrapper);
        command.addAll(List.of(java, "-Xmx256m", "-Dio.netty.leakDetection.level=paranoid", "-cp", classPath, mainClass));
        command.addAll(args);
        Path stdout = dir.resolve(name + ".stdout");
        Path stderr = dir.resolve(name + ".stderr");
        Process p = new ProcessBuilder(command).redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        return new NodeProcess(name, p, stdout, stderr);
    }

    String name() {
        return name;
    }

    @Override
    public String toString() {
        return name;
    }

    /** The first line printed that matches {@code wanted}, waiting up to {@code timeout} for it. */
    String await(Predicate<String> wanted, String what, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            boolean exited = !process.isAlive();
            Optional<String> hit = lines().stream().filter(wanted).findFirst();
            if (hit.isPresent()) {
                return hit.get();
            }
            // Read after the exit check, so a process that exited has nothing more to print.
            if (exited || System.nanoTime() - deadline > 0) {
                throw new AssertionError(name + " did not print " + what + " within " + timeout + "; exited=" + exited
                        + "\nstdout:\n" + String.join("\n", lines()) + "\nstderr:\n" + stderr());
            }
            // Polling interval only; the deadline above is the bound.
            LockSupport.parkNanos(20_000_000);
        }
    }

    /** Every complete line printed so far. */
    List<String> lines() {
        try {
            String text = Files.readString(stdout, StandardCharsets.UTF_8);
            List<String> all = List.of(text.split("\n", -1));
            // The last element is an unfinished line, or empty after a final newline.
            return all.subList(0, all.size() - 1);
        } catch (IOException e) {
            return List.of("(stdout unreadable: " + e + ")");
        }
    }

    String stderr() {
        try {
            return Files.readString(stderr, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    /** The process's exit code once it has exited by itself, or an AssertionError after {@code timeout}. */
    int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError(name + " still running after " + timeout + "\nstdout:\n" + String.join("\n", lines())
                    + "\nstderr:\n" + stderr());
        }
        return process.exitValue();
    }

    /** Asks the node to stop as Ctrl-C would (SIGTERM); true if it exited in time. */
    boolean stop() throws InterruptedException {
        process.destroy();
        return process.waitFor(STOP_WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    /** Kills the process at once with SIGKILL, as a crash would (no shutdown hook runs), and waits until it is gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(STOP_WAIT.toSeconds(), TimeUnit.SECONDS)) {
            throw new AssertionError(name + " survived SIGKILL for " + STOP_WAIT);
        }
    }

    /** Kills the process if it is still running. */
    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(STOP_WAIT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(STOP_WAIT.toSeconds(), TimeUnit.SECONDS);
            }
        }
    }
}
