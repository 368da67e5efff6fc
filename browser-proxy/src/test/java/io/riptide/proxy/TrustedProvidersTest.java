package io.riptide.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.nio.NioEventLoopGroup;
import io.riptide.core.crypto.PublicKey;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.gateway.GatewayMessages.InsertRequest;
import io.riptide.core.http.CanonicalUrl;
import io.riptide.core.http.Headers;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.testing.Await;
import io.riptide.dolr.DolrCodec;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.client.OverlayClient;
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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A proxy trusting two providers: each provider's gateway inserted its own URL into one overlay on
 * loopback; the proxy that trusts both serves both from the overlay, one that trusts a single provider
 * serves the other's URL from the origin.
 */
@Timeout(90)
class TrustedProvidersTest {
    private static final DolrConfig FAST = DolrConfig.defaults().withMaintenance(Duration.ofMillis(500), Duration.ofSeconds(2),
            Duration.ofSeconds(3), Duration.ofSeconds(2));
    private static final SigningKey NEWS = SigningKey.generate(new SecureRandom());
    private static final SigningKey SHOP = SigningKey.generate(new SecureRandom());
    private static NioEventLoopGroup group;
    private static OriginFetcher fetcher;
    private static TestOrigin origin;
    private static final List<OverlayServer> NODES = new ArrayList<>();
    private static OverlayClient inserter;

    @BeforeAll
    static void start() throws Exception {
        origin = new TestOrigin()
                .route("/news", x -> {
                    x.getResponseHeaders().set("Cache-Control", "max-age=600");
                    TestOrigin.send(x, 200, "the news");
                })
                .route("/shop", x -> {
                    x.getResponseHeaders().set("Cache-Control", "max-age=600");
                    TestOrigin.send(x, 200, "the shop");
                });
        group = new NioEventLoopGroup(4);
        // The test's origin is on loopback, which a gateway refuses unless allowed to fetch private origins.
        fetcher = new OriginFetcher(group, OriginFetcherConfig.defaults().withPrivateOrigins(true), OriginTls.systemDefault(),
                Clock.systemUTC());
        OverlayServer first = OverlayServer.start(settings(null), group);
        assertTrue(first.awaitJoined(Duration.ofSeconds(10)));
        NODES.add(first);
        NODES.add(OverlayServer.start(settings(first.address()), group));
        for (SigningKey provider : List.of(NEWS, SHOP)) {
            NODES.add(OverlayServer.start(settings(first.address())
                    .withApplication(Gateway.factory(provider, fetcher::fetch, GatewayConfig.defaults()), DolrCodec.create()), group));
        }
        for (OverlayServer s : NODES) {
            assertTrue(s.awaitJoined(Duration.ofSeconds(20)));
        }
        Thread.sleep(1500);
        inserter = OverlayClient.start(SigningKey.generate(new SecureRandom()), List.of(first.address()), Duration.ofSeconds(3), group);
        assertTrue(inserter.awaitAttached(Duration.ofSeconds(10)));
        // Each provider's own gateway inserts its own URL, and only that one.
        insert(NEWS, "/news");
        insert(SHOP, "/shop");
    }

    private static ServerSettings settings(NodeAddress join) {
        return ServerSettings.of(SigningKey.generate(new SecureRandom()), new NodeAddress("127.0.0.1", 0)).joining(join).withDolr(FAST);
    }

    private static void insert(SigningKey provider, String path) throws Exception {
        String url = CanonicalUrl.of(origin.url(path)).value();
        inserter.anycast(ObjectNames.gatewayGuid(provider.publicKey()), new InsertRequest(0, url, Headers.EMPTY, false), 8);
        Await.until(Duration.ofSeconds(20), path + " is in the overlay under its provider's key",
                () -> inserter.read(ObjectNames.objectGuid(provider.publicKey(), url, ""), 8).join().found());
    }

    @AfterAll
    static void stop() {
        inserter.close();
        NODES.forEach(OverlayServer::close);
        fetcher.close();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        origin.close();
    }

    private static RiptideProxy proxy(PublicKey... trusted) throws InterruptedException {
        RiptideProxy proxy = RiptideProxy.start(ProxyConfig.builder().port(0).build(), List.of(NODES.get(0).address()),
                List.of(trusted), OverlayCacheConfig.defaults());
        assertTrue(proxy.awaitAttached(Duration.ofSeconds(10)));
        return proxy;
    }

    private static HttpResponse<String> get(RiptideProxy proxy, String path) throws Exception {
        HttpClient client = HttpClient.newBuilder().proxy(ProxySelector.of(proxy.server().address())).build();
        return client.send(HttpRequest.newBuilder(URI.create(origin.url(path))).timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aProxyTrustingBothProvidersServesEachOnesUrlFromTheOverlay() throws Exception {
        // Counted are the proxy's own trips to the origin: a gateway refreshing a copy in the
        // background (after the other test's miss hint) may fetch meanwhile, and is no miss here.
        int before = origin.proxied.get();
        try (RiptideProxy both = proxy(NEWS.publicKey(), SHOP.publicKey())) {
            HttpResponse<String> news = get(both, "/news");
            assertEquals("riptide; hit", news.headers().firstValue("Cache-Status").orElse(""), news.headers().map().toString());
            assertEquals("the news", news.body());
            HttpResponse<String> shop = get(both, "/shop");
            assertEquals("riptide; hit", shop.headers().firstValue("Cache-Status").orElse(""), "the secondary provider's copy");
            assertEquals("the shop", shop.body());
        }
        assertEquals(before, origin.proxied.get(), "both came from the overlay");
    }

    @Test
    void aProxyTrustingOneProviderServesTheOthersUrlFromTheOrigin() throws Exception {
        try (RiptideProxy shopOnly = proxy(SHOP.publicKey())) {
            assertEquals("riptide; hit", get(shopOnly, "/shop").headers().firstValue("Cache-Status").orElse(""));
            int before = origin.proxied.get();
            HttpResponse<String> news = get(shopOnly, "/news");
            assertEquals("the news", news.body());
            assertTrue(news.headers().firstValue("Cache-Status").orElse("").startsWith("riptide; fwd=miss"),
                    news.headers().map().toString());
            assertEquals(before + 1, origin.proxied.get(), "the untrusted provider's copy is not used");
        }
    }
}
