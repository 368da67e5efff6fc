package io.riptide.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.cli.demo.LoopbackRiptide;
import io.riptide.cli.demo.SampleSite;
import io.riptide.core.http.CanonicalUrl;
import io.riptide.core.http.Headers;
import io.riptide.core.object.CachedCopy;
import io.riptide.core.object.ObjectCertificate;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.object.StoredResponse;
import io.riptide.core.object.WebObject;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A real client through the real browser proxy over a real overlay on loopback: miss, hit, tampering, bypass. */
class ProxyOverOverlayTest {
    private static SampleSite site;
    private static LoopbackRiptide riptide;
    private static HttpClient client;

    @BeforeAll
    static void start() throws Exception {
        site = new SampleSite(0);
        riptide = new LoopbackRiptide(3, 1, 0, LoopbackRiptide.OVERLAY_ONLY);
        client = HttpClient.newBuilder().proxy(ProxySelector.of(riptide.proxyAddress())).build();
    }

    @AfterAll
    static void stop() {
        riptide.close();
        site.close();
    }

    private static HttpResponse<String> get(String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(site.url(path))).timeout(Duration.ofSeconds(20));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return client.send(b.GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theFirstRequestMissesAndAfterTheGatewayInsertsTheSameUrlIsAVerifiedOverlayHit() throws Exception {
        HttpResponse<String> first = get("/style.css");
        assertEquals(200, first.statusCode());
        assertTrue(first.headers().firstValue("Cache-Status").orElseThrow().startsWith("riptide; fwd=miss"), first.headers().map().toString());
        assertTrue(riptide.makeHit(URI.create(site.url("/style.css")), Duration.ofSeconds(15)));
        int originBefore = site.requests("/style.css");
        HttpResponse<String> hit = get("/style.css");
        assertEquals(200, hit.statusCode());
        // makeHit saw the overlay's verified copy; the proxy kept it, so this one comes from its memory.
        assertEquals("riptide; hit; detail=memory", hit.headers().firstValue("Cache-Status").orElseThrow());
        assertEquals(first.body(), hit.body(), "the overlay's verified copy is the origin's content");
        assertTrue(hit.headers().firstValue("Age").isPresent());
        assertTrue(hit.headers().firstValue("Via").orElse("").contains("riptide"));
        assertEquals(originBefore, site.requests("/style.css"), "a hit never reaches the origin");
    }

    /**
     * The sample site gzips its style sheet for clients that accept gzip, with Vary: Accept-Encoding.
     * Each encoding misses once and is then its own overlay hit; neither is ever served the other's body.
     */
    @Test
    void aVaryingResponseIsAnOverlayHitPerAcceptEncodingAndNeverTheOtherVariant() throws Exception {
        String path = "/style.css?variants"; // its own URL: the other tests' copies of /style.css are not in play
        HttpResponse<byte[]> gzipFirst = getBytes(path, "Accept-Encoding", "gzip, deflate");
        assertTrue(status(gzipFirst).startsWith("riptide; fwd=miss"), status(gzipFirst));
        assertEquals("gzip", gzipFirst.headers().firstValue("Content-Encoding").orElseThrow());
        assertEquals("Accept-Encoding", gzipFirst.headers().firstValue("Vary").orElseThrow());
        HttpResponse<byte[]> gzipHit = awaitHit(path, "Accept-Encoding", "gzip, deflate");
        int originAfterGzip = site.requests("/style.css");

        HttpResponse<byte[]> plainFirst = getBytes(path); // the JDK client sends no Accept-Encoding
        assertTrue(status(plainFirst).startsWith("riptide; fwd=miss"), "the gzip variant does not answer it: " + status(plainFirst));
        assertTrue(plainFirst.headers().firstValue("Content-Encoding").isEmpty());
        HttpResponse<byte[]> plainHit = awaitHit(path);
        assertTrue(plainHit.headers().firstValue("Content-Encoding").isEmpty(), "never the gzip variant's head");
        assertArrayEquals(plainFirst.body(), plainHit.body());
        assertArrayEquals(gzipFirst.body(), gzipHit.body(), "the gzip variant is the origin's gzip bytes");
        assertArrayEquals(plainHit.body(), gunzip(gzipHit.body()), "both variants are the same style sheet");

        int originBefore = site.requests("/style.css");
        HttpResponse<byte[]> gzipAgain = getBytes(path, "Accept-Encoding", "gzip, deflate");
        HttpResponse<byte[]> plainAgain = getBytes(path);
        assertEquals("riptide; hit; detail=memory", status(gzipAgain), "each variant is kept in memory under its own name");
        assertEquals("riptide; hit; detail=memory", status(plainAgain));
        assertArrayEquals(gzipFirst.body(), gzipAgain.body());
        assertArrayEquals(plainFirst.body(), plainAgain.body());
        assertEquals(originBefore, site.requests("/style.css"), "hits never reach the origin");
        assertTrue(originAfterGzip >= 1);
    }

    private static HttpResponse<byte[]> getBytes(String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(site.url(path))).timeout(Duration.ofSeconds(20));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return client.send(b.GET().build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static String status(HttpResponse<?> r) {
        return r.headers().firstValue("Cache-Status").orElse("(none)");
    }

    /** Repeats the request (each miss hints the gateway again at most every few seconds) until the overlay serves it. */
    private static HttpResponse<byte[]> awaitHit(String path, String... headers) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        HttpResponse<byte[]> r = getBytes(path, headers);
        while (!status(r).equals("riptide; hit") && System.nanoTime() < end) {
            Thread.sleep(100);
            r = getBytes(path, headers);
        }
        assertEquals("riptide; hit", status(r), "the gateway inserted this variant after the miss hint");
        return r;
    }

    private static byte[] gunzip(byte[] data) throws java.io.IOException {
        try (java.util.zip.GZIPInputStream in = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(data))) {
            return in.readAllBytes();
        }
    }

    @Test
    void aTamperedReplicaIsRefusedAndTheOriginServesInstead() throws Exception {
        String url = site.url("/app.js");
        String canonical = CanonicalUrl.of(url).value();
        StoredResponse genuine = new StoredResponse(200, "OK", Headers.of("Cache-Control", "max-age=300"),
                "the real script".getBytes(StandardCharsets.UTF_8));
        long now = System.currentTimeMillis();
        ObjectCertificate cert = ObjectCertificate.sign(riptide.provider(), canonical, "", 1, genuine, now, now, 300);
        byte[] evil = "alert('owned')".getBytes(StandardCharsets.UTF_8);
        byte[] tampered = new CachedCopy(new WebObject(cert, new StoredResponse(200, "OK", genuine.headers(), evil)),
                Optional.empty()).toBytes();
        riptide.storageNodes().get(1).call(n -> n.storeReplica(ObjectNames.objectGuid(riptide.provider().publicKey(), canonical, ""),
                tampered)).get(5, TimeUnit.SECONDS);
        Thread.sleep(500);
        long rejectedBefore = riptide.proxy().rejectedReplicas();
        HttpResponse<String> r = get("/app.js");
        assertEquals(200, r.statusCode());
        assertTrue(r.body().contains("addEventListener"), "the origin's script, not the tampered replica: " + r.body());
        assertEquals("riptide; fwd=miss; detail=invalid-replica", r.headers().firstValue("Cache-Status").orElseThrow());
        assertEquals(rejectedBefore + 1, riptide.proxy().rejectedReplicas());
        // Counted where an operator looks, by reason.
        var a = riptide.proxy().server().address();
        String metrics = java.net.http.HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://" + a.getHostString() + ":" + a.getPort() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString())
                .body();
        assertTrue(metrics.matches("(?s).*\\nriptide_proxy_replicas_refused_total\\{reason=\"body_digest_mismatch\"\\} [1-9].*"),
                metrics);
    }

    @Test
    void uncacheableRequestsBypassTheCache() throws Exception {
        HttpResponse<String> withCookie = get("/index.html", "Cookie", "session=1");
        assertTrue(withCookie.headers().firstValue("Cache-Status").orElseThrow().contains("fwd=bypass"), withCookie.headers().map().toString());
        HttpResponse<String> withAuth = get("/index.html", "Authorization", "Bearer x");
        assertTrue(withAuth.headers().firstValue("Cache-Status").orElseThrow().contains("fwd=bypass"));
        HttpResponse<String> post = client.send(HttpRequest.newBuilder(URI.create(site.url("/index.html")))
                .POST(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString());
        assertTrue(post.headers().firstValue("Cache-Status").orElseThrow().contains("fwd=bypass"));
    }
}
