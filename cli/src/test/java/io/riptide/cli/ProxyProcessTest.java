package io.riptide.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.cli.demo.LoopbackRiptide;
import io.riptide.cli.demo.SampleSite;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code riptide proxy --seed ... --provider ...} as its own process carries real traffic: a page fetched through it
 * misses, the miss makes the overlay's gateway insert it, and then the same page is a verified overlay hit.
 */
@Timeout(180)
class ProxyProcessTest {
    private static final Pattern LISTENING = Pattern.compile("riptide browser proxy on http://127\\.0\\.0\\.1:(\\d+)/ .*");
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    void theProxyProcessServesAMissThenAnOverlayHit() throws Exception {
        try (SampleSite site = new SampleSite(0); LoopbackRiptide overlay = new LoopbackRiptide(3, 1, 0, LoopbackRiptide.OVERLAY_ONLY);
                NodeProcess proxy = NodeProcess.command("proxy", dir, "proxy", "--port", "0", "--read-deadline", "2s",
                        // Its own fetches not kept: every repeat goes to the overlay until the gateway's insert lands.
                        "--no-keep-own-fetches",
                        "--seed", overlay.storageNodes().get(0).address().toString(),
                        "--provider", overlay.provider().publicKey().toString())) {
            Matcher m = LISTENING.matcher(proxy.await(l -> LISTENING.matcher(l).matches(), "its address", WAIT));
            assertTrue(m.matches());
            String attached = proxy.await(l -> l.startsWith("reading the cache through the overlay via "), "that it reached the overlay",
                    WAIT);
            assertTrue(attached.endsWith(", waiting at most 2s for a read"), attached);
            HttpClient client = HttpClient.newBuilder()
                    .proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", Integer.parseInt(m.group(1))))).build();
            URI page = URI.create(site.url("/index.html"));

            HttpResponse<String> first = get(client, page);
            assertEquals(200, first.statusCode());
            assertTrue(first.headers().firstValue("Cache-Status").orElse("").startsWith("riptide; fwd=miss"),
                    first.headers().map().toString());
            assertTrue(first.body().contains("Served through Riptide"), first.body());

            // The miss hint reaches the gateway in the overlay, which fetches and inserts the page; until the insert
            // lands a fetch still misses, so ask again (bounded) until the overlay answers.
            HttpResponse<String> hit = first;
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!hit.headers().firstValue("Cache-Status").orElse("").equals("riptide; hit") && System.nanoTime() < deadline) {
                LockSupport.parkNanos(100_000_000);
                hit = get(client, page);
            }
            assertEquals("riptide; hit", hit.headers().firstValue("Cache-Status").orElse(""),
                    "the proxy process served the page from the overlay: " + hit.headers().map() + "\n" + proxy.stderr());
            assertEquals(first.body(), hit.body(), "the overlay's verified copy is the origin's page");
            int originBefore = site.requests("/index.html");
            HttpResponse<String> again = get(client, page);
            assertEquals("riptide; hit; detail=memory", again.headers().firstValue("Cache-Status").orElse(""),
                    "the proxy process kept the verified copy in its memory tier");
            assertEquals(originBefore, site.requests("/index.html"), "a hit never reaches the origin");

            assertTrue(proxy.stop(), "stopped on SIGTERM");
            assertTrue(proxy.lines().contains("proxy stopped"), "shut down cleanly: " + proxy.lines());
            assertFalse(proxy.stderr().contains("LEAK"), "no Netty leak reported: " + proxy.stderr());
        }
    }

    private static HttpResponse<String> get(HttpClient client, URI url) throws Exception {
        return client.send(HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(20)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
