package io.riptide.cli;

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
        riptide = new LoopbackRiptide(3, 0);
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
        assertEquals("riptide; hit", hit.headers().firstValue("Cache-Status").orElseThrow());
        assertEquals(first.body(), hit.body(), "the overlay's verified copy is the origin's content");
        assertTrue(hit.headers().firstValue("Age").isPresent());
        assertTrue(hit.headers().firstValue("Via").orElse("").contains("riptide"));
        assertEquals(originBefore, site.requests("/style.css"), "a hit never reaches the origin");
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
