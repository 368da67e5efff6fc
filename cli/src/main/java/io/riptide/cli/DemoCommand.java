package io.riptide.cli;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.location.LocateResult;
import io.riptide.dolr.server.NodeStatus;
import io.riptide.dolr.server.OverlayServer;
import io.riptide.dolr.server.ServerSettings;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code riptide demo}: a small overlay of real nodes over TCP on loopback, shown at work — it forms,
 * objects are published and located from every node, a node fails and lookups go on — and then keeps
 * running so other nodes can join it. The browser proxy, gateway and cache managers join this demo
 * with their issues.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Starts a small Riptide overlay on loopback (real nodes over TCP) and shows it at work:",
            "the overlay forms, objects are published and located from every node, a node fails and",
            "lookups go on. Then it keeps running until Ctrl-C (or --duration), so you can join it",
            "with 'riptide node --port 0 --join HOST:PORT'."})
final class DemoCommand implements Callable<Integer> {
    private static final long WAIT_SECONDS = 30;

    @Spec
    private CommandSpec spec;

    @Option(names = "--nodes", paramLabel = "N", defaultValue = "8",
            description = "Overlay nodes to start, 2 to 64 (default: ${DEFAULT-VALUE}).")
    private int nodes;

    @Option(names = "--objects", paramLabel = "K", defaultValue = "5",
            description = "Objects to publish and locate (default: ${DEFAULT-VALUE}).")
    private int objects;

    @Option(names = "--duration", paramLabel = "DURATION", defaultValue = "0s", converter = DurationConverter.class,
            description = "How long to keep running after the tour, e.g. 30s; 0s runs until Ctrl-C (default: ${DEFAULT-VALUE}).")
    private Duration duration;

    @Option(names = "--status-every", paramLabel = "DURATION", defaultValue = "10s", converter = DurationConverter.class,
            description = "How often to print the overlay's status while it runs (default: ${DEFAULT-VALUE}).")
    private Duration statusEvery;

    @Override
    public Integer call() throws Exception {
        if (nodes < 2 || nodes > 64) {
            throw new ParameterException(spec.commandLine(), "--nodes must be between 2 and 64, got " + nodes);
        }
        if (objects < 1 || objects > 1000) {
            throw new ParameterException(spec.commandLine(), "--objects must be between 1 and 1000, got " + objects);
        }
        if (statusEvery.isZero() || statusEvery.isNegative()) {
            throw new ParameterException(spec.commandLine(), "--status-every must be longer than zero");
        }
        PrintWriter out = spec.commandLine().getOut();
        // Faster maintenance than the defaults, so failures are noticed within the demo's patience.
        DolrConfig config = DolrConfig.defaults().withMaintenance(Duration.ofMillis(500), Duration.ofSeconds(2),
                Duration.ofSeconds(3), Duration.ofSeconds(2));
        EventLoopGroup group = new NioEventLoopGroup(Math.min(4, Runtime.getRuntime().availableProcessors() * 2));
        List<OverlayServer> servers = new ArrayList<>();
        CountDownLatch stop = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stop.countDown();
            closeAll(servers, group);
        }, "riptide-demo-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            tour(out, config, group, servers);
            say(out, "");
            say(out, "The overlay keeps running. Join it from another terminal:");
            say(out, "  ./riptide node --port 0 --join " + servers.get(0).address());
            say(out, duration.isZero() ? "Stop with Ctrl-C." : "Stopping in " + duration.toSeconds() + " s.");
            long end = duration.isZero() ? Long.MAX_VALUE : System.nanoTime() + duration.toNanos();
            while (System.nanoTime() < end) {
                long wait = Math.min(statusEvery.toNanos(), end - System.nanoTime());
                if (stop.await(Math.max(1, wait), TimeUnit.NANOSECONDS)) {
                    break;
                }
                if (System.nanoTime() < end) {
                    printOverlayStatus(out, servers);
                }
            }
            return 0;
        } finally {
            closeAll(servers, group);
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // The hook is already running; it closes the same servers.
            }
            say(out, "demo stopped");
        }
    }

    private void tour(PrintWriter out, DolrConfig config, EventLoopGroup group, List<OverlayServer> servers) throws Exception {
        SecureRandom random = new SecureRandom();
        long start = System.nanoTime();
        say(out, "Starting " + nodes + " overlay nodes on 127.0.0.1 (each proves its key on every connection)...");
        for (int i = 0; i < nodes; i++) {
            ServerSettings settings = ServerSettings.of(SigningKey.generate(random), new NodeAddress("127.0.0.1", 0)).withDolr(config);
            if (i > 0) {
                settings = settings.joining(servers.get(0).address());
            }
            OverlayServer server = OverlayServer.start(settings, group);
            servers.add(server);
            if (i == 0 && !server.awaitJoined(Duration.ofSeconds(WAIT_SECONDS))) {
                throw new IllegalStateException("the first node did not start");
            }
            say(out, String.format("  node %-2d %s  %s", i, server.self().id().shortHex(), server.address()));
        }
        for (OverlayServer s : servers) {
            if (!s.awaitJoined(Duration.ofSeconds(WAIT_SECONDS))) {
                throw new IllegalStateException("node " + s.address() + " did not join within " + WAIT_SECONDS + " s");
            }
        }
        int fullLeafSet = Math.min(nodes - 1, 2 * config.leafSetHalf());
        awaitLeafSets(servers, fullLeafSet);
        say(out, String.format("Overlay formed: %d nodes joined and every leaf set is complete after %d ms.", nodes,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)));

        say(out, "");
        say(out, "Publishing " + objects + " objects (the GUID is the hash of a name; the holder publishes pointers toward its root)...");
        Id[] guids = new Id[objects];
        for (int j = 0; j < objects; j++) {
            String name = "http://example.org/riptide-demo/object-" + j;
            guids[j] = Id.hash(name);
            OverlayServer holder = servers.get(j % nodes);
            holder.storeReplica(guids[j], name.getBytes(StandardCharsets.UTF_8)).get(WAIT_SECONDS, TimeUnit.SECONDS);
            say(out, String.format("  %s  %s  held by node %d", guids[j].shortHex(), name, j % nodes));
        }
        Thread.sleep(1000); // lets the publishes reach their roots before anyone looks
        say(out, "");
        say(out, "Locating every object from every node:");
        locateAll(out, servers, guids);

        if (nodes >= 4) {
            int victim = nodes - 1;
            while (victim > 0 && holdsAny(victim, objects)) {
                victim--;
            }
            if (victim > 0) {
                say(out, "");
                say(out, "Stopping node " + victim + " (" + servers.get(victim).self().id().shortHex() + ") without warning...");
                OverlayServer dead = servers.remove(victim);
                dead.close();
                awaitLeafSets(servers, Math.min(servers.size() - 1, 2 * config.leafSetHalf()));
                say(out, "The others noticed and repaired their leaf sets. Locating again from the " + servers.size() + " survivors:");
                locateAll(out, servers, guids);
            }
        }
    }

    private boolean holdsAny(int index, int objectCount) {
        return index < objectCount || objectCount >= nodes;
    }

    private static void locateAll(PrintWriter out, List<OverlayServer> servers, Id[] guids) throws Exception {
        int found = 0;
        int total = 0;
        for (Id guid : guids) {
            long[] micros = new long[servers.size()];
            int[] hops = new int[servers.size()];
            int ok = 0;
            for (int i = 0; i < servers.size(); i++) {
                LocateResult r = servers.get(i).locate(guid).get(WAIT_SECONDS, TimeUnit.SECONDS);
                total++;
                if (r.found()) {
                    ok++;
                    found++;
                }
                micros[i] = r.elapsedNanos() / 1000;
                hops[i] = Math.max(0, r.hops());
            }
            Arrays.sort(micros);
            say(out, String.format("  %s  found from %d/%d nodes, median %.2f ms, mean %.1f hops", guid.shortHex(), ok,
                    servers.size(), micros[micros.length / 2] / 1000.0, Arrays.stream(hops).average().orElse(0)));
        }
        say(out, String.format("  => found %d of %d lookups", found, total));
    }

    private static void awaitLeafSets(List<OverlayServer> servers, int size) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (System.nanoTime() < deadline) {
            boolean all = true;
            for (OverlayServer s : servers) {
                NodeStatus st = s.status().get(WAIT_SECONDS, TimeUnit.SECONDS);
                all &= st.leafSetSize() == size;
            }
            if (all) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("leaf sets did not settle within " + WAIT_SECONDS + " s");
    }

    private static void printOverlayStatus(PrintWriter out, List<OverlayServer> servers) {
        long in = 0;
        long sent = 0;
        int replicas = 0;
        int pointers = 0;
        for (OverlayServer s : servers) {
            try {
                NodeStatus st = s.status().get(WAIT_SECONDS, TimeUnit.SECONDS);
                in += st.transport().messagesReceived();
                sent += st.transport().messagesSent();
                replicas += st.replicas();
                pointers += st.pointers();
            } catch (Exception e) {
                // A node that is busy or closing is left out of this line.
            }
        }
        say(out, String.format("status: %d nodes, %d replicas, %d pointers, messages in %d out %d", servers.size(), replicas,
                pointers, in, sent));
    }

    private static void closeAll(List<OverlayServer> servers, EventLoopGroup group) {
        synchronized (servers) {
            for (OverlayServer s : servers) {
                s.close();
            }
            servers.clear();
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
    }

    private static void say(PrintWriter out, String line) {
        out.println(line);
        out.flush();
    }
}
