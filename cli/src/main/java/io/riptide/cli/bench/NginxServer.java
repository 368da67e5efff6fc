package io.riptide.cli.bench;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * nginx serving files straight from disk, the reference for what this machine can serve at all: started by the
 * benchmark as the current user with its own prefix directory (config, pid file, logs and temp directories all
 * inside it), in the foreground with one worker per core, and stopped with its whole process tree on close.
 */
public final class NginxServer implements AutoCloseable {
    private static final List<String> KNOWN_PLACES = List.of("/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/local/nginx/sbin/nginx");
    private static final Duration STARTUP = Duration.ofSeconds(30);
    private final Path binary;
    private Path prefix;
    private Process process;

    private NginxServer(Path binary) {
        this.binary = binary;
    }

    /** nginx if its binary is installed here, else empty. */
    public static Optional<NginxServer> find() {
        return binary().map(NginxServer::new);
    }

    /** The nginx binary: at its Debian place or anywhere on the PATH. */
    public static Optional<Path> binary() {
        Stream<String> path = Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .filter(d -> !d.isEmpty()).flatMap(d -> Stream.of(d + "/nginx"));
        return Stream.concat(KNOWN_PLACES.stream(), path).map(Path::of).filter(Files::isExecutable).findFirst();
    }

    /** What {@code nginx -v} says, such as {@code nginx version: nginx/1.22.1}. */
    public String version() {
        return ChildProcesses.firstLine(List.of(binary.toString(), "-v"));
    }

    /**
     * Writes each file (name to bytes) into the document root and starts nginx on a free loopback port; returns
     * where it listens. The files are then at {@code /NAME}.
     */
    public InetSocketAddress start(Map<String, byte[]> files) throws IOException, InterruptedException {
        prefix = Files.createTempDirectory("riptide-nginx");
        // Run as root, nginx's worker drops to nobody and must still read the documents.
        Files.setPosixFilePermissions(prefix, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path root = prefix.resolve("html");
        Files.createDirectories(root);
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
        for (Map.Entry<String, byte[]> f : files.entrySet()) {
            if (f.getKey().contains("/") || f.getKey().startsWith(".")) {
                throw new IllegalArgumentException("not a plain file name: " + f.getKey());
            }
            Path file = root.resolve(f.getKey());
            Files.write(file, f.getValue());
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        }
        Files.createDirectories(prefix.resolve("tmp"));
        int port = ChildProcesses.freePort();
        Files.writeString(prefix.resolve("nginx.conf"), config(prefix, port));
        Path log = prefix.resolve("nginx.out");
        process = ChildProcesses.start(new ProcessBuilder(binary.toString(), "-p", prefix + "/", "-c", "nginx.conf", "-e",
                prefix.resolve("error.log").toString()).redirectErrorStream(true).redirectOutput(log.toFile()));
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", port);
        try {
            ChildProcesses.awaitListening(process, address, STARTUP, "nginx", log);
        } catch (IOException | InterruptedException e) {
            String errors = ChildProcesses.tail(prefix.resolve("error.log"));
            close();
            throw new IOException(e.getMessage() + "; error.log: " + errors, e);
        }
        return address;
    }

    /**
     * The config: foreground with a master and one worker per core, every file it writes inside {@code prefix}, no access log,
     * loopback only, the documents from {@code prefix/html} with sendfile, and keep-alive connections never closed by
     * a request count (the proxies measured beside it do not close them either).
     */
    static String config(Path prefix, int port) {
        Path tmp = prefix.resolve("tmp");
        return String.join("\n",
                "daemon off;",
                "master_process on;",
                // One worker per core, as the proxy has one loop per core: equal resources.
                "worker_processes auto;",
                "pid " + prefix.resolve("nginx.pid") + ";",
                "error_log " + prefix.resolve("error.log") + " warn;",
                "events {",
                "    worker_connections 4096;",
                "}",
                "http {",
                "    access_log off;",
                "    default_type application/octet-stream;",
                "    sendfile on;",
                "    tcp_nopush on;",
                "    tcp_nodelay on;",
                "    keepalive_timeout 75s;",
                "    keepalive_requests 1000000000;",
                "    open_file_cache max=64 inactive=60s;",
                "    client_body_temp_path " + tmp.resolve("client_body") + ";",
                "    proxy_temp_path " + tmp.resolve("proxy") + ";",
                "    fastcgi_temp_path " + tmp.resolve("fastcgi") + ";",
                "    uwsgi_temp_path " + tmp.resolve("uwsgi") + ";",
                "    scgi_temp_path " + tmp.resolve("scgi") + ";",
                "    server {",
                "        listen 127.0.0.1:" + port + ";",
                "        root " + prefix.resolve("html") + ";",
                "        location / {",
                "        }",
                "    }",
                "}",
                "");
    }

    /** The process's pid, for reports; -1 when not running. */
    public long pid() {
        return process == null ? -1 : process.pid();
    }

    @Override
    public void close() {
        ChildProcesses.stopTree(process);
        process = null;
        ChildProcesses.deleteTree(prefix);
        prefix = null;
    }
}
