package io.riptide.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.proxy.cache.CacheFigures;
import io.riptide.proxy.cache.MemoryFigures;
import io.riptide.proxy.cache.OverlayCacheConfig;
import io.riptide.proxy.cache.ProxyCache;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The proxy's memory tier over a real overlay node on loopback: a verified copy read once is answered
 * from memory without an overlay read; a tampered copy is never kept or served; an update that reaches
 * the replica replaces the kept copy within the recheck interval plus one read.
 */
@Timeout(60)
class MemoryTierTest {
    private static HttpResponse<String> fetch(RiptideProxy proxy, String url, String method) throws Exception {
        HttpClient client = HttpClient.newBuilder().proxy(ProxySelector.of(proxy.server().address())).build();
        return client.send(HttpRequest.newBuilder(URI.create(url)).method(method, HttpRequest.BodyPublishers.noBody())
                .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> fetch(RiptideProxy proxy, String url) throws Exception {
        return fetch(proxy, url, "GET");
    }

    private static String cacheStatus(HttpResponse<?> r) {
        return r.headers().firstValue("Cache-Status").orElse("");
    }

    /** Lookups that went to the overlay (memory hits never reach the cache's loop). */
    private static long overlayReads(RiptideProxy proxy) {
        return proxy.inspect(ProxyCache::lookups, -1L);
    }

    private static MemoryFigures memory(RiptideProxy proxy) {
        return proxy.inspect(ProxyCache::figures, (CacheFigures) null).memory();
    }

    @Test
    void aCopyReadOnceIsAnsweredFromMemoryWithoutAnOverlayRead() throws Exception {
        try (TestOrigin origin = new TestOrigin().route("/page", x -> TestOrigin.send(x, 200, "from the origin"));
                OneNodeOverlay overlay = new OneNodeOverlay()) {
            overlay.store(origin.url("/page"), "from the overlay");
            try (RiptideProxy proxy = overlay.proxy(OverlayCacheConfig.defaults())) {
                HttpResponse<String> first = fetch(proxy, origin.url("/page"));
                assertEquals("riptide; hit", cacheStatus(first), "the first hit is the overlay's");
                long reads = overlayReads(proxy);
                for (int i = 0; i < 20; i++) {
                    HttpResponse<String> again = fetch(proxy, origin.url("/page"));
                    assertEquals("from the overlay", again.body());
                    assertEquals("riptide; hit; detail=memory", cacheStatus(again));
                    assertTrue(Long.parseLong(again.headers().firstValue("Age").orElseThrow()) < 5);
                }
                HttpResponse<String> head = fetch(proxy, origin.url("/page"), "HEAD");
                assertEquals("", head.body());
                assertEquals("16", head.headers().firstValue("Content-Length").orElse(""), "HEAD gets the length of the body");
                assertEquals(reads, overlayReads(proxy), "memory hits read nothing from the overlay");
                assertEquals(21, memory(proxy).hits());
                assertEquals(0, origin.requests.get());
                String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://" + hostPort(proxy)
                        + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
                assertTrue(metrics.contains("riptide_proxy_memory_lookups_total{result=\"hit\"} 21"), metrics);
            }
        }
    }

    private static String hostPort(RiptideProxy proxy) {
        return "127.0.0.1:" + proxy.server().address().getPort();
    }

    @Test
    void aTamperedCopyIsNeverKeptNorServedFromMemory() throws Exception {
        // The origin's answers are no-store, so the proxy's private tier keeps none: only the overlay's copies matter here.
        try (TestOrigin origin = new TestOrigin().route("/page", x -> {
                    x.getResponseHeaders().set("Cache-Control", "no-store");
                    TestOrigin.send(x, 200, "from the origin");
                });
                OneNodeOverlay overlay = new OneNodeOverlay()) {
            overlay.storeVersion(origin.url("/page"), 1, "genuine", "forged!");
            try (RiptideProxy proxy = overlay.proxy(OverlayCacheConfig.defaults())) {
                for (int i = 0; i < 3; i++) {
                    HttpResponse<String> r = fetch(proxy, origin.url("/page"));
                    assertEquals("from the origin", r.body());
                    assertEquals("riptide; fwd=miss; detail=invalid-replica", cacheStatus(r));
                }
                assertEquals(0, memory(proxy).stored(), "nothing unverified is kept");

                // The genuine version now, kept in memory; then a forged newer version reaches the replica.
                overlay.storeVersion(origin.url("/page"), 2, "genuine two", "genuine two");
                assertEquals("genuine two", fetch(proxy, origin.url("/page")).body());
                overlay.storeVersion(origin.url("/page"), 3, "three", "forged three");
                long refusedBefore = proxy.inspect(ProxyCache::refused, -1L);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(4);
                while (System.nanoTime() < deadline) { // past the recheck: background reads meet the forgery
                    HttpResponse<String> r = fetch(proxy, origin.url("/page"));
                    assertEquals("genuine two", r.body(), "the kept copy, never the forged body");
                    Thread.sleep(50);
                }
                assertTrue(proxy.inspect(ProxyCache::refused, -1L) > refusedBefore, "the background read refused the forgery");
                assertEquals(0, origin.requests.get() - 3);
            }
        }
    }

    @Test
    void aCopyNotAskedForLatelyIsReadThroughTheOverlayBeforeItIsUsed() throws Exception {
        Duration recheck = OverlayCacheConfig.DEFAULT_MEMORY_RECHECK;
        try (TestOrigin origin = new TestOrigin().route("/quiet", x -> TestOrigin.send(x, 200, "from the origin"));
                OneNodeOverlay overlay = new OneNodeOverlay()) {
            overlay.storeVersion(origin.url("/quiet"), 1, "old", "old");
            try (RiptideProxy proxy = overlay.proxy(OverlayCacheConfig.defaults())) {
                assertEquals("old", fetch(proxy, origin.url("/quiet")).body());
                assertEquals("riptide; hit; detail=memory", cacheStatus(fetch(proxy, origin.url("/quiet"))));
                // Nobody asks for it for longer than twice the recheck interval, and meanwhile an update lands.
                overlay.storeVersion(origin.url("/quiet"), 2, "new", "new");
                Thread.sleep(2 * recheck.toMillis() + 300);
                HttpResponse<String> first = fetch(proxy, origin.url("/quiet"));
                assertEquals("new", first.body(), "the first request after the quiet spell gets the update, never the kept copy");
                assertEquals("riptide; hit", cacheStatus(first), "read through the overlay");
                assertEquals("riptide; hit; detail=memory", cacheStatus(fetch(proxy, origin.url("/quiet"))),
                        "and kept again");
                assertEquals(0, origin.requests.get());
            }
        }
    }

    @Test
    void anUpdateThatReachesTheReplicaReplacesTheMemoryCopyWithinTheRecheckInterval() throws Exception {
        Duration recheck = OverlayCacheConfig.DEFAULT_MEMORY_RECHECK;
        try (TestOrigin origin = new TestOrigin().route("/news", x -> TestOrigin.send(x, 200, "from the origin"));
                OneNodeOverlay overlay = new OneNodeOverlay()) {
            overlay.storeVersion(origin.url("/news"), 1, "old news", "old news");
            try (RiptideProxy proxy = overlay.proxy(OverlayCacheConfig.defaults())) {
                assertEquals("old news", fetch(proxy, origin.url("/news")).body());
                assertEquals("riptide; hit; detail=memory", cacheStatus(fetch(proxy, origin.url("/news"))));
                // As a push down the dissemination tree leaves it on the replica.
                overlay.storeVersion(origin.url("/news"), 2, "new news", "new news");
                long pushed = System.nanoTime();
                String body = "";
                while (!body.equals("new news") && System.nanoTime() - pushed < TimeUnit.SECONDS.toNanos(10)) {
                    HttpResponse<String> r = fetch(proxy, origin.url("/news"));
                    body = r.body();
                    Thread.sleep(20);
                }
                long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - pushed);
                assertEquals("new news", body);
                // The bound: the recheck interval, one overlay read, and this loop's own request spacing.
                assertTrue(tookMillis <= recheck.toMillis() + 500, "the update took " + tookMillis + " ms to reach the user");
                assertEquals("riptide; hit; detail=memory", cacheStatus(fetch(proxy, origin.url("/news"))));
                assertEquals(0, origin.requests.get());
            }
        }
    }

    @Test
    void withTheTierOffEveryHitIsAnOverlayRead() throws Exception {
        try (TestOrigin origin = new TestOrigin().route("/page", x -> TestOrigin.send(x, 200, "from the origin"));
                OneNodeOverlay overlay = new OneNodeOverlay()) {
            overlay.store(origin.url("/page"), "from the overlay");
            try (RiptideProxy proxy = overlay.proxy(OverlayCacheConfig.defaults().withMemory(0, OverlayCacheConfig.DEFAULT_MEMORY_RECHECK))) {
                for (int i = 0; i < 3; i++) {
                    assertEquals("riptide; hit", cacheStatus(fetch(proxy, origin.url("/page"))));
                }
                assertEquals(3, overlayReads(proxy));
                assertEquals(null, proxy.inspect(ProxyCache::figures, (CacheFigures) null).memory());
            }
        }
    }

    @Test
    void aSuccessfulPostInvalidatesTheUrlUntilANewerVersionArrivesAndAFailedOneDoesNot() throws Exception {
        try (TestOrigin origin = new TestOrigin()
                .route("/item", x -> TestOrigin.send(x, 200, "POST".equals(x.getRequestMethod()) ? "posted" : "from the origin"))
                .route("/broken", x -> TestOrigin.send(x, 500, "failed"));
                OneNodeOverlay overlay = new OneNodeOverlay()) {
            overlay.storeVersion(origin.url("/item"), 1, "old item", "old item");
            overlay.storeVersion(origin.url("/broken"), 1, "kept", "kept");
            try (RiptideProxy proxy = overlay.proxy(OverlayCacheConfig.defaults())) {
                fetch(proxy, origin.url("/item"));
                assertEquals("riptide; hit; detail=memory", cacheStatus(fetch(proxy, origin.url("/item"))));
                Thread.sleep(5); // the change comes after the copy was certified, as it would
                HttpResponse<String> post = fetch(proxy, origin.url("/item"), "POST");
                assertEquals("posted", post.body());

                HttpResponse<String> after = fetch(proxy, origin.url("/item"));
                assertEquals("from the origin", after.body(), "no copy certified before the POST is served, from memory or the overlay");
                assertEquals("riptide; fwd=miss; detail=invalidated", cacheStatus(after));

                overlay.storeVersion(origin.url("/item"), 2, "new item", "new item"); // the gateway's fetch after the change
                HttpResponse<String> later = fetch(proxy, origin.url("/item"));
                assertEquals("new item", later.body(), "a newer version counts again");
                assertEquals("riptide; hit", cacheStatus(later));

                fetch(proxy, origin.url("/broken"));
                assertEquals(500, fetch(proxy, origin.url("/broken"), "POST").statusCode());
                assertEquals("kept", fetch(proxy, origin.url("/broken")).body(), "an error answer changes nothing (RFC 9111 4.4)");
            }
        }
    }

    private static HttpResponse<String> fetchWith(RiptideProxy proxy, String url, String... headers) throws Exception {
        HttpClient client = HttpClient.newBuilder().proxy(ProxySelector.of(proxy.server().address())).build();
        return client.send(HttpRequest.newBuilder(URI.create(url)).headers(headers).timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aRangeRequestGetsThoseBytesOfTheStoredResponseWith206() throws Exception {
        try (TestOrigin origin = new TestOrigin().route("/file", x -> TestOrigin.send(x, 200, "from the origin"));
                OneNodeOverlay overlay = new OneNodeOverlay()) {
            overlay.store(origin.url("/file"), "0123456789abcdef");
            try (RiptideProxy proxy = overlay.proxy(OverlayCacheConfig.defaults().withMemory(0, OverlayCacheConfig.DEFAULT_MEMORY_RECHECK));
                    RiptideProxy memoryProxy = overlay.proxy(OverlayCacheConfig.defaults())) {
                fetch(memoryProxy, origin.url("/file"));
                for (RiptideProxy p : List.of(proxy, memoryProxy)) {
                    HttpResponse<String> part = fetchWith(p, origin.url("/file"), "Range", "bytes=2-5");
                    assertEquals(206, part.statusCode());
                    assertEquals("2345", part.body());
                    assertEquals("bytes 2-5/16", part.headers().firstValue("Content-Range").orElse(""));
                    assertEquals("cdef", fetchWith(p, origin.url("/file"), "Range", "bytes=-4").body());
                    assertEquals("ef", fetchWith(p, origin.url("/file"), "Range", "bytes=14-").body());
                    HttpResponse<String> beyond = fetchWith(p, origin.url("/file"), "Range", "bytes=99-");
                    assertEquals(416, beyond.statusCode());
                    assertEquals("bytes */16", beyond.headers().firstValue("Content-Range").orElse(""));
                    HttpResponse<String> two = fetchWith(p, origin.url("/file"), "Range", "bytes=0-1,4-5");
                    assertEquals(200, two.statusCode(), "several ranges: the whole response");
                    assertEquals("0123456789abcdef", two.body());
                    HttpResponse<String> stale = fetchWith(p, origin.url("/file"), "Range", "bytes=0-1", "If-Range", "\"other\"");
                    assertEquals(200, stale.statusCode(), "an If-Range naming another version gets the whole response");
                }
                assertEquals(0, origin.requests.get());
            }
        }
    }
}
