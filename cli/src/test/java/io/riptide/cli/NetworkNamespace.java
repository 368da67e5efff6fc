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

/**
 * A network namespace of the test's own, with nothing in it but a loopback interface that carries
 * multicast: the only place a test may send mDNS. It is held by one {@code sleep} process started
 * with {@code unshare --net}; every process of the test joins it with {@code nsenter --net}, and it
 * vanishes with its last process. Needs root, unshare, nsenter and ip (util-linux and iproute2).
 */
final class NetworkNamespace implements AutoCloseable {
    private static final Duration READY_WAIT = Duration.ofSeconds(20);
    /** The holder's own bound: a namespace never outlives a test run by long, even if the test JVM dies. */
    private static final String HOLD_SECONDS = "900";

    private final Process holder;

    private NetworkNamespace(Process holder) {
        this.holder = holder;
    }

    /** Why no namespace can be made here, or empty if one can. */
    static Optional<String> unavailable() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return Optional.of("needs root to create a network namespace (user is " + System.getProperty("user.name") + ")");
        }
        for (String tool : List.of("unshare", "nsenter", "ip")) {
            if (which(tool).isEmpty()) {
                return Optional.of("needs '" + tool + "' on the PATH to create a network namespace");
            }
        }
        return Optional.empty();
    }

    /** A new namespace whose {@code lo} is up and routes 224.0.0.0/4 (multicast, mDNS's 224.0.0.251 among it). */
    static NetworkNamespace start(Path dir) throws IOException, InterruptedException {
        return start(dir, List.of());
    }

    /** As above, with {@code extra} IPv4 addresses on {@code lo} too (each a /32), besides 127.0.0.1. */
    static NetworkNamespace start(Path dir, List<String> extra) throws IOException, InterruptedException {
        Path out = dir.resolve("netns.out");
        StringBuilder addresses = new StringBuilder();
        for (String a : extra) {
            if (!a.matches("[0-9]{1,3}(\\.[0-9]{1,3}){3}")) {
                throw new IllegalArgumentException("not an IPv4 address: " + a);
            }
            addresses.append(" && ip addr add ").append(a).append("/32 dev lo");
        }
        String setup = "ip link set lo up && ip link set lo multicast on && ip route add 224.0.0.0/4 dev lo" + addresses
                + " && ip -o link show && echo ready && exec sleep " + HOLD_SECONDS;
        // unshare and sh exec, so the holder's PID is the process inside the namespace.
        Process p = new ProcessBuilder("unshare", "--net", "--", "sh", "-c", setup).redirectErrorStream(true)
                .redirectOutput(out.toFile()).start();
        NetworkNamespace ns = new NetworkNamespace(p);
        long deadline = System.nanoTime() + READY_WAIT.toNanos();
        while (true) {
            String text = Files.readString(out, StandardCharsets.UTF_8);
            if (text.contains("ready\n")) {
                if (text.lines().anyMatch(l -> !l.equals("ready") && !l.matches("1: lo: .*"))) {
                    ns.close();
                    throw new AssertionError("the new namespace has more than loopback in it:\n" + text);
                }
                return ns;
            }
            if (!p.isAlive() || System.nanoTime() - deadline > 0) {
                ns.close();
                throw new AssertionError("could not set up a network namespace within " + READY_WAIT + " (exit "
                        + (p.isAlive() ? "none yet" : p.exitValue()) + "):\n" + text);
            }
            LockSupport.parkNanos(20_000_000);
        }
    }

    /** {@code command}, run inside the namespace. */
    List<String> inside(List<String> command) {
        List<String> all = new ArrayList<>(List.of("nsenter", "--net=/proc/" + holder.pid() + "/ns/net", "--"));
        all.addAll(command);
        return all;
    }

    @Override
    public void close() throws InterruptedException {
        holder.destroy();
        if (!holder.waitFor(5, TimeUnit.SECONDS)) {
            holder.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }

    private static Optional<Path> which(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/sbin:/usr/bin:/sbin:/bin").split(":")) {
            Path p = Path.of(dir, tool);
            if (Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }
}
