package io.riptide.proxy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.netty.channel.nio.NioEventLoopGroup;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.http.CanonicalUrl;
import io.riptide.core.http.Headers;
import io.riptide.core.object.CachedCopy;
import io.riptide.core.object.ObjectCertificate;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.object.StoredResponse;
import io.riptide.core.object.WebObject;
import io.riptide.core.runtime.NodeAddress;
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
import io.riptide.proxy.cache.LookupResult;
import io.riptide.proxy.cache.InsertPolicy;
import io.riptide.proxy.cache.OverlayCacheConfig;
import io.riptide.proxy.cache.ProxyCache;
import io.riptide.proxy.cache.ProxyRequest;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The proxy's cache over a real overlay on loopback: a miss hints the gateway, then hits verify; tampering is refused. */
class OverlayCacheLookupTest {
    private static final DolrConfig FAST = DolrConfig.defaults().withMaintenance(Duration.ofMillis(500), Duration.ofSeconds(2),
            Duration.ofSeconds(3), Duration.ofSeconds(2));
    private static final SigningKey PROVIDER = SigningKey.generate(new SecureRandom());
    private static final AtomicInteger ORIGIN_HITS = new AtomicInteger();
    private static final List<String> VARY_REQUESTS = new java.util.concurrent.CopyOnWriteArrayList<>();
    private static final Headers VARYING_HEAD = Headers.of("Cache-Control", "max-age=600", "Vary", "Accept-Encoding");
    private static NioEventLoopGroup group;
    private static OriginFetcher fetcher;
    private static HttpServer origin;
    private static final List<OverlayServer> NODES = new ArrayList<>();
    private static OverlayClient client;
    private static OverlayCacheLookup cache;

    @BeforeAll
    static void start() throws Exception {
        System.setProperty("sun.net.httpserver.nodelay", "true");
        origin = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        origin.createContext("/", exchange -> {
            ORIGIN_HITS.incrementAndGet();
            byte[] body = ("page " + exchange.getRequestURI().getPath()).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Cache-Control", "max-age=600");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        origin.createContext("/vary/", exchange -> {
            // Like most servers' CSS and JS: gzip for browsers that accept it, plain for the rest.
            String accepted = exchange.getRequestHeaders().getFirst("Accept-Encoding");
            VARY_REQUESTS.add(String.valueOf(accepted));
            boolean gzip = accepted != null && accepted.contains("gzip");
            byte[] body = gzip ? gzipped(plainBody(exchange.getRequestURI().getPath())) : plainBody(exchange.getRequestURI().getPath());
            exchange.getResponseHeaders().add("Cache-Control", "max-age=600");
            exchange.getResponseHeaders().add("Vary", "Accept-Encoding");
            if (gzip) {
                exchange.getResponseHeaders().add("Content-Encoding", "gzip");
            }
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        origin.start();
        group = new NioEventLoopGroup(4);
        // The test's origin is on loopback, which a gateway fetches only when private origins are allowed.
        fetcher = new OriginFetcher(group, OriginFetcherConfig.defaults().withPrivateOrigins(true), OriginTls.systemDefault(),
                Clock.systemUTC());
        OverlayServer first = OverlayServer.start(settings(null), group);
        first.awaitJoined(Duration.ofSeconds(10));
        NODES.add(first);
        for (int i = 0; i < 3; i++) {
            NODES.add(OverlayServer.start(settings(first.address()), group));
        }
        NODES.add(OverlayServer.start(settings(first.address())
                .withApplication(Gateway.factory(PROVIDER, fetcher::fetch, GatewayConfig.defaults()), DolrCodec.create()), group));
        for (OverlayServer s : NODES) {
            assertTrue(s.awaitJoined(Duration.ofSeconds(20)));
        }
        Thread.sleep(1500);
        client = OverlayClient.start(SigningKey.generate(new SecureRandom()), List.of(first.address()),
                OverlayClient.Options.of(Duration.ofSeconds(3)).withStages(List.of(OverlayCacheLookup.verifyStage(OverlayCacheConfig.defaults()))));
        assertTrue(client.awaitAttached(Duration.ofSeconds(10)));
        // The paper's policy: every miss asks for an insert (the second-sight policy has its own test, PrivateTierTest).
        cache = OverlayCacheLookup.start(client, List.of(PROVIDER.publicKey()),
                OverlayCacheConfig.defaults().withInsertPolicy(InsertPolicy.FIRST_MISS), Clock.systemUTC());
    }

    private static ServerSettings settings(NodeAddress join) {
        return ServerSettings.of(SigningKey.generate(new SecureRandom()), new NodeAddress("127.0.0.1", 0)).joining(join).withDolr(FAST);
    }

    @AfterAll
    static void stop() {
        client.close();
        NODES.forEach(OverlayServer::close);
        fetcher.close();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        origin.stop(0);
    }

    /** The answer's body, read and released (a memory hit's is an off-heap slice). */
    private static byte[] body(LookupResult r) {
        byte[] bytes = io.netty.buffer.ByteBufUtil.getBytes(r.answer().body());
        r.release();
        return bytes;
    }

    private static ProxyRequest get(String path, String... headers) {
        return new ProxyRequest("GET", URI.create("http://127.0.0.1:" + origin.getAddress().getPort() + path), Headers.of(headers));
    }

    @Test
    void aMissHintsTheGatewayAndTheNextRequestIsAVerifiedHit() throws Exception {
        ProxyRequest request = get("/article");
        LookupResult first = cache.lookup(request).get(10, TimeUnit.SECONDS);
        assertFalse(first.served());
        assertEquals("riptide; fwd=miss; detail=not-found", first.status().toString());
        cache.onOriginResponse(request, first, 200, Headers.EMPTY);
        LookupResult later = first;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!later.served() && System.nanoTime() < deadline) {
            Thread.sleep(100);
            later = cache.lookup(request).get(10, TimeUnit.SECONDS);
        }
        assertTrue(later.served(), "the gateway inserted the URL after the hint");
        assertEquals(200, later.answer().status());
        assertArrayEquals("page /article".getBytes(StandardCharsets.UTF_8), body(later));
        assertEquals("riptide; hit", later.status().toString());
        assertTrue(Long.parseLong(later.answer().headers().first("Age").orElseThrow()) < 5);
        assertEquals("riptide; fwd=request",
                cache.lookup(get("/article", "Cache-Control", "no-cache")).get(10, TimeUnit.SECONDS).status().toString());
    }

    @Test
    void aTamperedReplicaIsRefusedAndCounted() throws Exception {
        ProxyRequest request = get("/tampered");
        String url = CanonicalUrl.of(request.url().toString()).value();
        StoredResponse genuine = new StoredResponse(200, "OK", Headers.of("Cache-Control", "max-age=600"),
                "genuine".getBytes(StandardCharsets.UTF_8));
        long now = System.currentTimeMillis();
        ObjectCertificate cert = ObjectCertificate.sign(PROVIDER, url, "", 1, genuine, now, now, 600);
        byte[] forgedBody = "forged!".getBytes(StandardCharsets.UTF_8);
        byte[] tampered = new CachedCopy(new WebObject(cert, new StoredResponse(200, "OK", genuine.headers(), forgedBody)),
                java.util.Optional.empty()).toBytes();
        NODES.get(2).call(n -> n.storeReplica(ObjectNames.objectGuid(PROVIDER.publicKey(), url, ""), tampered)).get(5, TimeUnit.SECONDS);
        Thread.sleep(500);
        long before = refused();
        LookupResult r = cache.lookup(request).get(10, TimeUnit.SECONDS);
        assertFalse(r.served(), "a replica whose body does not match its certificate is never served");
        assertEquals("riptide; fwd=miss; detail=invalid-replica", r.status().toString());
        assertEquals(before + 1, refused());
    }

    @Test
    void eachAcceptEncodingGetsItsOwnVariantFromTheOverlayAndNeverAnothers() throws Exception {
        ProxyRequest gzip = get("/vary/app.js", "Accept-Encoding", "gzip, deflate");
        ProxyRequest identity = get("/vary/app.js", "Accept-Encoding", "identity");
        byte[] plain = plainBody("/vary/app.js");

        LookupResult gzipMiss = cache.lookup(gzip).get(10, TimeUnit.SECONDS);
        assertEquals("riptide; fwd=miss; detail=not-found", gzipMiss.status().toString());
        cache.onOriginResponse(gzip, gzipMiss, 200, VARYING_HEAD);
        LookupResult gzipHit = awaitHit(gzip);
        assertArrayEquals(gzipped(plain), body(gzipHit), "the gzip variant, as the origin sent it");
        assertEquals("gzip", gzipHit.answer().headers().first("Content-Encoding").orElseThrow());

        // The URL's record is there now, but not this request's variant: a miss, never the gzip body.
        LookupResult identityMiss = cache.lookup(identity).get(10, TimeUnit.SECONDS);
        assertFalse(identityMiss.served());
        assertEquals("riptide; fwd=miss; detail=not-found", identityMiss.status().toString());
        cache.onOriginResponse(identity, identityMiss, 200, VARYING_HEAD);
        LookupResult identityHit = awaitHit(identity);
        assertArrayEquals(plain, body(identityHit));
        assertFalse(identityHit.answer().headers().contains("Content-Encoding"));

        LookupResult gzipAgain = cache.lookup(gzip).get(10, TimeUnit.SECONDS);
        assertTrue(gzipAgain.served());
        assertArrayEquals(gzipped(plain), body(gzipAgain), "each variant keeps its own body");
        assertArrayEquals(plain, body(cache.lookup(get("/vary/app.js", "Accept-Encoding", "IDENTITY")).get(10, TimeUnit.SECONDS)), "a request the normalised key equates with identity gets the identity variant");
        LookupResult br = cache.lookup(get("/vary/app.js", "Accept-Encoding", "br")).get(10, TimeUnit.SECONDS);
        assertEquals("riptide; fwd=miss; detail=not-found", br.status().toString(), "a variant nobody inserted is a miss");
        assertEquals(List.of("gzip, deflate", "identity"), VARY_REQUESTS,
                "one origin fetch per variant, each with the browser's own Accept-Encoding");
    }

    @Test
    void aForgedOrTamperedVariantRecordIsRefusedAndCounted() throws Exception {
        ProxyRequest request = get("/forged-vary", "Accept-Encoding", "gzip");
        String url = CanonicalUrl.of(request.url().toString()).value();
        io.riptide.core.id.Id base = ObjectNames.objectGuid(PROVIDER.publicKey(), url, "");
        io.riptide.core.object.VariantRecord genuine = io.riptide.core.object.VariantRecord.sign(PROVIDER, url,
                List.of("accept-encoding"), 1, System.currentTimeMillis());
        // Widened to vary on one more field under the genuine signature: a reader must not follow it.
        io.riptide.core.object.VariantRecord tampered = new io.riptide.core.object.VariantRecord(genuine.provider(), base, url,
                List.of("accept-encoding", "user-agent"), 1, genuine.issuedAtMillis(), genuine.signature());
        NODES.get(3).call(n -> n.storeReplica(base, tampered.toBytes())).get(5, TimeUnit.SECONDS);
        Thread.sleep(500);
        long before = refused();
        LookupResult r = cache.lookup(request).get(10, TimeUnit.SECONDS);
        assertEquals("riptide; fwd=miss; detail=invalid-replica", r.status().toString());
        assertEquals(before + 1, refused());
    }

    private static LookupResult awaitHit(ProxyRequest request) throws Exception {
        LookupResult r = cache.lookup(request).get(10, TimeUnit.SECONDS);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!r.served() && System.nanoTime() < deadline) {
            Thread.sleep(100);
            r = cache.lookup(request).get(10, TimeUnit.SECONDS);
        }
        assertTrue(r.served(), "inserted after the hint: " + r.status());
        assertEquals("riptide; hit", r.status().toString());
        return r;
    }

    private static long refused() throws Exception {
        return cache.inspect(ProxyCache::refused).get(5, TimeUnit.SECONDS);
    }

    private static byte[] plainBody(String path) {
        return ("console.log('" + path + "');\n").repeat(20).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] gzipped(byte[] data) {
        try {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            try (java.util.zip.GZIPOutputStream gz = new java.util.zip.GZIPOutputStream(out)) {
                gz.write(data);
            }
            return out.toByteArray();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
