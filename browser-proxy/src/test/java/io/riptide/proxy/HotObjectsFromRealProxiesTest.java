package io.riptide.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.nio.NioEventLoopGroup;
import io.riptide.cachemanager.CacheManager;
import io.riptide.cachemanager.CacheManagerConfig;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.gateway.GatewayMessages.InsertRequest;
import io.riptide.core.http.CanonicalUrl;
import io.riptide.core.http.Headers;
import io.riptide.core.id.Id;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.testing.Await;
import io.riptide.dolr.DolrCodec;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.client.OverlayClient;
import io.riptide.dolr.location.LocateResult;
import io.riptide.dolr.server.OverlayServer;
import io.riptide.dolr.server.ServerSettings;
import io.riptide.gateway.Gateway;
import io.riptide.gateway.GatewayConfig;
import io.riptide.gateway.origin.OriginFetcher;
import io.riptide.gateway.origin.OriginFetcherConfig;
import io.riptide.gateway.origin.OriginTls;
import io.riptide.proxy.cache.OverlayCacheConfig;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Hot-object replication driven by real proxies over real TCP on loopback (paper §4.4): the proxies'
 * load reports, not only their hints, reach the nearest cache manager, which adds replicas on the
 * access nodes the load comes through. A flash crowd on an object the gateway inserted costs the
 * origin that one fetch, and the added replicas answer their access nodes' reads. One proxy in front
 * of a whole lab is enough: its hits send no hints at all, so only its load reports can show the crowd.
 *
 * <p>The overlay: a gateway's node (which holds the primary copy), a cache manager's node and three
 * plain nodes, all real {@link OverlayServer}s with the shipped agents at their defaults.
 */
@Timeout(180)
class HotObjectsFromRealProxiesTest {
    private static final DolrConfig FAST = DolrConfig.defaults().withMaintenance(Duration.ofMillis(500), Duration.ofSeconds(2),
            Duration.ofSeconds(3), Duration.ofSeconds(2));
    private static final SigningKey PROVIDER = SigningKey.generate(new SecureRandom());
    /**
     * Hits are never "slow" here, so no latency hint can stand in for the load reports; and every hit is
     * an overlay read (no memory tier), since the crowd this test makes is the overlay's load: memory
     * hits cost the overlay nothing and are not reported.
     */
    private static final OverlayCacheConfig PROXY = OverlayCacheConfig.defaults().withSlowHit(Duration.ofSeconds(30))
            .withMemory(0, OverlayCacheConfig.DEFAULT_MEMORY_RECHECK);

    private static TestOrigin origin;
    /** Fetches of each path the origin answered. */
    private static final java.util.Map<String, java.util.concurrent.atomic.AtomicInteger> FETCHES =
            new java.util.concurrent.ConcurrentHashMap<>();
    private static NioEventLoopGroup group;
    private static OriginFetcher fetcher;
    private static OverlayServer gatewayNode;
    private static OverlayServer managerNode;
    private static final List<OverlayServer> PLAIN = new ArrayList<>();
    private static final List<OverlayServer> ALL = new ArrayList<>();
    private static final CacheManager[] MANAGER = new CacheManager[1];
    private static OverlayClient operator;

    @BeforeAll
    static void start() throws Exception {
        origin = new TestOrigin()
                .route("/crowd", x -> send(x, "the story everyone reads"))
                .route("/lab", x -> send(x, "the exercise the whole lab downloads"));
        group = new NioEventLoopGroup(4);
        fetcher = new OriginFetcher(group, OriginFetcherConfig.defaults().withPrivateOrigins(true), OriginTls.systemDefault(),
                Clock.systemUTC());
        gatewayNode = OverlayServer.start(settings(null)
                .withApplication(Gateway.factory(PROVIDER, fetcher::fetch, GatewayConfig.defaults()), DolrCodec.create()), group);
        assertTrue(gatewayNode.awaitJoined(Duration.ofSeconds(10)));
        managerNode = OverlayServer.start(settings(gatewayNode.address()).withApplication(n -> {
            CacheManager m = CacheManager.on(CacheManager.factory(PROVIDER.publicKey(), CacheManagerConfig.defaults()).apply(n));
            MANAGER[0] = m;
            return m;
        }, DolrCodec.create()), group);
        ALL.add(gatewayNode);
        ALL.add(managerNode);
        for (int i = 0; i < 3; i++) {
            OverlayServer s = OverlayServer.start(settings(gatewayNode.address()), group);
            PLAIN.add(s);
            ALL.add(s);
        }
        for (OverlayServer s : ALL) {
            assertTrue(s.awaitJoined(Duration.ofSeconds(20)));
        }
        Thread.sleep(1500);
        operator = OverlayClient.start(SigningKey.generate(new SecureRandom()), List.of(gatewayNode.address()), Duration.ofSeconds(3),
                group);
        assertTrue(operator.awaitAttached(Duration.ofSeconds(10)));
    }

    private static void send(com.sun.net.httpserver.HttpExchange x, String body) throws java.io.IOException {
        FETCHES.computeIfAbsent(x.getRequestURI().getPath(), p -> new java.util.concurrent.atomic.AtomicInteger()).incrementAndGet();
        x.getResponseHeaders().set("Cache-Control", "max-age=600");
        TestOrigin.send(x, 200, body);
    }

    private static ServerSettings settings(NodeAddress join) {
        return ServerSettings.of(SigningKey.generate(new SecureRandom()), new NodeAddress("127.0.0.1", 0)).joining(join).withDolr(FAST);
    }

    @AfterAll
    static void stop() {
        operator.close();
        ALL.forEach(OverlayServer::close);
        fetcher.close();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        origin.close();
    }

    @Test
    void aCrowdThroughSeveralProxiesGetsReplicasNearThemAndTheOriginSeesOneFetch() throws Exception {
        Id guid = insert("/crowd");
        assertEquals(1, FETCHES.get("/crowd").get(), "the gateway's fetch for the insert");
        List<RiptideProxy> proxies = new ArrayList<>();
        try {
            for (OverlayServer seed : PLAIN) {
                proxies.add(proxyNotThrough(gatewayNode, seed));
            }
            Crowd crowd = crowd(proxies, 2, 120, "/crowd");

            assertTrue(crowd.answers().stream().allMatch("riptide; hit"::equals), "every request a hit: " + crowd.distinct());
            assertEquals(1, FETCHES.get("/crowd").get(), "the crowd never reached the origin");
            List<NodeHandle> extras = managerNode.call(n -> MANAGER[0].hotObjects().extraReplicas(guid)).get(5, TimeUnit.SECONDS);
            assertFalse(extras.isEmpty(), "the manager added replicas on its own");
            for (NodeHandle extra : extras) {
                assertTrue(crowd.accessNodes().contains(extra), "an added replica is on an access node the load came through: "
                        + extra + " not in " + crowd.accessNodes());
                assertFalse(extra.equals(gatewayNode.self()), "not where the copy already was");
                assertServesItsOwnReads(extra, guid);
            }
        } finally {
            proxies.forEach(RiptideProxy::close);
        }
    }

    @Test
    void oneProxyCarryingAWholeLabIsEnoughToMakeAnObjectHot() throws Exception {
        Id guid = insert("/lab");
        try (RiptideProxy lab = proxyNotThrough(gatewayNode, PLAIN.get(0))) {
            long started = System.nanoTime();
            Crowd crowd = crowd(List.of(lab), 8, 60, "/lab");
            double seconds = (System.nanoTime() - started) / 1e9;

            assertTrue(crowd.answers().stream().allMatch("riptide; hit"::equals), "every request a hit: " + crowd.distinct());
            assertEquals(1, FETCHES.get("/lab").get(), "the lab never reached the origin");
            List<NodeHandle> extras = managerNode.call(n -> MANAGER[0].hotObjects().extraReplicas(guid)).get(5, TimeUnit.SECONDS);
            assertFalse(extras.isEmpty(), "the lab's load alone made the object hot");
            for (NodeHandle extra : extras) {
                assertTrue(crowd.accessNodes().contains(extra), "on the lab proxy's access node: " + extra + " not in "
                        + crowd.accessNodes());
                assertServesItsOwnReads(extra, guid);
            }
            // Hits send no hints: the load reports alone showed the crowd, one per second at most for one object.
            assertEquals(0L, lab.inspect(c -> c.hints().missHints() + c.hints().latencyHints(), -1L));
            long reports = lab.inspect(c -> c.loadReports().reportsSent(), -1L);
            assertTrue(reports >= 1 && reports <= Math.ceil(seconds) + 1, reports + " reports in " + seconds + " s");
        }
    }

    /** An operator's insert through the gateway (as {@code riptide inspect --insert} does); the URL's GUID once readable. */
    private static Id insert(String path) throws Exception {
        String url = CanonicalUrl.of(origin.url(path)).value();
        Id guid = ObjectNames.objectGuid(PROVIDER.publicKey(), url, "");
        operator.anycast(ObjectNames.gatewayGuid(PROVIDER.publicKey()), new InsertRequest(0, url, Headers.EMPTY, false), 8);
        Await.until(Duration.ofSeconds(20), path + " is in the overlay", () -> operator.read(guid, 8).join().found());
        return guid;
    }

    /**
     * A proxy seeded with {@code seed} whose nearest access node is not {@code avoid} (which already holds
     * the copy, so load through it needs no replica); on loopback the nearest is a coin toss, so a few tries.
     */
    private static RiptideProxy proxyNotThrough(OverlayServer avoid, OverlayServer seed) throws Exception {
        for (int attempt = 0; attempt < 10; attempt++) {
            RiptideProxy proxy = RiptideProxy.start(ProxyConfig.builder().port(0).build(), List.of(seed.address()),
                    List.of(PROVIDER.publicKey()), PROXY);
            assertTrue(proxy.awaitAttached(Duration.ofSeconds(10)));
            Thread.sleep(500); // the seed's neighbours measured too
            List<NodeHandle> access = proxy.accessNodes();
            if (!access.isEmpty() && !access.get(0).equals(avoid.self())) {
                return proxy;
            }
            proxy.close();
        }
        throw new IllegalStateException("every proxy chose the gateway's node as its access node");
    }

    /** What a crowd came to: each answer's Cache-Status, and every node that was a proxy's nearest access node meanwhile. */
    private record Crowd(List<String> answers, java.util.Set<NodeHandle> accessNodes) {
        List<String> distinct() {
            return answers.stream().distinct().toList();
        }
    }

    /**
     * {@code perProxy} users behind each proxy ask for {@code path} {@code requests} times each, 50 ms apart.
     * The nearest access node of each proxy, through which its reads and reports go, is sampled throughout:
     * on loopback every node is about as near, and a fresh measurement may make another the nearest.
     */
    private static Crowd crowd(List<RiptideProxy> proxies, int perProxy, int requests, String path) throws Exception {
        ConcurrentLinkedQueue<String> answers = new ConcurrentLinkedQueue<>();
        java.util.Set<NodeHandle> nearest = java.util.concurrent.ConcurrentHashMap.newKeySet();
        ExecutorService users = Executors.newFixedThreadPool(proxies.size() * perProxy + 1);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (RiptideProxy proxy : proxies) {
                HttpClient client = HttpClient.newBuilder().proxy(ProxySelector.of(proxy.server().address())).build();
                HttpRequest get = HttpRequest.newBuilder(URI.create(origin.url(path))).timeout(Duration.ofSeconds(20)).build();
                for (int u = 0; u < perProxy; u++) {
                    running.add(users.submit(() -> {
                        for (int i = 0; i < requests; i++) {
                            HttpResponse<String> r = client.send(get, HttpResponse.BodyHandlers.ofString());
                            answers.add(r.statusCode() == 200 ? r.headers().firstValue("Cache-Status").orElse("none") : "status "
                                    + r.statusCode());
                            Thread.sleep(50);
                        }
                        return null;
                    }));
                }
            }
            Future<?> sampler = users.submit(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    proxies.forEach(p -> p.accessNodes().stream().findFirst().ifPresent(nearest::add));
                    Thread.sleep(100);
                }
                return null;
            });
            for (Future<?> f : running) {
                f.get(120, TimeUnit.SECONDS);
            }
            sampler.cancel(true);
            proxies.forEach(p -> p.accessNodes().stream().findFirst().ifPresent(nearest::add));
        } finally {
            users.shutdownNow();
        }
        return new Crowd(List.copyOf(answers), java.util.Set.copyOf(nearest));
    }

    /** The node at {@code holder} holds {@code guid} and answers reads there from its own copy. */
    private static void assertServesItsOwnReads(NodeHandle holder, Id guid) throws Exception {
        OverlayServer server = ALL.stream().filter(s -> s.self().equals(holder)).findFirst().orElseThrow();
        CompletableFuture<LocateResult> read = new CompletableFuture<>();
        server.call(n -> {
            n.read(guid, 8, read::complete);
            return null;
        });
        LocateResult r = read.get(5, TimeUnit.SECONDS);
        assertTrue(r.found(), "the added replica is readable");
        assertEquals(holder, r.replica(), "the access node answers its reads from the added replica");
        assertEquals(0, r.hops());
    }

}
