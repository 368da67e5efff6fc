package io.riptide.cli;

import io.riptide.cli.bench.InsertLatencyBench;
import io.riptide.simulator.report.Progress;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code riptide bench ...}: measurements of the real system on loopback, written as result.json and charts. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Measures the real system on loopback and writes DIR/result.json, CSV and charts.")
final class BenchCommand implements Runnable {
    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Missing benchmark: choose one of " + spec.subcommands().keySet());
    }

    /** {@code riptide bench insert}: end-to-end insert latency through a gateway, origin fetch excluded. */
    @Command(name = "insert", mixinStandardHelpOptions = true,
            description = {"Inserts new objects through a gateway on a small loopback overlay and measures the latency",
                "the requester sees, with the origin fetch timed separately and subtracted."})
    static final class Insert implements Callable<Integer> {
        private final boolean stderrIsTerminal;

        Insert(boolean stderrIsTerminal) {
            this.stderrIsTerminal = stderrIsTerminal;
        }

        @Spec
        private CommandSpec spec;

        @Option(names = "--out", paramLabel = "DIR", required = true, description = "Where to write result.json, CSV and the chart.")
        private Path out;

        @Option(names = "--objects", paramLabel = "N", defaultValue = "300", description = "Inserts measured (default: ${DEFAULT-VALUE}).")
        private int objects;

        @Option(names = "--size-kb", paramLabel = "KB", defaultValue = "10", description = "Object size in KiB (default: ${DEFAULT-VALUE}).")
        private int sizeKb;

        @Override
        public Integer call() throws Exception {
            if (objects < 1 || objects > 100_000) {
                throw new ParameterException(spec.commandLine(), "--objects must be between 1 and 100000, got " + objects);
            }
            if (sizeKb < 0 || sizeKb > 8192) {
                throw new ParameterException(spec.commandLine(), "--size-kb must be between 0 and 8192, got " + sizeKb);
            }
            PrintWriter stdout = spec.commandLine().getOut();
            Progress progress = new Progress(new PrintWriter(System.err, true), stderrIsTerminal);
            String summary = new InsertLatencyBench(objects, sizeKb * 1024, out, progress).run();
            stdout.println(summary);
            stdout.println("results in " + out.toAbsolutePath().normalize());
            stdout.flush();
            return 0;
        }
    }
}
