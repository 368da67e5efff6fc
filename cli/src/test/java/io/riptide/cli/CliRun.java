package io.riptide.cli;

import io.riptide.simulator.scenario.Scenarios;
import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** Runs the {@code riptide} command in-process and keeps what it printed, for the CLI tests. */
final class CliRun {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    /** Runs {@code riptide args...} and returns its exit code. */
    int run(String... args) {
        return run(Riptide.commandLine(Scenarios.builtIn(), false), args);
    }

    /** Runs {@code cl} with {@code args}, printing here, and returns its exit code. */
    int run(CommandLine cl, String... args) {
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    /**
     * {@code riptide inspect URL --join JOIN --provider KEY --insert}. A gateway announces its service a
     * moment after it joins, later on a busy machine; an inspect that finds no gateway yet is tried
     * again, a few times.
     */
    static CliRun inspectInserting(String url, String join, String key) throws InterruptedException {
        CliRun run = new CliRun();
        for (int attempt = 1; run.run("inspect", url, "--join", join, "--provider", key, "--insert") == 3
                && run.out().contains("no gateway reachable") && attempt < 10; attempt++) {
            Thread.sleep(1000);
            run = new CliRun();
        }
        return run;
    }

    /** Everything printed to standard output so far. */
    String out() {
        return out.toString();
    }

    /** Everything printed to standard error so far. */
    String err() {
        return err.toString();
    }
}
