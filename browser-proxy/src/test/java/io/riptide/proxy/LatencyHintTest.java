package io.riptide.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.hint.HintMessages.LatencyHint;
import io.riptide.core.http.CanonicalUrl;
import io.riptide.core.id.Id;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.testing.Await;
import io.riptide.proxy.cache.OverlayCacheConfig;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A hit slower than the proxy's threshold sends a latency hint to the nearest cache manager, and a fast hit does
 * not. The overlay is one real node, which is the proxy's access node, holds the object and offers the
 * cache-manager service with an agent that records the hints it gets; the node is made slow by keeping its loop
 * busy while the proxy reads.
 */
@Timeout(60)
class LatencyHintTest {
    private static final Duration SLOW_HIT = Duration.ofSeconds(1);

    @Test
    void aHitSlowerThanTheThresholdSendsALatencyHintAndAFastOneDoesNot() throws Exception {
        @SuppressWarnings("unchecked")
        RecordingManager<LatencyHint>[] manager = new RecordingManager[1];
        try (TestOrigin origin = new TestOrigin().route("/page", x -> TestOrigin.send(x, 200, "from the origin"));
                OneNodeOverlay overlay = new OneNodeOverlay((n, provider) ->
                        manager[0] = new RecordingManager<>(n, ObjectNames.cacheManagerGuid(provider), LatencyHint.class))) {
            Id guid = overlay.store(origin.url("/page"), "from the overlay");
            OverlayCacheConfig defaults = OverlayCacheConfig.defaults();
            // Overlay reads each time (no memory tier): a memory hit is never slow, and never hinted.
            OverlayCacheConfig config = new OverlayCacheConfig(defaults.ttl(), SLOW_HIT, defaults.hintInterval(),
                    defaults.maxBodyBytes(), defaults.verifyQueue()).withMemory(0, defaults.memoryRecheck());
            try (RiptideProxy proxy = overlay.proxy(config)) {
                HttpClient client = HttpClient.newBuilder().proxy(ProxySelector.of(proxy.server().address())).build();
                HttpRequest get = HttpRequest.newBuilder(URI.create(origin.url("/page"))).timeout(Duration.ofSeconds(20)).build();

                HttpResponse<String> fast = client.send(get, HttpResponse.BodyHandlers.ofString());
                assertEquals("riptide; hit", fast.headers().firstValue("Cache-Status").orElse(""), fast.headers().map().toString());

                // The access node is busy for longer than the threshold, so the read waits for it (well within the
                // 3 s read deadline, after which it would be a miss instead).
                overlay.busyFor(SLOW_HIT.plusMillis(500));
                HttpResponse<String> slow = client.send(get, HttpResponse.BodyHandlers.ofString());
                assertEquals("riptide; hit", slow.headers().firstValue("Cache-Status").orElse(""), slow.headers().map().toString());
                assertEquals("from the overlay", slow.body());

                Await.until(Duration.ofSeconds(10), "the cache manager gets a latency hint", () -> !manager[0].hints.isEmpty());
                // The fast hit's hint, had there been one, was sent earlier over the same connection and would be here.
                assertEquals(1, manager[0].hints.size(), "only the slow hit is hinted: " + manager[0].hints);
                LatencyHint hint = manager[0].hints.get(0);
                assertEquals(CanonicalUrl.of(origin.url("/page")).value(), hint.url());
                assertEquals(guid, hint.guid());
                assertTrue(hint.latencyMicros() >= SLOW_HIT.toNanos() / 1000, "reported latency " + hint.latencyMicros() + " µs");
                assertEquals(0, origin.requests.get(), "both hits came from the overlay");
            }
        }
    }
}
