package io.riptide.proxy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.epoll.Epoll;
import io.riptide.core.http.Headers;
import io.riptide.core.net.NettyTransport;
import io.riptide.core.testing.Await;
import io.riptide.proxy.cache.CacheStatus;
import io.riptide.proxy.cache.LookupResult;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The JDK HTTP client fetching through the proxy from a local origin. */
@Timeout(30)
class ForwardingTest {
    private TestOrigin origin;
    private ProxyServer proxy;
    private HttpClient client;

    @BeforeEach
    void setUp() throws Exception {
        origin = new TestOrigin()
                .route("/hello", x -> TestOrigin.send(x, 200, "hello from the origin"))
                .route("/chunked", x -> {
                    x.sendResponseHeaders(200, 0);
                    try (OutputStream out = x.getResponseBody()) {
                        for (int i = 0; i < 10; i++) {
                            out.write(("part " + i + ";").getBytes(StandardCharsets.UTF_8));
                            out.flush();
                        }
                    }
                })
                .route("/echo", x -> {
                    byte[] body = x.getRequestBody().readAllBytes();
                    x.sendResponseHeaders(200, body.length == 0 ? -1 : body.length);
                    x.getResponseBody().write(body);
                })
                .route("/slow", x -> {
                    sleep(2_000);
                    TestOrigin.send(x, 200, "too late");
                });
    }

    private void startProxy(ProxyConfig config, CacheLookup cache) {
        proxy = ProxyServer.start(config, cache);
        client = HttpClient.newBuilder().proxy(ProxySelector.of(proxy.address()))
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    private static ProxyConfig.Builder config() {
        return ProxyConfig.builder().port(0).tunnelPorts(java.util.Set.of());
    }

    @AfterEach
    void tearDown() {
        if (proxy != null) {
            proxy.close();
        }
        origin.close();
    }

    private HttpResponse<String> get(String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(origin.url(path))).timeout(Duration.ofSeconds(10));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void getsAnIdentityBodyThroughTheCacheMissPath() throws Exception {
        RecordingCache cache = RecordingCache.missing();
        startProxy(config().build(), cache);
        HttpResponse<String> r = get("/hello");
        assertEquals(200, r.statusCode());
        assertEquals("hello from the origin", r.body());
        assertEquals("riptide; fwd=miss", r.headers().firstValue("Cache-Status").orElseThrow());
        assertTrue(r.headers().firstValue("Via").orElseThrow().contains("1.1 riptide"));
        assertEquals(1, cache.lookups.size());
        assertEquals(URI.create(origin.url("/hello")), cache.lookups.get(0).url());
        Await.until("the cache hears of the origin's response", () -> cache.originResponses.size() == 1);
        assertEquals(200, cache.originResponses.get(0).status());
        assertEquals(1, proxy.stats().misses());
    }

    /** On Linux the proxy's browser and origin connections run on native epoll (NIO elsewhere, or when forced). */
    @Test
    void runsOnTheProcesssTransportEpollOnLinux() throws Exception {
        startProxy(config().build(), CacheLookup.NONE);
        assertSame(NettyTransport.current(), proxy.transport());
        if (Epoll.isAvailable() && System.getProperty(NettyTransport.PROPERTY) == null) {
            assertSame(NettyTransport.EPOLL, proxy.transport());
        }
        // An origin connection is made on the browser connection's loop: of the wrong kind it would not register.
        HttpResponse<String> r = get("/hello");
        assertEquals(200, r.statusCode());
        assertEquals("hello from the origin", r.body());
        HttpResponse<String> status = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + proxy.address().getPort() + "/status.json")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, status.statusCode());
        assertTrue(status.body().contains("\"transport\":\"" + NettyTransport.describe() + "\""), status.body());
    }

    @Test
    void streamsAChunkedBody() throws Exception {
        startProxy(config().build(), CacheLookup.NONE);
        HttpResponse<String> r = get("/chunked");
        assertEquals(200, r.statusCode());
        assertEquals("part 0;part 1;part 2;part 3;part 4;part 5;part 6;part 7;part 8;part 9;", r.body());
    }

    @Test
    void streamsALargeBodyBeforeTheOriginHasFinishedSendingIt() throws Exception {
        int size = 5 * 1024 * 1024;
        byte[] expected = new byte[size];
        for (int i = 0; i < size; i++) {
            expected[i] = (byte) (i * 31);
        }
        CountDownLatch browserHasFirstBytes = new CountDownLatch(1);
        origin.route("/big", x -> {
            x.sendResponseHeaders(200, size);
            OutputStream out = x.getResponseBody();
            out.write(expected, 0, 64 * 1024);
            out.flush();
            // The rest waits until the browser has seen the start: only a streaming proxy passes this.
            await(browserHasFirstBytes);
            out.write(expected, 64 * 1024, size - 64 * 1024);
            out.close();
        });
        startProxy(config().build(), CacheLookup.NONE);
        HttpResponse<InputStream> r = client.send(HttpRequest.newBuilder(URI.create(origin.url("/big"))).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream in = r.body()) {
            byte[] first = in.readNBytes(1000);
            browserHasFirstBytes.countDown();
            byte[] rest = in.readAllBytes();
            byte[] all = new byte[first.length + rest.length];
            System.arraycopy(first, 0, all, 0, first.length);
            System.arraycopy(rest, 0, all, first.length, rest.length);
            assertArrayEquals(expected, all);
        }
    }

    @Test
    void reusesOneOriginConnectionForSuccessiveRequests() throws Exception {
        startProxy(config().build(), CacheLookup.NONE);
        for (int i = 0; i < 5; i++) {
            assertEquals(200, get("/hello").statusCode());
        }
        assertEquals(1, origin.connections.size(), "origin connections seen: " + origin.connections);
        assertEquals(1, proxy.stats().upstreamConnectionsOpened());
    }

    @Test
    void postIsForwardedWithItsBodyAndBypassesTheCache() throws Exception {
        RecordingCache cache = RecordingCache.missing();
        startProxy(config().build(), cache);
        String body = "x".repeat(100_000);
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(origin.url("/echo")))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode());
        assertEquals(body, r.body());
        assertEquals("riptide; fwd=bypass; detail=method", r.headers().firstValue("Cache-Status").orElseThrow());
        assertTrue(cache.lookups.isEmpty());
        assertTrue(cache.originResponses.isEmpty(), "a response that bypassed the cache is none of its business (no hint)");
    }

    @Test
    void cookiesAndCredentialsBypassTheCache() throws Exception {
        RecordingCache cache = RecordingCache.missing();
        startProxy(config().build(), cache);
        assertEquals("riptide; fwd=bypass; detail=cookie",
                get("/hello", "Cookie", "a=b").headers().firstValue("Cache-Status").orElseThrow());
        assertEquals("riptide; fwd=bypass; detail=credentials",
                get("/hello", "Authorization", "Bearer x").headers().firstValue("Cache-Status").orElseThrow());
        assertTrue(cache.lookups.isEmpty());
        assertEquals(2, proxy.stats().bypasses());
    }

    @Test
    void cgiUrlsBypassTheCacheAndQueryUrlsToOnlyWhenConfigured() throws Exception {
        origin.route("/cgi-bin/", x -> TestOrigin.send(x, 200, "a script's answer"));
        RecordingCache cache = RecordingCache.missing();
        startProxy(config().build(), cache);
        HttpResponse<String> script = get("/cgi-bin/search?q=riptide");
        assertEquals("a script's answer", script.body());
        assertEquals("riptide; fwd=bypass; detail=url-hint", script.headers().firstValue("Cache-Status").orElseThrow());
        assertTrue(cache.lookups.isEmpty(), "a script's URL is never looked up");
        assertEquals("riptide; fwd=miss", get("/hello?v=3").headers().firstValue("Cache-Status").orElseThrow(),
                "by default a query URL is looked up like any other");
        assertEquals(1, cache.lookups.size());
        proxy.close();

        startProxy(config().queryBypass(true).build(), cache);
        HttpResponse<String> query = get("/hello?v=3");
        assertEquals("hello from the origin", query.body());
        assertEquals("riptide; fwd=bypass; detail=url-hint", query.headers().firstValue("Cache-Status").orElseThrow());
        assertEquals(1, cache.lookups.size(), "with --bypass-queries it is not");
    }

    @Test
    void aHitIsServedWithoutContactingTheOrigin() throws Exception {
        RecordingCache cache = new RecordingCache(req -> CompletableFuture.supplyAsync(() -> LookupResult.serve(CacheStatus.HIT,
                new LookupResult.Answer(200, "OK", Headers.of("Content-Type", "text/plain", "Age", "5"),
                        "from the overlay".getBytes(StandardCharsets.UTF_8)), null)));
        startProxy(config().build(), cache);
        HttpResponse<String> r = get("/hello");
        assertEquals(200, r.statusCode());
        assertEquals("from the overlay", r.body());
        assertEquals("riptide; hit", r.headers().firstValue("Cache-Status").orElseThrow());
        assertEquals("5", r.headers().firstValue("Age").orElseThrow());
        assertEquals(0, origin.requests.get());
        assertEquals(1, proxy.stats().hits());
    }

    @Test
    void hitsAndMissesCarryTheNameTheProxyGoesBy() throws Exception {
        RecordingCache cache = new RecordingCache(req -> CompletableFuture.completedFuture(req.url().getPath().equals("/hello")
                ? LookupResult.serve(CacheStatus.HIT, new LookupResult.Answer(200, "OK", Headers.of("Content-Type", "text/plain"),
                        "from the overlay".getBytes(StandardCharsets.UTF_8)), null)
                : LookupResult.forward(CacheStatus.forward("miss", "not-found"))));
        startProxy(config().via("campus-cache").build(), cache);
        assertEquals("campus-cache; hit", get("/hello").headers().firstValue("Cache-Status").orElseThrow());
        assertEquals("campus-cache; fwd=miss; detail=not-found", get("/chunked").headers().firstValue("Cache-Status").orElseThrow());
    }

    @Test
    void passThroughNeverCallsTheCache() throws Exception {
        RecordingCache cache = RecordingCache.missing();
        startProxy(config().passThrough(true).build(), cache);
        HttpResponse<String> r = get("/hello");
        assertEquals("hello from the origin", r.body());
        assertEquals("riptide; fwd=bypass; detail=pass-through", r.headers().firstValue("Cache-Status").orElseThrow());
        assertTrue(cache.lookups.isEmpty());
        assertTrue(cache.originResponses.isEmpty());
    }

    @Test
    void overAdmissionBoundGoesStraightToTheOrigin() throws Exception {
        RecordingCache cache = RecordingCache.missing();
        startProxy(config().maxConcurrentLookups(0).build(), cache);
        HttpResponse<String> r = get("/hello");
        assertEquals("hello from the origin", r.body());
        assertEquals("riptide; fwd=bypass; detail=overloaded", r.headers().firstValue("Cache-Status").orElseThrow());
        assertTrue(cache.lookups.isEmpty());
    }

    @Test
    void unreachableOriginGives502WithAReadableBody() throws Exception {
        startProxy(config().build(), CacheLookup.NONE);
        int closedPort;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + closedPort + "/x")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(502, r.statusCode());
        assertTrue(r.body().contains("127.0.0.1:" + closedPort) && r.body().contains("refused"), r.body());
        assertEquals(1, proxy.stats().errors());
    }

    @Test
    void slowOriginGives504() throws Exception {
        startProxy(config().responseTimeout(Duration.ofMillis(300)).build(), CacheLookup.NONE);
        HttpResponse<String> r = get("/slow");
        assertEquals(504, r.statusCode());
        assertTrue(r.body().contains("did not answer within 300 ms"), r.body());
        // The proxy is still fine for the next request.
        assertEquals(200, get("/hello").statusCode());
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
