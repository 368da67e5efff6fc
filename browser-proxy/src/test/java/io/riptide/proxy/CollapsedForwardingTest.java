package io.riptide.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A crowd of misses for one URL through the proxy: while one request fetches it from the origin the others wait, and
 * are answered with the same response when a shared cache may reuse it; otherwise each goes to the origin itself.
 */
class CollapsedForwardingTest {
    private static final int CROWD = 200;
    private final CountDownLatch originMayAnswer = new CountDownLatch(1);
    private TestOrigin origin;
    private ProxyServer proxy;

    @AfterEach
    void tearDown() throws Exception {
        originMayAnswer.countDown();
        if (proxy != null) {
            proxy.close();
        }
        if (origin != null) {
            origin.close();
        }
    }

    private void start(String cacheControl) throws Exception {
        origin = new TestOrigin().route("/hot", x -> {
            try {
                // Held until the whole crowd has arrived at the proxy.
                originMayAnswer.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            x.getResponseHeaders().set("Cache-Control", cacheControl);
            TestOrigin.send(x, 200, "the hot page");
        });
        proxy = ProxyServer.start(ProxyConfig.builder().host("127.0.0.1").port(0).build(), CacheLookup.NONE);
    }

    private List<HttpResponse<String>> crowd(int size) throws Exception {
        HttpClient client = HttpClient.newBuilder().proxy(ProxySelector.of(proxy.address())).build();
        List<CompletableFuture<HttpResponse<String>>> pending = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            pending.add(client.sendAsync(HttpRequest.newBuilder(URI.create(origin.url("/hot")))
                    .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString()));
        }
        // Every request is at the proxy, one of them at the origin: then the origin answers.
        for (int i = 0; i < 500 && origin.requests.get() == 0; i++) {
            Thread.sleep(10);
        }
        Thread.sleep(300);
        originMayAnswer.countDown();
        List<HttpResponse<String>> answers = new ArrayList<>();
        for (CompletableFuture<HttpResponse<String>> p : pending) {
            answers.add(p.get(30, TimeUnit.SECONDS));
        }
        return answers;
    }

    @Test
    void aCrowdForAPageASharedCacheMayReuseCostsTheOriginOneFetch() throws Exception {
        start("max-age=60");
        List<HttpResponse<String>> answers = crowd(CROWD);
        long collapsed = 0;
        for (HttpResponse<String> r : answers) {
            assertEquals(200, r.statusCode(), r.body());
            assertEquals("the hot page", r.body());
            if (r.headers().firstValue("Cache-Status").orElse("").contains("collapsed")) {
                collapsed++;
            }
        }
        assertTrue(origin.requests.get() < CROWD / 10,
                "the origin was asked " + origin.requests.get() + " times for a crowd of " + CROWD);
        assertTrue(collapsed >= CROWD - origin.requests.get(), collapsed + " answered from another's fetch");
    }

    @Test
    void aPrivateAnswerIsNotSharedEachRequestFetchesItsOwn() throws Exception {
        start("private, max-age=60");
        // As many as the proxy's connections to the origin on one event loop, so none waits for a connection.
        int crowd = ProxyConfig.builder().build().upstreamConnectionsPerOrigin();
        for (HttpResponse<String> r : crowd(crowd)) {
            assertEquals(200, r.statusCode(), r.body());
            assertEquals("the hot page", r.body());
            assertTrue(!r.headers().firstValue("Cache-Status").orElse("").contains("collapsed"));
        }
        assertEquals(crowd, origin.requests.get(), "every request got its own fetch of a private page");
    }

    @Test
    void onceAnAnswerCouldNotBeSharedTheNextCrowdForThatUrlDoesNotWait() throws Exception {
        start("max-age=60");
        int crowd = 4;
        java.util.concurrent.atomic.AtomicInteger asked = new java.util.concurrent.atomic.AtomicInteger();
        CountDownLatch together = new CountDownLatch(crowd);
        origin.route("/api", x -> {
            boolean met = true;
            if (asked.getAndIncrement() > 0) {
                // Answered only once the whole crowd is at the origin at once, which waiting requests never are.
                together.countDown();
                try {
                    met = together.await(5, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            x.getResponseHeaders().set("Cache-Control", "no-store");
            TestOrigin.send(x, 200, met ? "together" : "alone");
        });
        HttpClient client = HttpClient.newBuilder().proxy(ProxySelector.of(proxy.address())).build();
        // The first answer for /api: not to be shared.
        assertEquals("together", client.send(HttpRequest.newBuilder(URI.create(origin.url("/api"))).build(),
                HttpResponse.BodyHandlers.ofString()).body());
        List<CompletableFuture<HttpResponse<String>>> pending = new ArrayList<>();
        for (int i = 0; i < crowd; i++) {
            pending.add(client.sendAsync(HttpRequest.newBuilder(URI.create(origin.url("/api"))).timeout(Duration.ofSeconds(20))
                    .build(), HttpResponse.BodyHandlers.ofString()));
        }
        for (CompletableFuture<HttpResponse<String>> p : pending) {
            HttpResponse<String> r = p.get(30, TimeUnit.SECONDS);
            assertEquals(200, r.statusCode(), r.body());
            assertEquals("together", r.body(), "no request waited for another's fetch of a URL known not to be shared");
        }
    }

    @Test
    void aRequestThatLedItsFetchIsNotSentAgainWhenTheWaitersDeadlinePasses() throws Exception {
        origin = new TestOrigin().route("/slow", x -> {
            try {
                Thread.sleep(600); // longer than the connect timeout below, which bounds how long a waiter waits
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            x.getResponseHeaders().set("Cache-Control", "max-age=60");
            TestOrigin.send(x, 200, "slow page");
        });
        proxy = ProxyServer.start(ProxyConfig.builder().host("127.0.0.1").port(0).connectTimeout(Duration.ofMillis(200))
                .build(), CacheLookup.NONE);
        HttpClient client = HttpClient.newBuilder().proxy(ProxySelector.of(proxy.address())).build();
        for (int i = 0; i < 2; i++) {
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(origin.url("/slow"))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            assertEquals("slow page", r.body());
        }
        Thread.sleep(300);
        assertEquals(2, origin.requests.get(), "each request fetched once");
    }
}
