package io.riptide.cli.bench;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Squid as the reference forward proxy: started as a child process with a minimal loopback-only config and its
 * cache off, so that it, like the browser proxy in pass-through mode, only relays; or, for hit throughput, with
 * a memory cache and no disk cache ({@link #withMemoryCache}).
 */
public final class SquidProxy implements ProxyUnderTest {
    private static final List<String> KNOWN_PLACES = List.of("/usr/sbin/squid", "/usr/local/sbin/squid");
    private static final Duration STARTUP = Duration.ofSeconds(30);
    private final Path binary;
    private final int memoryCacheMb;
    private Path dir;
    private Process process;

    private SquidProxy(Path binary, int memoryCacheMb) {
        this.binary = binary;
        this.memoryCacheMb = memoryCacheMb;
    }

    /** Squid if its binary is installed here, else empty. */
    public static Optional<SquidProxy> find() {
        return binary().map(b -> new SquidProxy(b, 0));
    }

    /**
     * Squid with a memory cache of {@code megabytes} (and no disk cache), if installed here; objects up to 1 MB
     * are kept in memory, so a second request for one is a memory hit.
     */
    public static Optional<SquidProxy> withMemoryCache(int megabytes) {
        if (megabytes < 1) {
            throw new IllegalArgumentException("a memory cache needs at least 1 MB, not " + megabytes);
        }
        return binary().map(b -> new SquidProxy(b, megabytes));
    }

    /** What {@code squid -v} says first, such as {@code Squid Cache: Version 5.7}. */
    public String version() {
        return ChildProcesses.firstLine(List.of(binary.toString(), "-v"));
    }

    /** Squid, or an {@link IllegalStateException} saying it is not installed; the benchmarks' proxy source. */
    public static SquidProxy installed() {
        return find().orElseThrow(() -> new IllegalStateException(
                "squid is not installed (looked in " + KNOWN_PLACES + " and on the PATH; apt-get install squid)"));
    }

    /** The squid binary: at its Debian place or anywhere on the PATH. */
    public static Optional<Path> binary() {
        Stream<String> path = Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .filter(d -> !d.isEmpty()).map(d -> d + "/squid");
        return Stream.concat(KNOWN_PLACES.stream(), path).map(Path::of).filter(Files::isExecutable).findFirst();
    }

    @Override
    public InetSocketAddress start() throws Exception {
        dir = Files.createTempDirectory("riptide-squid");
        // Run as root, squid drops to its own user and must still write its log and pid file here.
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        int port = freePort();
        Path conf = dir.resolve("squid.conf");
        Files.writeString(conf, config(dir, port, memoryCacheMb));
        process = ChildProcesses.start(new ProcessBuilder(binary.toString(), "-N", "-f", conf.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("squid.out").toFile()));
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", port);
        long deadline = System.nanoTime() + STARTUP.toNanos();
        while (!accepts(address)) {
            if (!process.isAlive()) {
                throw new IOException("squid exited with " + process.exitValue() + " on start: " + log());
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("squid did not listen on " + address + " within " + STARTUP + ": " + log());
            }
            Thread.sleep(50);
        }
        return address;
    }

    /** The minimal config: loopback only, no cache of any kind, every file in our own directory. */
    static String config(Path dir, int port) {
        return config(dir, port, 0);
    }

    /**
     * The minimal config with a memory cache of {@code memoryCacheMb} (0: no cache of any kind): loopback only,
     * no disk cache, every file in our own directory.
     */
    static String config(Path dir, int port, int memoryCacheMb) {
        List<String> cache = memoryCacheMb == 0 ? List.of("cache deny all", "cache_mem 0 MB")
                : List.of("cache_mem " + memoryCacheMb + " MB", "maximum_object_size_in_memory 1 MB", "memory_cache_mode always");
        return String.join("\n",
                "http_port 127.0.0.1:" + port,
                "acl loopback src 127.0.0.1/32 ::1",
                "http_access allow loopback",
                "http_access deny all",
                String.join("\n", cache),
                "pid_filename " + dir.resolve("squid.pid"),
                "cache_log " + dir.resolve("cache.log"),
                "access_log none",
                "cache_store_log none",
                "netdb_filename none",
                "coredump_dir " + dir,
                "pinger_enable off",
                "shutdown_lifetime 0 seconds",
                "") + "\n";
    }

    @Override
    public void close() {
        if (process != null) {
            ChildProcesses.stopTree(process);
            process = null;
        }
        if (dir != null) {
            deleteTree(dir);
            dir = null;
        }
    }

    @Override
    public String name() {
        return memoryCacheMb == 0 ? "squid" : "squid (memory cache)";
    }

    private String log() {
        StringBuilder text = new StringBuilder();
        for (String file : List.of("squid.out", "cache.log")) {
            try {
                Path p = dir.resolve(file);
                if (Files.exists(p)) {
                    String s = Files.readString(p);
                    text.append(s, Math.max(0, s.length() - 2000), s.length());
                }
            } catch (IOException e) {
                text.append("(").append(file).append(" unreadable: ").append(e.getMessage()).append(")");
            }
        }
        return text.toString();
    }

    private static boolean accepts(InetSocketAddress address) {
        try (Socket s = new Socket()) {
            s.connect(address, 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static void deleteTree(Path root) {
        try (Stream<Path> files = Files.walk(root)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a leftover temp directory is harmless; failing the benchmark over it is not
        }
    }
}
