package io.riptide.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.riptide.proxy.cache.OverlayCacheConfig;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The overlay read deadline is the one configured: an access node that does not answer costs at most that long
 * before the origin is asked, and a node slower than the default deadline but within a longer configured one is
 * waited for. The node holds a fresh copy throughout, so an answered read is always a hit.
 */
@Timeout(60)
class ReadDeadlineTest {
    private static HttpResponse<String> fetch(RiptideProxy proxy, String url) throws Exception {
        HttpClient client = HttpClient.newBuilder().proxy(ProxySelector.of(proxy.server().address())).build();
        return client.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aBlackHoledAccessNodeGivesWayToTheOriginAfterTheDeadline() throws Exception {
        CountDownLatch originAsked = new CountDownLatch(1);
        try (TestOrigin origin = new TestOrigin().route("/page", x -> {
                    originAsked.countDown();
                    TestOrigin.send(x, 200, "from the origin");
                });
                OneNodeOverlay overlay = new OneNodeOverlay()) {
            overlay.store(origin.url("/page"), "from the overlay");
            try (RiptideProxy proxy = overlay.proxy(OverlayCacheConfig.defaults().withReadDeadline(Duration.ofMillis(200)))) {
                // The node answers nothing until the origin has been asked: the proxy must give up on it first.
                overlay.busyUntil(originAsked);
                HttpResponse<String> r = fetch(proxy, origin.url("/page"));
                assertEquals(200, r.statusCode());
                assertEquals("from the origin", r.body());
                assertEquals("riptide; fwd=miss; detail=timeout", r.headers().firstValue("Cache-Status").orElse(""));
                assertEquals(1, origin.requests.get());
            } finally {
                originAsked.countDown();
            }
        }
    }

    @Test
    void aLongerDeadlineWaitsOutANodeSlowerThanTheDefault() throws Exception {
        Duration busy = OverlayCacheConfig.DEFAULT_READ_DEADLINE.plusSeconds(1);
        try (TestOrigin origin = new TestOrigin().route("/page", x -> TestOrigin.send(x, 200, "from the origin"));
                OneNodeOverlay overlay = new OneNodeOverlay()) {
            overlay.store(origin.url("/page"), "from the overlay");
            try (RiptideProxy proxy = overlay.proxy(OverlayCacheConfig.defaults().withReadDeadline(Duration.ofSeconds(15)))) {
                // With the default deadline this read would time out and go to the origin.
                overlay.busyFor(busy);
                HttpResponse<String> r = fetch(proxy, origin.url("/page"));
                assertEquals("from the overlay", r.body());
                assertEquals("riptide; hit", r.headers().firstValue("Cache-Status").orElse(""));
                assertEquals(0, origin.requests.get());
            }
        }
    }
}
