package io.riptide.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.riptide.core.http.Headers;
import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.dolr.client.AccessFigures;
import io.riptide.dolr.server.OverlayServer;
import io.riptide.dolr.server.ServerSettings;
import io.riptide.core.crypto.SigningKey;
import io.riptide.proxy.cache.OverlayCacheConfig;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The proxy reads through two overlay nodes, each holding the copy; the nearest crashes (no goodbye, its sockets
 * closed, as after {@code kill -9}). Every read after that is a hit through the other node, none waits out the read
 * deadline (a read that did would be a miss, and go to the origin), and the dead node is listed as down, not as an
 * access node in use.
 */
@Timeout(90)
class AccessNodeFailoverTest {
    private static final int READS = 30;
    private static final Duration WAIT = Duration.ofSeconds(15);

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                fail("timed out after " + WAIT + " waiting for: " + what);
            }
            Thread.sleep(20);
        }
    }

    @Test
    void afterTheNearestAccessNodeCrashesEveryReadIsAHitThroughTheOtherAndTheDeadNodeIsListedDown() throws Exception {
        try (TestOrigin origin = new TestOrigin().route("/page", x -> TestOrigin.send(x, 200, "from the origin"));
                OneNodeOverlay overlay = new OneNodeOverlay();
                OverlayServer second = OverlayServer.start(ServerSettings.of(SigningKey.generate(new SecureRandom()),
                        new NodeAddress("127.0.0.1", 0)).joining(overlay.node.address()))) {
            assertTrue(second.awaitJoined(Duration.ofSeconds(10)));
            String url = origin.url("/page");
            Id guid = overlay.store(url, "from the overlay");
            byte[] copy = overlay.signedCopy(url, "from the overlay",
                    Headers.of("Cache-Control", "max-age=600", "Content-Type", "text/plain"), System.currentTimeMillis());
            assertTrue(second.storeReplica(guid, copy).get(5, TimeUnit.SECONDS));
            List<OverlayServer> nodes = List.of(overlay.node, second);

            // Memory tier off: every hit is an overlay read. A deadline long enough that a read waiting on a dead node
            // could only be rescued by a hedge (at most a quarter of it) or a re-send, never by its own end.
            OverlayCacheConfig config = OverlayCacheConfig.defaults().withMemory(0, Duration.ofSeconds(2))
                    .withReadDeadline(Duration.ofSeconds(10));
            try (RiptideProxy proxy = RiptideProxy.start(ProxyConfig.builder().port(0).build(),
                    List.of(overlay.node.address(), second.address()), List.of(overlay.provider.publicKey()), config)) {
                await("both nodes in use as access nodes", () -> proxy.accessNodes().size() == 2);
                HttpClient browser = HttpClient.newBuilder().proxy(ProxySelector.of(proxy.server().address())).build();
                HttpRequest get = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build();
                assertEquals("riptide; hit", browser.send(get, HttpResponse.BodyHandlers.ofString()).headers()
                        .firstValue("Cache-Status").orElse(""));

                AccessFigures before = proxy.inspect(c -> c.figures().access(), null);
                NodeHandle nearest = proxy.accessNodes().get(0);
                nodes.stream().filter(n -> n.address().equals(nearest.address())).findFirst().orElseThrow().crash();
                long hitsBefore = proxy.server().stats().hits();
                long missesBefore = proxy.server().stats().misses();

                for (int i = 0; i < READS; i++) {
                    HttpResponse<String> r = browser.send(get, HttpResponse.BodyHandlers.ofString());
                    assertEquals("from the overlay", r.body(), "read " + i + " after the crash");
                    assertEquals("riptide; hit", r.headers().firstValue("Cache-Status").orElse(""), "read " + i + " after the crash");
                }
                await("every answer counted", () -> proxy.server().stats().hits() - hitsBefore == READS);
                assertEquals(0, proxy.server().stats().misses() - missesBefore, "no read waited out the deadline");
                assertEquals(0, origin.requests.get(), "nothing went to the origin");

                assertFalse(proxy.accessNodes().contains(nearest), "the dead node is no longer an access node in use");
                AccessFigures access = proxy.inspect(c -> c.figures().access(), AccessFigures.NONE);
                assertEquals(List.of(nearest), access.down(), "it is listed down");
                assertEquals(1, access.nodesLost() - before.nodesLost());
                // Nor did any wait for a hedge: each went straight to the live node, or on at once when the connection
                // closed (a hedge would come only after a quarter of the deadline here, nothing being measured yet).
                assertEquals(0, access.readsHedged() - before.readsHedged(), "reads hedged after the crash");
                String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                        + proxy.server().address().getPort() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
                assertTrue(metrics.contains("riptide_proxy_access_nodes 1\n"), metrics);
                assertTrue(metrics.contains("riptide_proxy_access_nodes_down 1\n"), metrics);
            }
        }
    }
}
