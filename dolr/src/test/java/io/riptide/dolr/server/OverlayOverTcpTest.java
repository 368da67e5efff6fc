package io.riptide.dolr.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.nio.NioEventLoopGroup;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.testing.Await;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.location.LocateResult;
import io.riptide.dolr.transport.NettyLogWatch;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The overlay for real: over TCP on loopback, 32 nodes join through one bootstrap node, objects are
 * published and located from every node, 5 nodes are killed, and lookups keep succeeding: at once,
 * while the survivors have yet to notice, and after repair.
 */
class OverlayOverTcpTest {
    private static final String HOST = "127.0.0.1";
    private static final int NODES = 32;
    private static final int OBJECTS = 20;
    private static final int KILLED = 5;
    // Faster maintenance than a deployment, so failure detection and repair fit in a test; a longer
    // hop-timeout floor, since 32 nodes sharing a loaded machine's cores stall their loops past the
    // default 400 ms, and a live but slow replica would then be skipped as suspect (NOT_FOUND).
    private static final DolrConfig CONFIG = DolrConfig.defaults().withMaintenance(
            Duration.ofMillis(500), Duration.ofSeconds(2), Duration.ofSeconds(3), Duration.ofSeconds(2))
            .withTimeouts(Duration.ofSeconds(1), Duration.ofSeconds(6));
    /** A locate answers or fails by its deadline; the margin covers a loaded machine. */
    private static final Duration LOCATE_WAIT = CONFIG.locateDeadline().plusSeconds(5);
    private static final Duration CALL_WAIT = Duration.ofSeconds(10);

    private final NioEventLoopGroup group = new NioEventLoopGroup(4);
    private final List<OverlayServer> servers = new ArrayList<>();
    private final NettyLogWatch netty = new NettyLogWatch();

    @AfterEach
    void tearDown() throws InterruptedException {
        try {
            servers.forEach(OverlayServer::close);
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS);
            netty.assertClean();
        } finally {
            netty.close();
        }
    }

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void thirtyTwoNodesLocateEveryObjectFromEveryNodeAndKeepDoingSoAfterFiveAreKilled() throws Exception {
        long started = System.nanoTime();
        SplittableRandom random = new SplittableRandom(20_261_122);

        // -- join -----------------------------------------------------------------------------
        OverlayServer bootstrap = start(key(random), null);
        assertTrue(bootstrap.awaitJoined(CALL_WAIT), "the bootstrap node started an overlay");
        for (int i = 1; i < NODES; i++) {
            start(key(random), bootstrap.address());
        }
        CompletableFuture.allOf(servers.stream().map(OverlayServer::joined).toArray(CompletableFuture[]::new))
                .get(60, TimeUnit.SECONDS);
        long joinedAt = System.nanoTime();
        awaitExactLeafSets(servers, Duration.ofSeconds(30));
        long convergedAt = System.nanoTime();

        // -- publish ----------------------------------------------------------------------------
        Map<Id, NodeHandle> holders = new LinkedHashMap<>();
        for (int i = 0; i < OBJECTS; i++) {
            Id guid = Id.hash("riptide-test-object-" + i);
            OverlayServer holder = servers.get(random.nextInt(NODES));
            // Complete once the root confirms: a pointer met on the way can answer one node's locate
            // before the publish reaches the root, so "found from one node" would not mean "from every node".
            assertTrue(get(holder.storeReplicaRooted(guid, ("body " + i).getBytes(StandardCharsets.UTF_8))),
                    "stored " + guid + " and its root confirmed the publish");
            holders.put(guid, holder.self());
        }

        List<LocateResult> before = locateAll(servers, holders.keySet());
        assertEquals(List.of(), misses(before, holders), "objects not found, or found at the wrong node, before failures");
        List<LocateResult> idle = locateOneByOne(servers, List.copyOf(holders.keySet()));
        assertEquals(List.of(), misses(idle, holders), "objects not found one by one");

        // -- kill 5 nodes that hold no replica -----------------------------------------------------------
        Set<NodeHandle> holding = new HashSet<>(holders.values());
        List<OverlayServer> candidates = new ArrayList<>(servers.stream().filter(s -> !holding.contains(s.self())).toList());
        List<OverlayServer> killed = new ArrayList<>();
        for (int i = 0; i < KILLED; i++) {
            killed.add(candidates.remove(random.nextInt(candidates.size())));
        }
        long killedAt = System.nanoTime();
        killed.forEach(OverlayServer::crash);
        List<OverlayServer> alive = new ArrayList<>(servers);
        alive.removeAll(killed);
        Set<Id> dead = killed.stream().map(s -> s.self().id()).collect(Collectors.toSet());

        // Lookups in the failure window, before anyone has noticed: hops to a dead node time out and
        // are routed around, so they still succeed, if later.
        List<LocateResult> during = locateAll(alive, holders.keySet());
        List<String> missesDuring = misses(during, holders);
        long duringDoneAt = System.nanoTime();

        Await.until(Duration.ofSeconds(30), "no live node's leaf set holds a killed node", () -> alive.stream()
                .allMatch(s -> get(s.call(n -> n.leafSet().members())).stream().noneMatch(h -> dead.contains(h.id()))));
        long repairedAt = System.nanoTime();
        awaitExactLeafSets(alive, Duration.ofSeconds(30));

        List<LocateResult> after = locateAll(alive, holders.keySet());
        List<String> missesAfter = misses(after, holders);
        long locatedAfter = after.size() - missesAfter.size();
        System.out.printf(
                "32-node overlay: joined in %d ms, leaf sets exact %d ms later; one by one %s; before failures located %d/%d %s;"
                        + " right after the kill located %d/%d in %d ms %s;"
                        + " failures repaired in %d ms; after failures located %d/%d %s; whole test %d ms%n",
                millis(joinedAt - started), millis(convergedAt - joinedAt), latencies(idle), before.size() - misses(before, holders).size(),
                before.size(), latencies(before), during.size() - missesDuring.size(), during.size(), millis(duringDoneAt - killedAt),
                latencies(during), millis(repairedAt - killedAt), locatedAfter, after.size(),
                latencies(after), millis(System.nanoTime() - started));
        // Every object's replica survived, so every lookup must find it.
        assertEquals(List.of(), missesAfter, "objects not found, or found at the wrong node, after failures");
        assertEquals(List.of(), missesDuring, "objects not found, or found at the wrong node, right after the kill");
        long detected = 0;
        for (OverlayServer s : alive) {
            NodeStatus status = get(s.status());
            assertTrue(status.joined(), "still joined: " + status);
            assertEquals(2 * CONFIG.leafSetHalf(), status.leafSetSize(), "full leaf set: " + status);
            detected += status.failuresDetected();
        }
        assertTrue(detected >= KILLED, "the survivors declared the killed nodes failed: " + detected);
    }

    private OverlayServer start(SigningKey key, NodeAddress bootstrap) {
        OverlayServer server = OverlayServer.start(
                ServerSettings.of(key, new NodeAddress(HOST, 0)).withDolr(CONFIG).joining(bootstrap), group);
        servers.add(server);
        return server;
    }

    private static SigningKey key(SplittableRandom random) {
        byte[] seed = new byte[32];
        random.nextBytes(seed);
        return SigningKey.fromSeed(seed);
    }

    /** Waits until every node's leaf set is exactly the nearest live nodes on each side of it. */
    private static void awaitExactLeafSets(List<OverlayServer> nodes, Duration timeout) {
        Ring ring = new Ring(nodes.stream().map(s -> s.self().id()).toList());
        int half = CONFIG.leafSetHalf();
        Await.until(timeout, "every leaf set equals the ring's nearest live nodes", () -> nodes.stream().allMatch(s -> {
            Set<Id> actual = get(s.call(n -> n.leafSet().members())).stream().map(NodeHandle::id).collect(Collectors.toSet());
            return actual.equals(ring.leafSet(s.self().id(), half));
        }));
    }

    /**
     * Locates every object from every node and waits for every answer: the nodes all at once, each
     * node one object after another, as its users would. (Hundreds of locates launched in the same
     * instant overload a small test machine until hop acknowledgements time out; see the report.)
     */
    private static List<LocateResult> locateAll(List<OverlayServer> from, Set<Id> guids) {
        List<CompletableFuture<List<LocateResult>>> perNode = new ArrayList<>();
        for (OverlayServer s : from) {
            CompletableFuture<List<LocateResult>> chain = CompletableFuture.completedFuture(new ArrayList<>());
            for (Id guid : guids) {
                chain = chain.thenCompose(done -> s.locate(guid).thenApply(r -> {
                    done.add(r);
                    return done;
                }));
            }
            perNode.add(chain);
        }
        List<LocateResult> results = new ArrayList<>();
        for (CompletableFuture<List<LocateResult>> chain : perNode) {
            results.addAll(get(chain, LOCATE_WAIT.multipliedBy(guids.size())));
        }
        return results;
    }

    /** Locates one object at a time, nothing else in flight: the latency of an idle overlay. */
    private static List<LocateResult> locateOneByOne(List<OverlayServer> from, List<Id> guids) {
        List<LocateResult> results = new ArrayList<>();
        for (int i = 0; i < from.size(); i++) {
            results.add(get(from.get(i).locate(guids.get(i % guids.size())), LOCATE_WAIT));
        }
        return results;
    }

    /** Locates that failed or answered from a node other than the object's holder, described. */
    private static List<String> misses(List<LocateResult> results, Map<Id, NodeHandle> holders) {
        return results.stream()
                .filter(r -> !r.found() || !r.replica().equals(holders.get(r.guid())))
                .map(r -> r.guid().shortHex() + (r.found() ? " at " + r.replica() : " failed: " + r.failure()))
                .toList();
    }

    private static String latencies(List<LocateResult> results) {
        List<Long> micros = results.stream().filter(LocateResult::found).map(r -> r.elapsedNanos() / 1000).sorted().toList();
        if (micros.isEmpty()) {
            return "(none found)";
        }
        double hops = results.stream().filter(LocateResult::found).mapToInt(LocateResult::hops).average().orElse(0);
        return String.format("(latency median %d us, p99 %d us, max %d us; mean hops %.2f)", micros.get(micros.size() / 2),
                micros.get(Math.min(micros.size() - 1, (int) Math.ceil(micros.size() * 0.99) - 1)),
                micros.get(micros.size() - 1), hops);
    }

    private static long millis(long nanos) {
        return nanos / 1_000_000;
    }

    private static <T> T get(CompletableFuture<T> future) {
        return get(future, CALL_WAIT);
    }

    private static <T> T get(CompletableFuture<T> future, Duration timeout) {
        try {
            return future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new AssertionError("no answer from the node within " + timeout, e);
        }
    }
}
