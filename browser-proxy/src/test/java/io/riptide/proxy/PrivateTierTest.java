package io.riptide.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.hint.HintMessages.MissHint;
import io.riptide.core.hint.HintMessages.SeenHint;
import io.riptide.core.http.CanonicalUrl;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.testing.Await;
import io.riptide.core.wire.WireMessage;
import io.riptide.proxy.cache.InsertPolicy;
import io.riptide.proxy.cache.OverlayCacheConfig;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The proxy's private tier, over a real overlay node on loopback: what the proxy fetched from the
 * origin itself is kept (RFC 9111's shared-cache rules) and answers the next request at once, so a
 * URL costs the origin one fetch; the first sighting only tells the manager (a seen hint), the
 * second asks for the insert (a miss hint); what may not be stored is neither kept nor hinted; and
 * the rules that hold for verified copies hold here too (HEAD, Range, Vary, validation, invalidation).
 */
@Timeout(60)
class PrivateTierTest {
    private static HttpResponse<String> fetch(RiptideProxy proxy, String url, String method, String... headers) throws Exception {
        HttpClient client = HttpClient.newBuilder().proxy(ProxySelector.of(proxy.server().address())).build();
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).method(method, HttpRequest.BodyPublishers.noBody())
                .timeout(Duration.ofSeconds(20));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> get(RiptideProxy proxy, String url, String... headers) throws Exception {
        return fetch(proxy, url, "GET", headers);
    }

    private static String cacheStatus(HttpResponse<?> r) {
        return r.headers().firstValue("Cache-Status").orElse("");
    }

    private static TestOrigin cacheableOrigin() throws Exception {
        return new TestOrigin().route("/page", x -> {
            x.getResponseHeaders().set("Cache-Control", "max-age=600");
            x.getResponseHeaders().set("ETag", "\"v1\"");
            TestOrigin.send(x, 200, "the page, 0123456789");
        });
    }

    @Test
    void aRepeatRequestIsAHitAtOnceAndTheSecondSightingAsksForTheInsert() throws Exception {
        @SuppressWarnings("unchecked")
        RecordingManager<WireMessage>[] manager = new RecordingManager[1];
        try (TestOrigin origin = cacheableOrigin()
                .route("/secret", x -> {
                    x.getResponseHeaders().set("Cache-Control", "no-store");
                    TestOrigin.send(x, 200, "not for caches");
                });
                OneNodeOverlay overlay = new OneNodeOverlay((n, provider) ->
                        manager[0] = new RecordingManager<>(n, ObjectNames.cacheManagerGuid(provider), WireMessage.class));
                RiptideProxy proxy = overlay.proxy(OverlayCacheConfig.defaults())) {
            String url = CanonicalUrl.of(origin.url("/page")).value();
            HttpResponse<String> first = get(proxy, origin.url("/page"));
            assertEquals("the page, 0123456789", first.body());
            assertEquals("riptide; fwd=miss; detail=not-found", cacheStatus(first));
            Await.until(Duration.ofSeconds(10), "the manager hears of the first sighting",
                    () -> manager[0].hints.stream().anyMatch(h -> h instanceof SeenHint s && s.url().equals(url)));
            assertTrue(manager[0].hints.stream().noneMatch(h -> h instanceof MissHint), "the first sighting asks for no insert");

            for (int i = 0; i < 5; i++) {
                HttpResponse<String> again = get(proxy, origin.url("/page"));
                assertEquals("the page, 0123456789", again.body());
                assertEquals("riptide; hit; detail=private", cacheStatus(again));
                assertTrue(Long.parseLong(again.headers().firstValue("Age").orElseThrow()) < 5);
            }
            assertEquals(1, origin.requests.get(), "one origin fetch for six requests");
            Await.until(Duration.ofSeconds(10), "the second sighting asks for the insert",
                    () -> manager[0].hints.stream().anyMatch(h -> h instanceof MissHint m && m.url().equals(url)));
            assertEquals(1, manager[0].hints.stream().filter(h -> h instanceof MissHint).count(), "one insert asked for");
            String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + proxy.server().address().getPort() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
            assertTrue(metrics.contains("riptide_proxy_private_kept_total 1"), metrics);
            assertTrue(metrics.contains("riptide_proxy_hints_total{kind=\"seen\"} 1"), metrics);
            assertTrue(metrics.contains("riptide_proxy_hints_total{kind=\"miss\"} 1"), metrics);

            // no-store: neither kept nor hinted.
            for (int i = 0; i < 2; i++) {
                HttpResponse<String> secret = get(proxy, origin.url("/secret"));
                assertEquals("not for caches", secret.body());
                assertTrue(cacheStatus(secret).contains("fwd=miss"), cacheStatus(secret));
            }
            assertEquals(3, origin.requests.get());
            Thread.sleep(300);
            String secretUrl = CanonicalUrl.of(origin.url("/secret")).value();
            assertTrue(manager[0].hints.stream().noneMatch(h -> (h instanceof SeenHint s && s.url().equals(secretUrl))
                    || (h instanceof MissHint m && m.url().equals(secretUrl))), "a response nobody may store is not hinted");
        }
    }

    @Test
    void headRangeAndConditionalRequestsAreAnsweredFromThePrivateCopy() throws Exception {
        try (TestOrigin origin = cacheableOrigin(); OneNodeOverlay overlay = new OneNodeOverlay();
                RiptideProxy proxy = overlay.proxy(OverlayCacheConfig.defaults())) {
            get(proxy, origin.url("/page"));
            HttpResponse<String> head = fetch(proxy, origin.url("/page"), "HEAD");
            assertEquals("", head.body());
            assertEquals("20", head.headers().firstValue("Content-Length").orElse(""), "HEAD gets the stored GET's length");
            assertEquals("riptide; hit; detail=private", cacheStatus(head));

            HttpResponse<String> part = get(proxy, origin.url("/page"), "Range", "bytes=10-13");
            assertEquals(206, part.statusCode(), "RFC 9111 §3.4: a range of the stored full response");
            assertEquals("0123", part.body());
            assertEquals("bytes 10-13/20", part.headers().firstValue("Content-Range").orElse(""));
            assertEquals(416, get(proxy, origin.url("/page"), "Range", "bytes=50-60").statusCode());
            assertEquals(1, origin.requests.get());
        }
    }

    @Test
    void aCopyTheRequestWantsValidatedIsRevalidatedWithItsETagAndFreshenedByA304() throws Exception {
        AtomicInteger notModified = new AtomicInteger();
        try (TestOrigin origin = new TestOrigin().route("/page", x -> {
                    x.getResponseHeaders().set("Cache-Control", "max-age=600");
                    x.getResponseHeaders().set("ETag", "\"v1\"");
                    if ("\"v1\"".equals(x.getRequestHeaders().getFirst("If-None-Match"))) {
                        notModified.incrementAndGet();
                        x.sendResponseHeaders(304, -1);
                    } else {
                        TestOrigin.send(x, 200, "the page");
                    }
                });
                OneNodeOverlay overlay = new OneNodeOverlay();
                RiptideProxy proxy = overlay.proxy(OverlayCacheConfig.defaults())) {
            get(proxy, origin.url("/page"));
            // RFC 9111 §5.2.1.4: no-cache asks the cache to validate first; the copy's validator goes along.
            HttpResponse<String> validated = get(proxy, origin.url("/page"), "Cache-Control", "no-cache");
            assertEquals(200, validated.statusCode());
            assertEquals("the page", validated.body());
            assertEquals(1, notModified.get(), "a conditional request with the private copy's ETag, answered 304");
            assertTrue(cacheStatus(validated).contains("fwd=request") && cacheStatus(validated).contains("fwd-status=304"),
                    cacheStatus(validated));
            HttpResponse<String> after = get(proxy, origin.url("/page"));
            assertEquals("riptide; hit; detail=private", cacheStatus(after));
            assertEquals("the page", after.body());
            assertEquals(2, origin.requests.get());
        }
    }

    @Test
    void heuristicFreshnessAndStaleIfErrorHoldForThePrivateCopy() throws Exception {
        AtomicInteger failing = new AtomicInteger();
        try (TestOrigin origin = new TestOrigin()
                .route("/old", x -> {
                    // No explicit lifetime: 10 % of the Last-Modified age (RFC 9111 §4.2.2), here six minutes.
                    x.getResponseHeaders().set("Last-Modified", io.riptide.core.http.HttpDates.format(
                            java.time.Instant.now().minus(Duration.ofHours(1))));
                    TestOrigin.send(x, 200, "heuristically fresh");
                })
                .route("/flaky", x -> {
                    if (failing.get() > 0) {
                        TestOrigin.send(x, 500, "origin trouble");
                        return;
                    }
                    x.getResponseHeaders().set("Cache-Control", "max-age=1, stale-if-error=60");
                    TestOrigin.send(x, 200, "good copy");
                });
                OneNodeOverlay overlay = new OneNodeOverlay();
                RiptideProxy proxy = overlay.proxy(OverlayCacheConfig.defaults())) {
            get(proxy, origin.url("/old"));
            HttpResponse<String> heuristic = get(proxy, origin.url("/old"));
            assertEquals("heuristically fresh", heuristic.body());
            assertEquals("riptide; hit; detail=private", cacheStatus(heuristic));

            get(proxy, origin.url("/flaky"));
            Thread.sleep(2_200); // stale now (max-age=1, and the private copy unconfirmed)
            failing.set(1);
            HttpResponse<String> stale = get(proxy, origin.url("/flaky"));
            assertEquals(200, stale.statusCode(), "RFC 5861 §4: the stale copy instead of the origin's 500");
            assertEquals("good copy", stale.body());
            assertTrue(cacheStatus(stale).contains("stale-if-error"), cacheStatus(stale));
            assertEquals(3, origin.requests.get(), "one fetch of each, then the failed revalidation");
        }
    }

    @Test
    void eachVariantIsKeptApartAndAnUnsafeMethodInvalidatesThePrivateCopy() throws Exception {
        try (TestOrigin origin = new TestOrigin().route("/doc", x -> {
                    if (x.getRequestMethod().equals("POST")) {
                        TestOrigin.send(x, 200, "posted");
                        return;
                    }
                    x.getResponseHeaders().set("Cache-Control", "max-age=600");
                    x.getResponseHeaders().set("Vary", "Accept-Language");
                    String lang = x.getRequestHeaders().getFirst("Accept-Language");
                    TestOrigin.send(x, 200, "in " + lang);
                });
                OneNodeOverlay overlay = new OneNodeOverlay();
                RiptideProxy proxy = overlay.proxy(OverlayCacheConfig.defaults())) {
            assertEquals("in en", get(proxy, origin.url("/doc"), "Accept-Language", "en").body());
            assertEquals("in fr", get(proxy, origin.url("/doc"), "Accept-Language", "fr").body());
            HttpResponse<String> en = get(proxy, origin.url("/doc"), "Accept-Language", "en");
            HttpResponse<String> fr = get(proxy, origin.url("/doc"), "Accept-Language", "fr");
            assertEquals("in en", en.body(), "RFC 9111 §4.1: only the variant the request selects");
            assertEquals("in fr", fr.body());
            assertEquals("riptide; hit; detail=private", cacheStatus(en));
            assertEquals("riptide; hit; detail=private", cacheStatus(fr));
            assertEquals(2, origin.requests.get());

            assertEquals("posted", fetch(proxy, origin.url("/doc"), "POST").body());
            HttpResponse<String> afterPost = get(proxy, origin.url("/doc"), "Accept-Language", "en");
            assertEquals("in en", afterPost.body());
            assertTrue(cacheStatus(afterPost).contains("fwd=miss"), "RFC 9111 §4.4: " + cacheStatus(afterPost));
            assertEquals(4, origin.requests.get());
            assertEquals("riptide; hit; detail=private", cacheStatus(get(proxy, origin.url("/doc"), "Accept-Language", "en")),
                    "the response fetched after the POST is kept again");
        }
    }

    @Test
    void underTheFirstMissPolicyTheFirstMissAsksForTheInsert() throws Exception {
        @SuppressWarnings("unchecked")
        RecordingManager<WireMessage>[] manager = new RecordingManager[1];
        try (TestOrigin origin = cacheableOrigin();
                OneNodeOverlay overlay = new OneNodeOverlay((n, provider) ->
                        manager[0] = new RecordingManager<>(n, ObjectNames.cacheManagerGuid(provider), WireMessage.class));
                RiptideProxy proxy = overlay.proxy(OverlayCacheConfig.defaults().withInsertPolicy(InsertPolicy.FIRST_MISS))) {
            get(proxy, origin.url("/page"));
            Await.until(Duration.ofSeconds(10), "the miss hint", () -> manager[0].hints.stream().anyMatch(h -> h instanceof MissHint));
            assertEquals("riptide; hit; detail=private", cacheStatus(get(proxy, origin.url("/page"))));
            Thread.sleep(300);
            assertEquals(1, manager[0].hints.size(), "one hint, no seen hint: " + manager[0].hints);
        }
    }
}
