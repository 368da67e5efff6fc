package io.riptide.cli;

import io.riptide.cli.bench.HitProxyUnderTest;
import io.riptide.cli.bench.HitThroughputBench;
import io.riptide.cli.bench.InsertLatencyBench;
import io.riptide.cli.bench.ProxyOverheadBench;
import io.riptide.cli.bench.ProxyUnderTest;
import io.riptide.cli.bench.StoreBench;
import io.riptide.core.store.disk.DiskPolicy;
import io.riptide.simulator.report.Progress;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code riptide bench ...}: measurements of the real system on loopback, written as result.json and charts. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Measures the real system on loopback and writes DIR/result.json, CSV and charts.",
        footerHeading = "%nExample:%n", footer = "  riptide bench insert --out results/insert")
final class BenchCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        return Riptide.missingCommand(spec);
    }

    /** {@code riptide bench insert}: end-to-end insert latency through a gateway, origin fetch excluded. */
    @Command(name = "insert", mixinStandardHelpOptions = true,
            description = {"Measures insert latency through a gateway on a small loopback overlay.",
                "The latency the requester sees, with the origin fetch timed separately and subtracted."},
            footerHeading = "%nExample:%n", footer = "  riptide bench insert --out results/insert --objects 300 --size-kb 10")
    static final class Insert implements Callable<Integer> {
        private final boolean stderrIsTerminal;

        Insert(boolean stderrIsTerminal) {
            this.stderrIsTerminal = stderrIsTerminal;
        }

        @Spec
        private CommandSpec spec;

        @Option(names = "--out", paramLabel = "DIR", required = true, description = "Where to write result.json, CSV and the chart (required).")
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

    /** {@code riptide bench proxy-overhead}: the paper's Table 1, direct vs the pass-through proxy vs Squid. */
    @Command(name = "proxy-overhead", mixinStandardHelpOptions = true,
            description = {"Measures the browser proxy's overhead against a direct fetch and Squid (the paper's Table 1).",
            "Fetches 1 to 400 KB objects from a loopback origin directly, through the browser proxy in "
            + "pass-through mode and through Squid with its cache off (when installed), and compares the latencies."},
            footerHeading = "%nExample:%n", footer = "  riptide bench proxy-overhead --out results/proxy-overhead --requests 500")
    static final class ProxyOverhead implements Callable<Integer> {
        private final boolean stderrIsTerminal;
        private final Supplier<? extends ProxyUnderTest> proxy;
        private final Supplier<? extends ProxyUnderTest> squid;

        ProxyOverhead(boolean stderrIsTerminal, Supplier<? extends ProxyUnderTest> proxy, Supplier<? extends ProxyUnderTest> squid) {
            this.stderrIsTerminal = stderrIsTerminal;
            this.proxy = proxy;
            this.squid = squid;
        }

        @Spec
        private CommandSpec spec;

        @Option(names = "--out", paramLabel = "DIR", required = true, description = "Where to write result.json, CSV and the chart (required).")
        private Path out;

        @Option(names = "--requests", paramLabel = "N", defaultValue = "500",
                description = "Measured requests per size and route, after a warm-up (default: ${DEFAULT-VALUE}).")
        private int requests;

        @Override
        public Integer call() throws Exception {
            if (requests < 1 || requests > 1_000_000) {
                throw new ParameterException(spec.commandLine(), "--requests must be between 1 and 1000000, got " + requests);
            }
            PrintWriter stdout = spec.commandLine().getOut();
            Progress progress = new Progress(new PrintWriter(System.err, true), stderrIsTerminal);
            PrintWriter messages = spec.commandLine().getErr();
            String summary = new ProxyOverheadBench(requests, out, progress, messages, proxy, squid).run();
            stdout.println(summary);
            stdout.println("results in " + out.toAbsolutePath().normalize());
            stdout.flush();
            return 0;
        }
    }

    /** {@code riptide bench hit-throughput}: requests per second of overlay hits through the proxy. */
    @Command(name = "hit-throughput", mixinStandardHelpOptions = true,
            description = {"Measures overlay hits per second through the browser proxy.",
            "Inserts 1 KB and 10 KB objects into a loopback overlay, then requests them through the browser proxy "
            + "from many keep-alive connections in a closed loop and reports requests per second and latency."},
            footerHeading = "%nExample:%n", footer = "  riptide bench hit-throughput --out results/hit-throughput --seconds 10")
    static final class HitThroughput implements Callable<Integer> {
        private final boolean stderrIsTerminal;
        private final Supplier<? extends HitProxyUnderTest> proxy;

        HitThroughput(boolean stderrIsTerminal, Supplier<? extends HitProxyUnderTest> proxy) {
            this.stderrIsTerminal = stderrIsTerminal;
            this.proxy = proxy;
        }

        @Spec
        private CommandSpec spec;

        @Option(names = "--out", paramLabel = "DIR", required = true, description = "Where to write result.json, CSV and the chart (required).")
        private Path out;

        @Option(names = "--seconds", paramLabel = "S", defaultValue = "10", description = "Load time per object size (default: ${DEFAULT-VALUE}).")
        private int seconds;

        @Option(names = "--connections", paramLabel = "N", defaultValue = "64", description = "Keep-alive connections (default: ${DEFAULT-VALUE}).")
        private int connections;

        @Override
        public Integer call() throws Exception {
            if (seconds < 1 || seconds > 3600) {
                throw new ParameterException(spec.commandLine(), "--seconds must be between 1 and 3600, got " + seconds);
            }
            if (connections < 1 || connections > 1024) {
                throw new ParameterException(spec.commandLine(), "--connections must be between 1 and 1024, got " + connections);
            }
            PrintWriter stdout = spec.commandLine().getOut();
            Progress progress = new Progress(new PrintWriter(System.err, true), stderrIsTerminal);
            String summary = new HitThroughputBench(connections, Duration.ofSeconds(seconds), out, progress, proxy).run();
            stdout.println(summary);
            stdout.println("results in " + out.toAbsolutePath().normalize());
            stdout.flush();
            return 0;
        }
    }

    /** {@code riptide bench store}: the HashCache-style disk tier on its own, per policy. */
    @Command(name = "store", mixinStandardHelpOptions = true,
            description = {"Measures the disk tier (HashCache-Log and -SetMem) on its own.",
            "Inserts N objects into a tier sized for N in a temporary directory, then looks up inserted and "
            + "never-inserted objects and restarts it, and reports index bytes per object, disk reads per hit and "
            + "per miss, random writes per insert, rates and restart time (the paper's Table 3)."},
            footerHeading = "%nExample:%n", footer = "  riptide bench store --objects 10000000 --out results/store")
    static final class Store implements Callable<Integer> {
        private final boolean stderrIsTerminal;

        Store(boolean stderrIsTerminal) {
            this.stderrIsTerminal = stderrIsTerminal;
        }

        @Spec
        private CommandSpec spec;

        @Option(names = "--out", paramLabel = "DIR", required = true, description = "Where to write result.json, CSV and the chart (required).")
        private Path out;

        @Option(names = "--objects", paramLabel = "N", defaultValue = "1000000", description = "Objects inserted (default: ${DEFAULT-VALUE}).")
        private long objects;

        @Option(names = "--policy", paramLabel = "P", defaultValue = "both", description = "log, setmem or both (default: ${DEFAULT-VALUE}).")
        private String policy;

        @Option(names = "--object-bytes", paramLabel = "B", defaultValue = "256",
                description = "Largest object body; bodies are 64 to B bytes (default: ${DEFAULT-VALUE}).")
        private int objectBytes;

        @Option(names = "--lookups", paramLabel = "N", defaultValue = "1000000",
                description = "Lookups of inserted objects, and as many of never-inserted ones (default: ${DEFAULT-VALUE}).")
        private long lookups;

        @Override
        public Integer call() throws Exception {
            if (objects < 1000 || objects > 1_000_000_000L) {
                throw new ParameterException(spec.commandLine(), "--objects must be between 1000 and 1000000000, got " + objects);
            }
            if (objectBytes < 64 || objectBytes > 65536) {
                throw new ParameterException(spec.commandLine(), "--object-bytes must be between 64 and 65536, got " + objectBytes);
            }
            if (lookups < 1 || lookups > 100_000_000L) {
                throw new ParameterException(spec.commandLine(), "--lookups must be between 1 and 100000000, got " + lookups);
            }
            List<DiskPolicy> policies = switch (policy) {
                case "log" -> List.of(DiskPolicy.LOG);
                case "setmem" -> List.of(DiskPolicy.SETMEM);
                case "both" -> List.of(DiskPolicy.LOG, DiskPolicy.SETMEM);
                default -> throw new ParameterException(spec.commandLine(), "--policy must be log, setmem or both, got " + policy);
            };
            PrintWriter stdout = spec.commandLine().getOut();
            Progress progress = new Progress(new PrintWriter(System.err, true), stderrIsTerminal);
            String summary = new StoreBench(objects, policies, objectBytes, lookups, out, progress).run();
            stdout.println(summary);
            stdout.println("results in " + out.toAbsolutePath().normalize());
            stdout.flush();
            return 0;
        }
    }
}
