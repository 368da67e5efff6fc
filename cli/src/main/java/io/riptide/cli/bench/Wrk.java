package io.riptide.cli.bench;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * wrk, the external closed-loop HTTP load generator every system of the hit-throughput benchmark is loaded with:
 * run as a child process with a small Lua script that sets the request target (the absolute URI a forward proxy
 * receives, or the origin-form path for a server) and prints its results in {@code done()} as one machine-readable
 * line, which is parsed instead of wrk's human text.
 */
public final class Wrk {
    private static final List<String> KNOWN_PLACES = List.of("/usr/bin/wrk", "/usr/local/bin/wrk");
    /** The start of the line the script's {@code done()} prints. */
    static final String RESULT_PREFIX = "riptide-wrk";
    private final Path binary;
    private final int threads;
    private final int connections;

    /** wrk at {@code binary} with {@code threads} threads sharing {@code connections} keep-alive connections. */
    public Wrk(Path binary, int threads, int connections) {
        if (threads < 1 || connections < threads) {
            throw new IllegalArgumentException("wrk needs 1 <= threads <= connections, got " + threads + " and " + connections);
        }
        this.binary = binary;
        this.threads = threads;
        this.connections = connections;
    }

    /** The wrk binary: at its Debian place or anywhere on the PATH; empty when not installed. */
    public static Optional<Path> binary() {
        Stream<String> path = Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .filter(d -> !d.isEmpty()).map(d -> d + "/wrk");
        return Stream.concat(KNOWN_PLACES.stream(), path).map(Path::of).filter(Files::isExecutable).findFirst();
    }

    /** The first line {@code wrk -v} prints, such as {@code wrk debian/4.1.0-3+b2 [epoll] ...}, or "unknown". */
    public String version() {
        return ChildProcesses.firstLine(List.of(binary.toString(), "-v"));
    }

    /**
     * Loads {@code server} for {@code duration} (whole seconds) with {@code GET target} and {@code Host: host}, and
     * returns what wrk measured. {@code target} is an absolute URI for a proxy, a path for a server.
     */
    public Result run(InetSocketAddress server, String target, String host, Duration duration, Path workDir)
            throws IOException, InterruptedException {
        long seconds = duration.toSeconds();
        if (seconds < 1 || duration.toMillis() % 1000 != 0) {
            throw new IllegalArgumentException("wrk runs for whole seconds, not " + duration);
        }
        Path script = Files.createTempFile(workDir, "wrk-", ".lua");
        Path output = Files.createTempFile(workDir, "wrk-", ".out");
        try {
            Files.writeString(script, script(target, host), StandardCharsets.UTF_8);
            String url = "http://" + server.getHostString() + ":" + server.getPort() + "/";
            Process p = ChildProcesses.start(new ProcessBuilder(binary.toString(), "-t" + threads, "-c" + connections,
                    "-d" + seconds + "s", "--timeout", "10s", "-s", script.toString(), url)
                    .redirectErrorStream(true).redirectOutput(output.toFile()));
            try {
                if (!p.waitFor(seconds + 60, TimeUnit.SECONDS)) {
                    throw new IOException("wrk did not finish within " + (seconds + 60) + " s");
                }
            } finally {
                ChildProcesses.stopTree(p);
            }
            String text = Files.readString(output, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new IOException("wrk exited with " + p.exitValue() + ": " + tail(text));
            }
            return parse(text);
        } finally {
            Files.deleteIfExists(script);
            Files.deleteIfExists(output);
        }
    }

    /**
     * The Lua script: every request {@code GET target} with {@code Host: host}, and at the end one line of
     * {@code key=value} pairs: requests, duration and latencies in microseconds, bytes and each kind of error
     * (status errors are the non-2xx/3xx responses).
     */
    static String script(String target, String host) {
        return String.join("\n",
                "-- written by riptide bench hit-throughput",
                "wrk.method = \"GET\"",
                "wrk.path = " + luaString(target),
                "wrk.headers[\"Host\"] = " + luaString(host),
                "wrk.headers[\"Accept\"] = \"*/*\"",
                "done = function(summary, latency, requests)",
                "  local e = summary.errors",
                "  io.write(string.format(\"" + RESULT_PREFIX + " requests=%d duration_us=%d bytes=%d errors_connect=%d "
                        + "errors_read=%d errors_write=%d errors_status=%d errors_timeout=%d p50_us=%d p99_us=%d "
                        + "p999_us=%d mean_us=%.1f max_us=%d\\n\",",
                "    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,",
                "    latency:percentile(50), latency:percentile(99), latency:percentile(99.9), latency.mean, latency.max))",
                "end",
                "");
    }

    private static String luaString(String s) {
        if (!s.chars().allMatch(c -> c >= 0x21 && c < 0x7f && c != '"' && c != '\\')) {
            throw new IllegalArgumentException("not a plain request target or host: " + s);
        }
        return "\"" + s + "\"";
    }

    /** Reads the result line the script printed from wrk's whole output. */
    static Result parse(String output) {
        for (String line : output.split("\n")) {
            String l = line.strip();
            if (!l.startsWith(RESULT_PREFIX + " ")) {
                continue;
            }
            Map<String, String> fields = new HashMap<>();
            for (String pair : l.substring(RESULT_PREFIX.length()).strip().split("\\s+")) {
                int eq = pair.indexOf('=');
                if (eq > 0) {
                    fields.put(pair.substring(0, eq), pair.substring(eq + 1));
                }
            }
            try {
                return new Result(whole(fields, "requests"), whole(fields, "duration_us"), whole(fields, "bytes"),
                        whole(fields, "errors_connect"), whole(fields, "errors_read"), whole(fields, "errors_write"),
                        whole(fields, "errors_status"), whole(fields, "errors_timeout"), whole(fields, "p50_us"),
                        whole(fields, "p99_us"), whole(fields, "p999_us"), Double.parseDouble(field(fields, "mean_us")),
                        whole(fields, "max_us"));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("wrk's result line has a field that is not a number: " + l, e);
            }
        }
        throw new IllegalArgumentException("wrk printed no '" + RESULT_PREFIX + "' line (did the script run?): " + tail(output));
    }

    private static long whole(Map<String, String> fields, String key) {
        // LuaJIT may print large counts in exponent form; they are whole numbers all the same.
        return (long) Double.parseDouble(field(fields, key));
    }

    private static String field(Map<String, String> fields, String key) {
        String v = fields.get(key);
        if (v == null) {
            throw new IllegalArgumentException("wrk's result line has no " + key + ": " + fields);
        }
        return v;
    }

    private static String tail(String text) {
        return text.length() <= 2000 ? text : text.substring(text.length() - 2000);
    }

    /** What one wrk run measured; latencies in microseconds as wrk records them. */
    public record Result(long requests, long durationMicros, long bytes, long connectErrors, long readErrors,
            long writeErrors, long statusErrors, long timeouts, long p50Micros, long p99Micros, long p999Micros,
            double meanMicros, long maxMicros) {
        /** Requests per second over the run. */
        public double rps() {
            return durationMicros == 0 ? Double.NaN : requests * 1e6 / durationMicros;
        }

        /** Every failed request: connect, read, write, non-2xx/3xx and timeout errors. */
        public long errors() {
            return connectErrors + readErrors + writeErrors + statusErrors + timeouts;
        }

        /** Seconds the run took. */
        public double seconds() {
            return durationMicros / 1e6;
        }

        public double p50Ms() {
            return p50Micros / 1e3;
        }

        public double p99Ms() {
            return p99Micros / 1e3;
        }

        public double p999Ms() {
            return p999Micros / 1e3;
        }

        public double meanMs() {
            return meanMicros / 1e3;
        }

        /** Bytes received per request, head included; at least the object's size when every answer carried it. */
        public double bytesPerRequest() {
            return requests == 0 ? 0 : (double) bytes / requests;
        }
    }
}
