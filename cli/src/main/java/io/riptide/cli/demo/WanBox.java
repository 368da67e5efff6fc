package io.riptide.cli.demo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A WAN in a box: stub networks, each a network namespace of its own, joined to one router namespace by
 * a veth pair whose two directions are each limited to {@value #UPLINK_RATE} with {@code tbf} (the
 * paper's stub uplinks), with IPv4 routes so that stubs reach each other only through the router.
 * Stub {@code i} (from 1) is {@code 10.88.i.2}, its router side {@code 10.88.i.1}; processes of a stub
 * all use its one address, so traffic inside a stub stays on its loopback and only what crosses the
 * uplink is counted on it.
 *
 * <p>Each namespace is held by one {@code sleep} process (of bounded lifetime for a test, so nothing
 * outlives a test JVM that dies; as long as it runs for {@code riptide demo --wan}) and vanishes with its
 * last process, taking its veth ends with it. Interface names carry a random suffix. Needs root, unshare,
 * nsenter, ip and tc. Used by {@code riptide demo --wan} and {@code WanInABoxTest}.
 */
public final class WanBox implements AutoCloseable {
    public static final String UPLINK_RATE = "1500kbit";
    private static final Duration READY_WAIT = Duration.ofSeconds(20);
    private static final Duration COMMAND_WAIT = Duration.ofSeconds(20);

    /** One stub network: its name, its address, the namespace's holder, its uplink's interface (stub side). */
    public record Stub(String name, String address, Process holder, String uplink) {
        /** {@code command}, run inside this stub's namespace. */
        public List<String> inside(List<String> command) {
            return enter(holder, command);
        }
    }

    /** Bytes an uplink carried so far, as the kernel counts them on the stub side: out of the stub, and in. */
    public record UplinkBytes(long tx, long rx) {
        public UplinkBytes minus(UplinkBytes before) {
            return new UplinkBytes(tx - before.tx, rx - before.rx);
        }

        public long total() {
            return tx + rx;
        }
    }

    private final Process router;
    private final List<Stub> stubs;

    private WanBox(Process router, List<Stub> stubs) {
        this.router = router;
        this.stubs = stubs;
    }

    /** Why no box can be made here, or empty if one can. */
    public static Optional<String> unavailable() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return Optional.of("needs root to create network namespaces (user is " + System.getProperty("user.name") + ")");
        }
        for (String tool : List.of("unshare", "nsenter", "ip", "tc")) {
            if (!onPath(tool)) {
                return Optional.of("needs '" + tool + "' (util-linux, iproute2) on the PATH to build the network namespaces");
            }
        }
        return Optional.empty();
    }

    private static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/sbin:/usr/bin:/sbin:/bin").split(":")) {
            if (Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }

    /**
     * A router and one stub per name, in that order (the first is 10.88.1.2), wired and limited; each
     * namespace's holder lives at most {@code hold} (a test's bound), or as long as this box is open if null.
     */
    public static WanBox start(Path dir, List<String> names, Duration hold) throws IOException, InterruptedException {
        String sleep = hold == null ? "infinity" : Long.toString(Math.max(1, hold.toSeconds()));
        String suffix = HexFormat.of().formatHex(SecureRandom.getSeed(3));
        List<Process> holders = new ArrayList<>();
        try {
            Process router = hold(dir, "router", sleep, holders);
            List<Stub> stubs = new ArrayList<>();
            for (int i = 1; i <= names.size(); i++) {
                String name = names.get(i - 1);
                Process holder = hold(dir, name, sleep, holders);
                String stubSide = "wan" + suffix + "s" + i;
                String routerSide = "wan" + suffix + "r" + i;
                String net = "10.88." + i;
                // Made in the router's namespace with its peer put straight into the stub's: never in the host's.
                run(enter(router, List.of("ip", "link", "add", routerSide, "type", "veth", "peer", "name", stubSide, "netns",
                        Long.toString(holder.pid()))));
                run(enter(router, List.of("sh", "-c", "ip addr add " + net + ".1/24 dev " + routerSide + " && ip link set "
                        + routerSide + " up && " + tbf(routerSide) + " && echo 1 > /proc/sys/net/ipv4/ip_forward")));
                // Cubic on the route out, the usual hosts' congestion control: this machine defaults to BBR, which
                // ignores loss and overruns a token bucket's short queue, resending much of what it sends over an
                // uplink (a namespace may not pick cubic as its default here, but a route may).
                run(enter(holder, List.of("sh", "-c", "ip addr add " + net + ".2/24 dev " + stubSide + " && ip link set " + stubSide
                        + " up && ip route add default via " + net + ".1 congctl cubic && " + tbf(stubSide))));
                stubs.add(new Stub(name, net + ".2", holder, stubSide));
            }
            return new WanBox(router, List.copyOf(stubs));
        } catch (IOException | InterruptedException | RuntimeException | Error e) {
            for (Process p : holders) {
                stop(p);
            }
            throw e;
        }
    }

    /**
     * The uplink's limit on one interface's egress. The burst is ten full frames (what a real access
     * router's token bucket allows); the queue holds 300 ms of traffic (about 56 KB), beyond which
     * packets drop and TCP backs off, as on a congested uplink.
     */
    private static String tbf(String dev) {
        return "tc qdisc add dev " + dev + " root tbf rate " + UPLINK_RATE + " burst 15kb latency 300ms";
    }

    public List<Stub> stubs() {
        return stubs;
    }

    public Stub stub(String name) {
        return stubs.stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    /** What the stub's uplink has carried so far, from the kernel's counters of its stub-side veth. */
    public UplinkBytes uplink(Stub stub) throws IOException {
        // /proc/PID/net/dev is the interface table of PID's network namespace, readable from outside it.
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(stub.holder().pid()), "net", "dev"))) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equals(stub.uplink())) {
                String[] f = line.substring(colon + 1).trim().split("\\s+");
                // Receive: bytes packets errs drop fifo frame compressed multicast; then transmit: bytes ...
                return new UplinkBytes(Long.parseLong(f[8]), Long.parseLong(f[0]));
            }
        }
        throw new IllegalStateException("no interface " + stub.uplink() + " in " + stub.name() + "'s namespace");
    }

    /** The qdisc statistics of every uplink, both ends (sent, dropped, overlimits), for the test's report. */
    public String qdiscs() throws IOException, InterruptedException {
        StringBuilder out = new StringBuilder();
        out.append("router:\n").append(run(enter(router, List.of("tc", "-s", "qdisc", "show"))));
        for (Stub s : stubs) {
            out.append(s.name()).append(":\n").append(run(s.inside(List.of("tc", "-s", "qdisc", "show", "dev", s.uplink()))));
        }
        return out.toString();
    }

    @Override
    public void close() throws InterruptedException {
        for (Stub s : stubs) {
            stop(s.holder());
        }
        stop(router);
    }

    private static Process hold(Path dir, String name, String sleep, List<Process> holders) throws IOException, InterruptedException {
        Path out = dir.resolve("netns-" + name + ".out");
        // unshare and sh exec, so the holder's PID is the process inside the namespace.
        Process p = new ProcessBuilder("unshare", "--net", "--", "sh", "-c",
                "ip link set lo up && echo ready && exec sleep " + sleep).redirectErrorStream(true)
                .redirectOutput(out.toFile()).start();
        holders.add(p);
        long deadline = System.nanoTime() + READY_WAIT.toNanos();
        while (!Files.readString(out, StandardCharsets.UTF_8).contains("ready\n")) {
            if (!p.isAlive() || System.nanoTime() - deadline > 0) {
                throw new AssertionError("could not set up the " + name + " namespace within " + READY_WAIT + ":\n"
                        + Files.readString(out, StandardCharsets.UTF_8));
            }
            LockSupport.parkNanos(20_000_000);
        }
        return p;
    }

    private static List<String> enter(Process holder, List<String> command) {
        List<String> all = new ArrayList<>(List.of("nsenter", "--net=/proc/" + holder.pid() + "/ns/net", "--"));
        all.addAll(command);
        return all;
    }

    /** Runs {@code command} to its end (bounded), returning its output; a failure is an AssertionError saying what failed. */
    private static String run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getOutputStream().close();
        if (!p.waitFor(COMMAND_WAIT.toSeconds(), TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            throw new AssertionError(String.join(" ", command) + " did not finish within " + COMMAND_WAIT);
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new AssertionError(String.join(" ", command) + " failed (exit " + p.exitValue() + "):\n" + out);
        }
        return out;
    }

    private static void stop(Process p) throws InterruptedException {
        p.destroy();
        if (!p.waitFor(5, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }
}
