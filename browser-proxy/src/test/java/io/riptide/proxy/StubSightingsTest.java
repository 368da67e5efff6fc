package io.riptide.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.gateway.GatewayMessages.InsertReply;
import io.riptide.core.gateway.GatewayMessages.InsertRequest;
import io.riptide.core.gateway.GatewayMessages.Outcome;
import io.riptide.core.hint.HintMessages.MissHint;
import io.riptide.core.hint.HintMessages.SeenHint;
import io.riptide.core.hint.HintMessages.SightingAnswer;
import io.riptide.core.hint.HintMessages.SightingAsk;
import io.riptide.core.http.Headers;
import io.riptide.core.id.Id;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.wire.WireMessage;
import io.riptide.dolr.OverlayApplication;
import io.riptide.dolr.OverlayNode;
import io.riptide.proxy.cache.InsertPolicy;
import io.riptide.proxy.cache.OverlayCacheConfig;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The second-sight-through-gateway policy over TCP, as proxies that are not overlay members use it (their access
 * node relays each question and its answer): on a miss the proxy asks the stub's manager whether
 * the URL was seen there; the first sighting it fetches itself and keeps; a second proxy, told
 * "seen", has the gateway fetch it, and that one fetch both answers the user and inserts it, so a
 * third proxy hits and the origin saw two fetches for three proxies' first requests (three fetches
 * and an insert before). A gateway that cannot help leaves the proxy to fetch it itself.
 */
@Timeout(60)
class StubSightingsTest {
    private static final OverlayCacheConfig POLICY = OverlayCacheConfig.defaults().withInsertPolicy(InsertPolicy.SECOND_SIGHT_THROUGH_GATEWAY);

    /** A stand-in cache manager and gateway on the one node: answers sightings, and inserts by fetching and storing a signed copy. */
    private static final class ManagerAndGateway implements OverlayApplication {
        final List<WireMessage> heard = new CopyOnWriteArrayList<>();
        private final OverlayNode node;
        private final Id managers;
        private final Id gateways;
        private final Set<String> seen = new HashSet<>();
        private final ExecutorService fetcher = Executors.newSingleThreadExecutor();
        OneNodeOverlay overlay;
        /** Whether inserts answer a proxy that asks for it with the copy (else the proxy reads it back). */
        boolean sendsCopies;

        ManagerAndGateway(OverlayNode node, io.riptide.core.crypto.PublicKey provider) {
            this.node = node;
            this.managers = ObjectNames.cacheManagerGuid(provider);
            this.gateways = ObjectNames.gatewayGuid(provider);
        }

        @Override
        public void onJoined() {
            node.offerService(managers);
            node.offerService(gateways);
        }

        @Override
        public void deliverToObject(Id guid, WireMessage payload, NodeHandle requester, long requestId, int hops) {
            heard.add(payload);
            if (payload instanceof SightingAsk a) {
                node.send(requester.address(), new SightingAnswer(a.requestId(), seen.add(a.url())));
            } else if (payload instanceof InsertRequest r) {
                // As a gateway does: fetch from the origin, sign, store, then answer.
                fetcher.execute(() -> {
                    InsertReply reply;
                    try {
                        HttpResponse<String> fetched = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(r.url()))
                                .build(), HttpResponse.BodyHandlers.ofString());
                        long now = System.currentTimeMillis();
                        Headers headers = Headers.of("Cache-Control", "max-age=600", "Content-Type", "text/plain");
                        // A gateway of this build sends the copy back to a proxy that waits for it; the read-back
                        // path (an older gateway, a variant) is what the other test's second sighting takes.
                        reply = fetched.statusCode() == 200
                                ? new InsertReply(r.requestId(), r.url(), overlay.store(r.url(), fetched.body(), headers, now), 1,
                                        Outcome.INSERTED, "", sendsCopies && r.wantsCopy()
                                                ? overlay.signedCopy(r.url(), fetched.body(), headers, now) : null)
                                : new InsertReply(r.requestId(), r.url(), Id.ZERO, 0, Outcome.ORIGIN_FAILED, "origin said " + fetched.statusCode());
                    } catch (Exception e) {
                        reply = new InsertReply(r.requestId(), r.url(), Id.ZERO, 0, Outcome.ORIGIN_FAILED, e.toString());
                    }
                    InsertReply answer = reply;
                    overlay.node.call(n -> {
                        n.send(requester.address(), answer);
                        return null;
                    });
                });
            }
        }
    }

    private static HttpResponse<String> get(RiptideProxy proxy, String url) throws Exception {
        HttpClient client = HttpClient.newBuilder().proxy(ProxySelector.of(proxy.server().address())).build();
        return client.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String cacheStatus(HttpResponse<?> r) {
        return r.headers().firstValue("Cache-Status").orElse("");
    }

    @Test
    void theSecondSightingInTheStubIsFetchedByTheGatewayWhichInsertsItWithThatOneFetch() throws Exception {
        ManagerAndGateway[] app = new ManagerAndGateway[1];
        try (TestOrigin origin = new TestOrigin().route("/page", x -> {
                    x.getResponseHeaders().set("Cache-Control", "max-age=600");
                    TestOrigin.send(x, 200, "the page, 0123456789");
                }).route("/flaky", x -> {
                    x.getResponseHeaders().set("Cache-Control", "max-age=600");
                    if (x.getRequestHeaders().containsKey("Via")) {
                        TestOrigin.send(x, 200, "fetched");
                    } else {
                        TestOrigin.send(x, 503, "down for the gateway");
                    }
                });
                OneNodeOverlay overlay = new OneNodeOverlay((n, provider) -> app[0] = new ManagerAndGateway(n, provider));
                RiptideProxy a = overlay.proxy(POLICY);
                RiptideProxy b = overlay.proxy(POLICY);
                RiptideProxy c = overlay.proxy(POLICY)) {
            app[0].overlay = overlay;
            HttpResponse<String> first = get(a, origin.url("/page"));
            assertEquals("the page, 0123456789", first.body());
            assertEquals("riptide; fwd=miss; detail=not-found", cacheStatus(first), "the stub's first sighting: fetched here");
            assertEquals(1, origin.requests.get());

            HttpResponse<String> second = get(b, origin.url("/page"));
            assertEquals("the page, 0123456789", second.body());
            assertEquals("riptide; fwd=miss; detail=gateway", cacheStatus(second), "the second: fetched by the gateway");
            assertEquals(2, origin.requests.get(), "the gateway's one fetch answered it and inserted it");

            HttpResponse<String> third = get(c, origin.url("/page"));
            assertEquals("the page, 0123456789", third.body());
            assertEquals("riptide; hit", cacheStatus(third), "a third proxy reads the inserted copy");
            assertEquals("riptide; hit; detail=private", cacheStatus(get(a, origin.url("/page"))), "the first proxy's own repeat");
            assertEquals(2, origin.requests.get(), "two origin fetches for four requests at three proxies");
            assertTrue(app[0].heard.stream().noneMatch(m -> m instanceof MissHint || m instanceof SeenHint),
                    "no hint asks for a second insert: " + app[0].heard);
            String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + b.server().address().getPort() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
            assertTrue(metrics.contains("riptide_proxy_sightings_total{answer=\"seen\"} 1"), metrics);
            assertTrue(metrics.contains("riptide_proxy_gateway_fetches_total{outcome=\"inserted\"} 1"), metrics);
            assertTrue(metrics.contains("riptide_proxy_gateway_copies_total 0"), "no copy in the reply: read back " + metrics);

            // A gateway that cannot insert it (the origin answers the gateway's fetch, which carries no Via, with an
            // error) leaves the proxy to fetch it itself.
            int before = origin.requests.get();
            assertEquals("fetched", get(a, origin.url("/flaky")).body());
            HttpResponse<String> fallback = get(b, origin.url("/flaky"));
            assertEquals("fetched", fallback.body());
            assertEquals("riptide; fwd=miss; detail=not-found", cacheStatus(fallback));
            assertEquals(before + 3, origin.requests.get(), "the first proxy's fetch, the gateway's failed one, the second proxy's");
        }
    }

    @Test
    void underThroughGatewayEveryMissIsTheGatewaysOneFetch() throws Exception {
        ManagerAndGateway[] app = new ManagerAndGateway[1];
        OverlayCacheConfig config = OverlayCacheConfig.defaults().withInsertPolicy(InsertPolicy.THROUGH_GATEWAY);
        try (TestOrigin origin = new TestOrigin().route("/page", x -> {
                    x.getResponseHeaders().set("Cache-Control", "max-age=600");
                    TestOrigin.send(x, 200, "the page");
                });
                OneNodeOverlay overlay = new OneNodeOverlay((n, provider) -> app[0] = new ManagerAndGateway(n, provider));
                RiptideProxy a = overlay.proxy(config);
                RiptideProxy b = overlay.proxy(config)) {
            app[0].overlay = overlay;
            app[0].sendsCopies = true;
            HttpResponse<String> first = get(a, origin.url("/page"));
            assertEquals("the page", first.body());
            assertEquals("riptide; fwd=miss; detail=gateway", cacheStatus(first));
            String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + a.server().address().getPort() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
            assertTrue(metrics.contains("riptide_proxy_gateway_copies_total 1"), "the gateway's reply carried the copy: " + metrics);
            assertTrue(metrics.contains("riptide_proxy_gateway_copies_failed_total 0"), metrics);
            assertEquals("riptide; hit", cacheStatus(get(b, origin.url("/page"))));
            assertEquals(1, origin.requests.get(), "the gateway's one fetch, and no proxy's");
            assertEquals(0, origin.proxied.get());
            assertTrue(app[0].heard.stream().noneMatch(m -> m instanceof SightingAsk), "no manager is asked");
        }
    }
}
