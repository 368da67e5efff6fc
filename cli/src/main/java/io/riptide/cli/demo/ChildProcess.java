package io.riptide.cli.demo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Java main of this jar run as a process of its own, through a wrapper (such as entering a network
 * namespace), its output going to files rather than pipes so nothing it prints on the way out is lost.
 */
final class ChildProcess implements AutoCloseable {
    private static final Duration STOP_WAIT = Duration.ofSeconds(10);

    private final String name;
    private final Process process;
    private final Path stdout;

    private ChildProcess(String name, Process process, Path stdout) {
        this.name = name;
        this.process = process;
        this.stdout = stdout;
    }

    /** Starts {@code WRAPPER... java -cp THIS-CLASS-PATH MAINCLASS ARGS}, its output in {@code dir/NAME.stdout} and {@code .stderr}. */
    static ChildProcess start(String name, Path dir, List<String> wrapper, String mainClass, List<String> args) throws IOException {
        List<String> command = new ArrayList<>(wrapper);
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-cp",
                System.getProperty("java.class.path"), mainClass));
        command.addAll(args);
        Path out = dir.resolve(name + ".stdout");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(dir.resolve(name + ".stderr").toFile())
                .start();
        return new ChildProcess(name, p, out);
    }

    String name() {
        return name;
    }

    /** The first line printed that matches {@code pattern}, matched, waiting up to {@code timeout}; an IOException naming what was missing otherwise. */
    Matcher await(Pattern pattern, String what, Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            boolean exited = !process.isAlive();
            for (String line : lines()) {
                Matcher m = pattern.matcher(line);
                if (m.matches()) {
                    return m;
                }
            }
            if (exited || System.nanoTime() - deadline > 0) {
                throw new IOException(name + " did not print " + what + " within " + timeout.toSeconds() + " s"
                        + (exited ? " (it exited)" : "") + "; see " + stdout + " and its .stderr");
            }
            // Polling interval only; the deadline above is the bound.
            LockSupport.parkNanos(50_000_000);
        }
    }

    /** Every complete line printed so far. */
    List<String> lines() throws IOException {
        String text = Files.readString(stdout, StandardCharsets.UTF_8);
        List<String> all = List.of(text.split("\n", -1));
        return all.subList(0, all.size() - 1);
    }

    /** The process's exit code, waiting up to {@code timeout}, or -1 if it is still running then (it is killed). */
    int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            close();
            return -1;
        }
        return process.exitValue();
    }

    /** Asks the process to stop as Ctrl-C would, then kills it if it has not within a bound. */
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
