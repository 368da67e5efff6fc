package io.riptide.cli.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Riptide's browser proxy ({@code riptide proxy}, {@link io.riptide.proxy.ProxyMain}) in a JVM of its own, so that
 * neither the load generator nor the overlay nodes share its heap or its collector: started from the very jar (or
 * class path) the benchmark runs from, with the chosen collector and a GC log, and ready once it has printed its
 * address and that it reads through the overlay.
 */
public final class ProxyProcess implements AutoCloseable {
    /** The collectors {@code --proxy-gc} offers, by name, with the flag that selects each. */
    public static final Map<String, String> COLLECTORS = Map.of("g1", "-XX:+UseG1GC", "zgc", "-XX:+UseZGC",
            "parallel", "-XX:+UseParallelGC", "serial", "-XX:+UseSerialGC", "shenandoah", "-XX:+UseShenandoahGC");
    private static final Pattern LISTENING = Pattern.compile("riptide browser proxy on http://([^/:]+):(\\d+)/");
    private static final List<String> READY = List.of("reading the cache through the overlay", "no overlay node answered yet",
            "no overlay behind it");
    private static final Duration STARTUP = Duration.ofSeconds(60);
    private final Process process;
    private final InetSocketAddress address;
    private final Path output;

    private ProxyProcess(Process process, InetSocketAddress address, Path output) {
        this.process = process;
        this.address = address;
        this.output = output;
    }

    /**
     * Starts {@code riptide proxy} with {@code proxyArgs} (a port of 0 is best: it prints the one it took) in a new
     * JVM running collector {@code gc} and logging its GC to {@code gcLog}; its output goes to {@code output}.
     * Returns once it listens and has reached the overlay (or said it could not).
     */
    public static ProxyProcess start(String gc, Path gcLog, List<String> proxyArgs, Path output) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(javaBinary());
        command.addAll(jvmOptions(gc, gcLog));
        command.add("-cp");
        command.add(classPath());
        command.add("io.riptide.proxy.ProxyMain");
        command.addAll(proxyArgs);
        Files.createDirectories(output.toAbsolutePath().getParent());
        Process process = ChildProcesses.start(new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()));
        try {
            InetSocketAddress address = awaitReady(process, output);
            return new ProxyProcess(process, address, output);
        } catch (IOException | InterruptedException | RuntimeException e) {
            ChildProcesses.stopTree(process);
            throw e;
        }
    }

    /**
     * The JVM options: the collector and the GC log at {@code gcLog}; the heap is the JVM's default, as
     * {@code riptide proxy} runs it, so the pauses measured are the ones a user gets.
     */
    public static List<String> jvmOptions(String gc, Path gcLog) {
        String flag = COLLECTORS.get(gc.toLowerCase(Locale.ROOT));
        if (flag == null) {
            throw new IllegalArgumentException("unknown collector " + gc + ", expected one of " + COLLECTORS.keySet());
        }
        String file = gcLog.toAbsolutePath().toString();
        // -Xlog's option syntax splits on ':' and ','; a path holding either must be quoted.
        if (file.contains(":") || file.contains(",")) {
            file = "\"" + file + "\"";
        }
        return List.of(flag, "-Xlog:gc*:file=" + file);
    }

    /** This JVM's java binary, so the child runs the same Java as the benchmark. */
    static String javaBinary() {
        return ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    /** The jar the benchmark runs from (riptide.jar), or this JVM's class path when it runs from classes (tests). */
    static String classPath() {
        CodeSource source = ProxyProcess.class.getProtectionDomain().getCodeSource();
        if (source != null && source.getLocation() != null) {
            try {
                Path location = Path.of(source.getLocation().toURI());
                if (Files.isRegularFile(location) && location.toString().endsWith(".jar")) {
                    return location.toString();
                }
            } catch (URISyntaxException | IllegalArgumentException e) {
                // not a local file: fall back to the class path
            }
        }
        return System.getProperty("java.class.path");
    }

    private static InetSocketAddress awaitReady(Process process, Path output) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + STARTUP.toNanos();
        InetSocketAddress address = null;
        while (true) {
            String text = Files.exists(output) ? Files.readString(output, StandardCharsets.UTF_8) : "";
            if (address == null) {
                Matcher m = LISTENING.matcher(text);
                if (m.find()) {
                    address = new InetSocketAddress(m.group(1), Integer.parseInt(m.group(2)));
                }
            }
            if (address != null && READY.stream().anyMatch(text::contains)) {
                return address;
            }
            if (!process.isAlive()) {
                throw new IOException("the proxy's JVM exited with " + process.exitValue() + " on start: "
                        + ChildProcesses.tail(output));
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("the proxy's JVM was not ready within " + STARTUP.toSeconds() + " s: " + ChildProcesses.tail(output));
            }
            Thread.sleep(50);
        }
    }

    /** Where the proxy listens. */
    public InetSocketAddress address() {
        return address;
    }

    /** The proxy's output so far, its end: for messages about it. */
    public String outputTail() {
        return ChildProcesses.tail(output);
    }

    /** The child's pid. */
    public long pid() {
        return process.pid();
    }

    @Override
    public void close() {
        ChildProcesses.stopTree(process);
    }
}
