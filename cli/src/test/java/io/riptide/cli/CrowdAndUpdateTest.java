package io.riptide.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.riptide.cli.demo.LoopbackRiptide;
import io.riptide.core.http.CanonicalUrl;
import io.riptide.core.id.Id;
import io.riptide.core.object.CachedCopy;
import io.riptide.core.object.ObjectNames;
import io.riptide.dolr.server.OverlayServer;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Over real TCP through the real browser proxy: a flash crowd for one URL makes the cache manager ask
 * the gateway once, and the gateway fetch it once; and a change at the origin reaches every replica through the object's dissemination tree.
 */
class CrowdAndUpdateTest {
    private static final String GATEWAY_AGENT = "Riptide-Gateway";

    @Test
    void aFlashCrowdOfFiveHundredRequestsMakesTheGatewayFetchOnceAndThenAllHit() throws Exception {
        AtomicInteger gatewayFetches = new AtomicInteger();
        HttpServer origin = origin(gatewayFetches, new String[] {"the hot document"});
        try (LoopbackRiptide riptide = new LoopbackRiptide(3, 1, 0, LoopbackRiptide.OVERLAY_ONLY)) {
            HttpClient client = HttpClient.newBuilder().proxy(ProxySelector.of(riptide.proxyAddress())).build();
            URI url = URI.create("http://127.0.0.1:" + origin.getAddress().getPort() + "/hot");
            List<CompletableFuture<HttpResponse<String>>> crowd = new ArrayList<>();
            for (int i = 0; i < 500; i++) {
                crowd.add(client.sendAsync(HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(30)).build(),
                        HttpResponse.BodyHandlers.ofString()));
            }
            for (CompletableFuture<HttpResponse<String>> r : crowd) {
                HttpResponse<String> response = r.get(60, TimeUnit.SECONDS);
                assertEquals(200, response.statusCode());
                assertEquals("the hot document", response.body());
            }
            assertTrue(riptide.makeHit(url, Duration.ofSeconds(15)));
            Thread.sleep(500);
            assertEquals(1, gatewayFetches.get(), "the crowd's miss hints made the gateway fetch the document once");
            long hints = riptide.cacheManager().call(n -> riptide.cacheManagerAgent().hints()).get(5, TimeUnit.SECONDS);
            long requests = riptide.cacheManager().call(n -> riptide.cacheManagerAgent().gateway().sent()).get(5, TimeUnit.SECONDS);
            assertTrue(hints >= 1, "the proxy's hints reached the cache manager");
            assertEquals(1, requests, "which asked the gateway once");
        } finally {
            origin.stop(0);
        }
    }

    @Test
    void aChangeAtTheOriginReachesEveryReplicaThroughTheTree() throws Exception {
        String[] body = {"first edition"};
        HttpServer origin = origin(new AtomicInteger(), body);
        try (LoopbackRiptide riptide = new LoopbackRiptide(5, 1, 0, LoopbackRiptide.OVERLAY_ONLY)) {
            URI url = URI.create("http://127.0.0.1:" + origin.getAddress().getPort() + "/news");
            assertTrue(riptide.makeHit(url, Duration.ofSeconds(15)));
            Id guid = ObjectNames.objectGuid(riptide.provider().publicKey(), CanonicalUrl.of(url.toString()).value(), "");
            // Replicas on every storage node, each copied from the nearest replica and attached under it (as a
            // cache manager places them on its own node).
            for (OverlayServer node : riptide.storageNodes()) {
                CompletableFuture<Boolean> joined = new CompletableFuture<>();
                node.call(n -> {
                    n.read(guid, 16, r -> {
                        if (r.found() && !r.replica().id().equals(n.self().id())) {
                            n.storeReplica(guid, r.data());
                            n.joinTree(guid, r.replica());
                        }
                        joined.complete(r.found());
                    });
                    return null;
                });
                assertTrue(joined.get(20, TimeUnit.SECONDS));
                Thread.sleep(200);
            }
            List<OverlayServer> holders = new ArrayList<>();
            for (OverlayServer s : riptide.all()) {
                if (s.call(n -> n.replicas().contains(guid)).get(5, TimeUnit.SECONDS)) {
                    holders.add(s);
                }
            }
            assertTrue(holders.size() >= 2, "replicas besides the primary: " + holders.size());

            body[0] = "second edition";
            // A proxy found it stale: the gateway re-checks, signs version 2 and pushes it down the tree. (For a few
            // seconds after an insert the gateway answers re-checks with that insert's result; wait that out.)
            Thread.sleep(5500);
            long changed = System.nanoTime();
            refreshThroughGateway(riptide, url);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            long allUpdated = -1;
            while (System.nanoTime() < deadline && allUpdated < 0) {
                boolean all = true;
                for (OverlayServer s : holders) {
                    byte[] data = s.call(n -> n.replicas().get(guid).join()).get(5, TimeUnit.SECONDS);
                    CachedCopy copy = CachedCopy.fromBytes(data, 1 << 20);
                    all &= copy.object().certificate().version() == 2;
                }
                if (all) {
                    allUpdated = System.nanoTime();
                } else {
                    Thread.sleep(20);
                }
            }
            assertTrue(allUpdated > 0, "every replica got version 2");
            for (OverlayServer s : holders) {
                byte[] data = s.call(n -> n.replicas().get(guid).join()).get(5, TimeUnit.SECONDS);
                assertArrayEquals("second edition".getBytes(StandardCharsets.UTF_8),
                        CachedCopy.fromBytes(data, 1 << 20).object().response().body());
            }
            System.out.printf("update from the gateway's re-check to all %d replicas: %.1f ms%n", holders.size(), (allUpdated - changed) / 1e6);
        } finally {
            origin.stop(0);
        }
    }

    /** Asks the gateway to re-fetch {@code url} (what a cache manager does on a staleness hint). */
    private static void refreshThroughGateway(LoopbackRiptide riptide, URI url) throws Exception {
        CompletableFuture<io.riptide.gateway.insert.InsertResult> done = new CompletableFuture<>();
        riptide.gateway().call(n -> {
            riptide.gatewayAgent().inserter().refresh(url.toString(), io.riptide.core.http.Headers.EMPTY, done::complete);
            return null;
        });
        io.riptide.gateway.insert.InsertResult r = done.get(20, TimeUnit.SECONDS);
        assertEquals(io.riptide.core.gateway.GatewayMessages.Outcome.INSERTED, r.outcome(), r.reason());
        assertEquals(2, r.version(), r.reason());
    }

    private static HttpServer origin(AtomicInteger gatewayFetches, String[] body) throws Exception {
        System.setProperty("sun.net.httpserver.nodelay", "true");
        HttpServer origin = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 512);
        origin.setExecutor(java.util.concurrent.Executors.newFixedThreadPool(8));
        origin.createContext("/", exchange -> {
            String agent = exchange.getRequestHeaders().getFirst("User-Agent");
            if (agent != null && agent.startsWith(GATEWAY_AGENT)) {
                gatewayFetches.incrementAndGet();
            }
            byte[] b = body[0].getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Cache-Control", "max-age=60");
            exchange.sendResponseHeaders(200, b.length);
            exchange.getResponseBody().write(b);
            exchange.close();
        });
        origin.start();
        return origin;
    }
}
