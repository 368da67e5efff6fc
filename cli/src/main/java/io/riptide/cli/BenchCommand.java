package io.riptide.cli;

import io.riptide.cli.bench.FailoverBench;
import io.riptide.cli.bench.HitProxySetup;
import io.riptide.cli.bench.HitProxyUnderTest;
import io.riptide.cli.bench.HitThroughputBench;
import io.riptide.cli.bench.InsertLatencyBench;
import io.riptide.cli.bench.OverloadBench;
import io.riptide.cli.bench.ProxyOverheadBench;
import io.riptide.cli.bench.ProxyProcess;
import io.riptide.cli.bench.ProxyUnderTest;
import io.riptide.cli.bench.StoreBench;
import io.riptide.core.store.disk.DiskPolicy;
import io.riptide.simulator.report.Progress;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Function;
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

    /** {@code riptide bench hit-throughput}: hits per second, Riptide's proxy beside Squid and nginx. */
    @Command(name = "hit-throughput", mixinStandardHelpOptions = true,
            description = {"Measures hits per second: Riptide's proxy beside Squid and nginx, loaded alike by wrk.",
            "Serves 1, 10 and 100 KB objects as hits from the browser proxy's memory tier and (tier off) from the "
            + "overlay, from Squid's memory cache and, as the machine's practical limit, from disk by nginx, each loaded "
            + "by wrk after a warm-up. The proxy runs in a JVM of its own; its GC pauses are then read from its GC log "
            + "while it serves memory hits at half its measured maximum rate under open-loop load. Squid, nginx and wrk "
            + "are started by the benchmark: apt-get install wrk nginx squid (a missing one's figures are null)."},
            footerHeading = "%nExample:%n", footer = "  riptide bench hit-throughput --out results/hit-throughput --duration 10s")
    static final class HitThroughput implements Callable<Integer> {
        private final boolean stderrIsTerminal;
        private final Function<HitProxySetup, ? extends HitProxyUnderTest> proxy;
        private final Supplier<HitThroughputBench.Tools> tools;

        HitThroughput(boolean stderrIsTerminal, Function<HitProxySetup, ? extends HitProxyUnderTest> proxy) {
            this(stderrIsTerminal, proxy, HitThroughputBench.Tools::installed);
        }

        HitThroughput(boolean stderrIsTerminal, Function<HitProxySetup, ? extends HitProxyUnderTest> proxy,
                Supplier<HitThroughputBench.Tools> tools) {
            this.stderrIsTerminal = stderrIsTerminal;
            this.proxy = proxy;
            this.tools = tools;
        }

        @Spec
        private CommandSpec spec;

        @Option(names = "--out", paramLabel = "DIR", required = true, description = "Where to write result.json, CSV and the charts (required).")
        private Path out;

        // Set by either option, whichever comes last; neither has a picocli default, which would overwrite the other.
        private Duration duration = Duration.ofSeconds(10);

        @Option(names = "--duration", paramLabel = "DURATION", converter = DurationConverter.class,
                description = "Measured load per system and object size, in whole seconds: 10s, 1m, ... (default: 10s).")
        void duration(Duration d) {
            duration = d;
        }

        /** The earlier name of {@code --duration}, kept working for scripts that use it. */
        @Option(names = "--seconds", paramLabel = "S", hidden = true, converter = DurationConverter.class,
                description = "The same as --duration, in seconds (default: 10).")
        void seconds(Duration d) {
            duration = d;
        }

        @Option(names = "--warmup", paramLabel = "DURATION", defaultValue = "3s", converter = DurationConverter.class,
                description = "The same load before each measurement, discarded; 0 for none (default: ${DEFAULT-VALUE}).")
        private Duration warmup;

        @Option(names = "--connections", paramLabel = "N", defaultValue = "64", description = "wrk's keep-alive connections (default: ${DEFAULT-VALUE}).")
        private int connections;

        @Option(names = "--wrk-threads", paramLabel = "N", defaultValue = "2", description = "wrk's threads (default: ${DEFAULT-VALUE}).")
        private int wrkThreads;

        @Option(names = "--memory-mb", paramLabel = "MB", defaultValue = "256",
                description = "The proxy's memory tier in the memory-hit row, and Squid's memory cache (default: ${DEFAULT-VALUE}).")
        private int memoryMb;

        @Option(names = "--proxy-gc", paramLabel = "GC", defaultValue = "g1",
                description = "The collector of the proxy's JVM: g1, zgc, parallel, serial or shenandoah (default: ${DEFAULT-VALUE}).")
        private String proxyGc;

        @Option(names = "--open-loop", paramLabel = "DURATION", defaultValue = "20s", converter = DurationConverter.class,
                description = "How long the proxy serves open-loop memory hits at half its maximum rate while its GC pauses "
                    + "are read; 0 skips it (default: ${DEFAULT-VALUE}).")
        private Duration openLoop;

        @Override
        public Integer call() throws Exception {
            if (!wholeSeconds(duration) || duration.toSeconds() < 1 || duration.toSeconds() > 3600) {
                throw new ParameterException(spec.commandLine(), "--duration must be whole seconds between 1s and 1h, got "
                        + DurationConverter.format(duration));
            }
            if (!wholeSeconds(warmup) || warmup.toSeconds() > 600) {
                throw new ParameterException(spec.commandLine(), "--warmup must be whole seconds between 0 and 10m, got "
                        + DurationConverter.format(warmup));
            }
            if (!wholeSeconds(openLoop) || openLoop.toSeconds() > 3600) {
                throw new ParameterException(spec.commandLine(), "--open-loop must be whole seconds between 0 and 1h, got "
                        + DurationConverter.format(openLoop));
            }
            if (connections < 1 || connections > 1024) {
                throw new ParameterException(spec.commandLine(), "--connections must be between 1 and 1024, got " + connections);
            }
            if (wrkThreads < 1 || wrkThreads > 64) {
                throw new ParameterException(spec.commandLine(), "--wrk-threads must be between 1 and 64, got " + wrkThreads);
            }
            if (memoryMb < 1 || memoryMb > 65536) {
                throw new ParameterException(spec.commandLine(), "--memory-mb must be between 1 and 65536, got " + memoryMb);
            }
            String gc = proxyGc.toLowerCase(Locale.ROOT);
            if (!ProxyProcess.COLLECTORS.containsKey(gc)) {
                throw new ParameterException(spec.commandLine(), "--proxy-gc must be one of g1, zgc, parallel, serial, shenandoah, got " + proxyGc);
            }
            PrintWriter stdout = spec.commandLine().getOut();
            Progress progress = new Progress(new PrintWriter(System.err, true), stderrIsTerminal);
            PrintWriter messages = spec.commandLine().getErr();
            HitThroughputBench.Settings settings = new HitThroughputBench.Settings(connections, wrkThreads, duration, warmup, memoryMb, gc,
                    openLoop);
            String summary = new HitThroughputBench(settings, out, progress, messages, proxy, tools.get()).run();
            stdout.println(summary);
            stdout.println("results in " + out.toAbsolutePath().normalize());
            stdout.flush();
            return 0;
        }

        private static boolean wholeSeconds(Duration d) {
            return !d.isNegative() && d.toMillis() % 1000 == 0;
        }
    }

    /** {@code riptide bench failover}: overlay hits per second through the proxy while its nearest access node crashes. */
    @Command(name = "failover", mixinStandardHelpOptions = true,
            description = {"Measures overlay hits per second through the proxy while its nearest access node crashes.",
            "A loopback overlay (four storage nodes, a gateway, a cache manager) and the browser proxy with its memory "
            + "tier off, in this JVM; one 1 KB URL made an overlay hit, then closed-loop load on keep-alive connections "
            + "(the first 5 s discarded). "
            + "After --before the proxy's nearest access node crashes (no goodbye, its sockets closed), and the load goes "
            + "on for --after. Writes reads, hits and misses per second, the hedges sent, and whether the dead node is "
            + "still listed as an access node."},
            footerHeading = "%nExample:%n", footer = "  riptide bench failover --out results/failover")
    static final class Failover implements Callable<Integer> {
        private final boolean stderrIsTerminal;

        Failover(boolean stderrIsTerminal) {
            this.stderrIsTerminal = stderrIsTerminal;
        }

        @Spec
        private CommandSpec spec;

        @Option(names = "--out", paramLabel = "DIR", required = true, description = "Where to write result.json and the CSV (required).")
        private Path out;

        @Option(names = "--connections", paramLabel = "N", defaultValue = "50", description = "Keep-alive connections, each one request at a time (default: ${DEFAULT-VALUE}).")
        private int connections;

        @Option(names = "--before", paramLabel = "DURATION", defaultValue = "5s", converter = DurationConverter.class,
                description = "Load before the crash, in whole seconds (default: ${DEFAULT-VALUE}).")
        private Duration before;

        @Option(names = "--after", paramLabel = "DURATION", defaultValue = "12s", converter = DurationConverter.class,
                description = "Load after the crash, in whole seconds (default: ${DEFAULT-VALUE}).")
        private Duration after;

        @Override
        public Integer call() throws Exception {
            if (connections < 1 || connections > 512) {
                throw new ParameterException(spec.commandLine(), "--connections must be between 1 and 512, got " + connections);
            }
            for (Duration d : List.of(before, after)) {
                if (d.toMillis() % 1000 != 0 || d.toSeconds() < 2 || d.toSeconds() > 600) {
                    throw new ParameterException(spec.commandLine(), "--before and --after must be whole seconds between 2s and 10m, got "
                            + DurationConverter.format(d));
                }
            }
            PrintWriter stdout = spec.commandLine().getOut();
            Progress progress = new Progress(new PrintWriter(System.err, true), stderrIsTerminal);
            String summary = new FailoverBench(connections, before, after, out, progress).run();
            stdout.println(summary);
            stdout.println("results in " + out.toAbsolutePath().normalize());
            stdout.flush();
            return 0;
        }
    }

    /** {@code riptide bench overload}: the browser proxy offered several times its capacity, open loop. */
    @Command(name = "overload", mixinStandardHelpOptions = true,
            description = {"Measures the browser proxy offered ten times its capacity, open loop.",
            "The proxy runs in a JVM of its own in front of a loopback origin that answers each request after "
            + "--origin-delay, uncacheable. After a 5 s warm-up, a ramp (the rate doubled every 3 s) finds the highest rate the proxy serves; a "
            + "tenth of it gives the unloaded latency; then --factor times it is offered for --duration. Writes the offered, "
            + "served and shed (503 with Retry-After) rates second by second, the latency of the requests served against the "
            + "unloaded one, the proxy's RSS throughout and its stage figures from /metrics, with charts."},
            footerHeading = "%nExample:%n", footer = "  riptide bench overload --out results/overload")
    static final class Overload implements Callable<Integer> {
        private final boolean stderrIsTerminal;

        Overload(boolean stderrIsTerminal) {
            this.stderrIsTerminal = stderrIsTerminal;
        }

        @Spec
        private CommandSpec spec;

        @Option(names = "--out", paramLabel = "DIR", required = true, description = "Where to write result.json, the CSV and the charts (required).")
        private Path out;

        @Option(names = "--duration", paramLabel = "DURATION", defaultValue = "20s", converter = DurationConverter.class,
                description = "How long the overload is offered, in whole seconds (default: ${DEFAULT-VALUE}).")
        private Duration duration;

        @Option(names = "--factor", paramLabel = "X", defaultValue = "10",
                description = "The overload as a multiple of the capacity the ramp found (default: ${DEFAULT-VALUE}).")
        private double factor;

        @Option(names = "--origin-delay", paramLabel = "DURATION", defaultValue = "20ms", converter = DurationConverter.class,
                description = "How long the origin takes over each answer, as a distant web server does (default: ${DEFAULT-VALUE}).")
        private Duration originDelay;

        @Override
        public Integer call() throws Exception {
            if (duration.toMillis() % 1000 != 0 || duration.toSeconds() < 2 || duration.toSeconds() > 600) {
                throw new ParameterException(spec.commandLine(), "--duration must be whole seconds between 2s and 10m, got "
                        + DurationConverter.format(duration));
            }
            if (!(factor >= 1 && factor <= 100)) {
                throw new ParameterException(spec.commandLine(), "--factor must be between 1 and 100, got " + factor);
            }
            if (originDelay.isNegative() || originDelay.toSeconds() > 10) {
                throw new ParameterException(spec.commandLine(), "--origin-delay must be between 0 and 10s, got "
                        + DurationConverter.format(originDelay));
            }
            PrintWriter stdout = spec.commandLine().getOut();
            Progress progress = new Progress(new PrintWriter(System.err, true), stderrIsTerminal);
            PrintWriter messages = spec.commandLine().getErr();
            String summary = new OverloadBench(new OverloadBench.Settings(duration, factor, originDelay), out, progress, messages).run();
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
