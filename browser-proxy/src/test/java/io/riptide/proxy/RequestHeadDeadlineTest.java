package io.riptide.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The request-head deadline (here 500 ms, 1 s where a test needs room): a head not complete within it
 * of its first bytes gets 408 and the connection closes, however steadily its bytes trickle in, while
 * an idle keep-alive connection, a head in two quick parts and a head pipelined behind a slow answer
 * are left alone.
 */
@Timeout(30)
class RequestHeadDeadlineTest {
    private TestOrigin origin;
    private ProxyServer proxy;

    @BeforeEach
    void setUp() throws Exception {
        origin = new TestOrigin()
                .route("/page", x -> TestOrigin.send(x, 200, "the page"))
                .route("/slow", x -> {
                    try {
                        Thread.sleep(2_200);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    TestOrigin.send(x, 200, "slowly");
                });
    }

    @AfterEach
    void tearDown() {
        if (proxy != null) {
            proxy.close();
        }
        origin.close();
    }

    private ProxyServer start(Duration headTimeout) {
        proxy = ProxyServer.start(ProxyConfig.builder().port(0).passThrough(true).requestHeadTimeout(headTimeout).build(),
                CacheLookup.NONE);
        return proxy;
    }

    private String get(String path) {
        return "GET " + origin.url(path) + " HTTP/1.1\r\nHost: 127.0.0.1:" + origin.port() + "\r\n\r\n";
    }

    private static void assertLate(RawClient.Response r) {
        assertEquals(408, r.status(), r.body());
        assertEquals("close", r.header("connection"));
        assertTrue(r.body().contains("--request-head-timeout"), r.body());
    }

    @Test
    void aHeadLeftUnfinishedGets408AndTheConnectionCloses() throws Exception {
        start(Duration.ofMillis(500));
        try (RawClient c = new RawClient(proxy.address())) {
            long started = System.nanoTime();
            c.send("GET " + origin.url("/page") + " HTTP/1.1\r\nHost: 127.0.0.1\r\n");
            assertLate(c.read());
            long waited = (System.nanoTime() - started) / 1_000_000;
            assertTrue(waited >= 450 && waited < 5_000, "answered after " + waited + " ms");
            assertTrue(c.closedByPeer());
        }
        assertEquals(1, proxy.stats().requestHeadTimeouts());
        assertEquals(0, origin.requests.get());
    }

    @Test
    void aHeadTrickledByteByByteIsCutOffAtTheDeadlineThoughNeverIdle() throws Exception {
        start(Duration.ofMillis(500));
        try (RawClient c = new RawClient(proxy.address())) {
            byte[] head = ("GET " + origin.url("/page") + " HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: " + "p".repeat(200)
                    + "\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
            AtomicBoolean stop = new AtomicBoolean();
            Thread trickle = new Thread(() -> {
                try {
                    for (int i = 0; i < head.length && !stop.get(); i++) {
                        c.socket.getOutputStream().write(head[i]);
                        c.socket.getOutputStream().flush();
                        Thread.sleep(50);
                    }
                } catch (IOException | InterruptedException closed) {
                    // the proxy hung up, as it should
                }
            });
            trickle.start();
            try {
                assertLate(c.read());
                assertTrue(c.closedByPeer());
            } finally {
                stop.set(true);
                trickle.join(5_000);
            }
        }
        assertEquals(0, origin.requests.get());
    }

    @Test
    void anIdleKeepAliveConnectionAndAHeadInTwoQuickPartsAreServed() throws Exception {
        start(Duration.ofMillis(500));
        try (RawClient c = new RawClient(proxy.address())) {
            c.send(get("/page"));
            assertEquals("the page", c.read().body());
            Thread.sleep(1_500); // three deadlines with nothing sent: idle, not late
            String request = get("/page");
            c.send(request.substring(0, 20));
            Thread.sleep(200);
            c.send(request.substring(20));
            RawClient.Response r = c.read();
            assertEquals(200, r.status(), r.body());
            assertEquals("the page", r.body());
        }
        assertEquals(0, proxy.stats().requestHeadTimeouts());
    }

    @Test
    void aHeadPipelinedBehindASlowAnswerIsTimedOnlyOnceTheAnswerIsDone() throws Exception {
        start(Duration.ofSeconds(1));
        try (RawClient c = new RawClient(proxy.address())) {
            c.send(get("/slow"));
            Thread.sleep(100);
            // The next head begins while the origin takes 2.2 s over the first: the client waits for that answer.
            String next = get("/page");
            c.send(next.substring(0, 20));
            RawClient.Response slow = c.read();
            assertEquals("slowly", slow.body());
            c.send(next.substring(20));
            RawClient.Response page = c.read();
            assertEquals(200, page.status(), page.body());
            assertEquals("the page", page.body());
            // A head begun and left unfinished after that still gets its 408.
            c.send(next.substring(0, 20));
            assertLate(c.read());
        }
        assertEquals(1, proxy.stats().requestHeadTimeouts());
    }
}
