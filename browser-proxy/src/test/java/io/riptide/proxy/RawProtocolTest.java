package io.riptide.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Raw sockets to the proxy: pipelining, keep-alive, malformed and oversized input, vanishing clients, CONNECT tunnels and the proxy's own pages. */
@Timeout(30)
class RawProtocolTest {
    private TestOrigin origin;
    private ProxyServer proxy;

    @BeforeEach
    void setUp() throws Exception {
        origin = new TestOrigin()
                .route("/first", x -> {
                    sleep(300);
                    TestOrigin.send(x, 200, "one");
                })
                .route("/second", x -> TestOrigin.send(x, 200, "two"))
                .route("/third", x -> TestOrigin.send(x, 200, "three"))
                .route("/echo", x -> {
                    byte[] body = x.getRequestBody().readAllBytes();
                    x.sendResponseHeaders(200, body.length == 0 ? -1 : body.length);
                    x.getResponseBody().write(body);
                });
        proxy = ProxyServer.start(ProxyConfig.builder().port(0).tunnelPorts(Set.of())
                .accessNodes(() -> java.util.List.of("node-a:7000", "<b>node</b>")).build(), CacheLookup.NONE);
    }

    @AfterEach
    void tearDown() {
        proxy.close();
        origin.close();
    }

    private String get(String path) {
        return "GET " + origin.url(path) + " HTTP/1.1\r\nHost: 127.0.0.1:" + origin.port() + "\r\n\r\n";
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrder() throws Exception {
        try (RawClient c = new RawClient(proxy.address())) {
            c.send(get("/first") + get("/second") + get("/third"));
            assertEquals("one", c.read().body());
            assertEquals("two", c.read().body());
            assertEquals("three", c.read().body());
        }
    }

    @Test
    void chunkedRequestBodyIsForwarded() throws Exception {
        try (RawClient c = new RawClient(proxy.address())) {
            c.send("POST " + origin.url("/echo") + " HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n");
            RawClient.Response r = c.read();
            assertEquals(200, r.status());
            assertEquals("hello world", r.body());
        }
    }

    @Test
    void malformedRequestLineGets400() throws Exception {
        try (RawClient c = new RawClient(proxy.address())) {
            c.send("THIS IS NOT HTTP\r\n\r\n");
            RawClient.Response r = c.read();
            assertEquals(400, r.status());
            assertTrue(r.body().contains("malformed"), r.body());
        }
    }

    @Test
    void oversizedHeadersGet431() throws Exception {
        try (RawClient c = new RawClient(proxy.address())) {
            c.send("GET " + origin.url("/second") + " HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(70_000) + "\r\n\r\n");
            assertEquals(431, c.read().status());
        }
    }

    @Test
    void overlongRequestLineGets414() throws Exception {
        try (RawClient c = new RawClient(proxy.address())) {
            c.send("GET " + origin.url("/second?" + "q".repeat(9_000)) + " HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals(414, c.read().status());
        }
    }

    @Test
    void invalidChunkedBodyGets400OrAClosedConnection() throws Exception {
        try (RawClient c = new RawClient(proxy.address())) {
            c.send("POST " + origin.url("/echo") + " HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "zz-not-hex\r\nhello\r\n0\r\n\r\n");
            try {
                RawClient.Response r = c.read();
                assertEquals(400, r.status());
            } catch (IOException closed) {
                // A closed connection is an acceptable answer too.
            }
            assertTrue(c.closedByPeer());
        }
    }

    @Test
    void httpsInAbsoluteFormIsRefused() throws Exception {
        try (RawClient c = new RawClient(proxy.address())) {
            c.send("GET https://127.0.0.1:" + origin.port() + "/second HTTP/1.1\r\nHost: x\r\n\r\n");
            RawClient.Response r = c.read();
            assertEquals(400, r.status());
            assertTrue(r.body().contains("CONNECT"), r.body());
        }
    }

    @Test
    void aClientVanishingMidRequestDoesNotDisturbAnother() throws Exception {
        try (RawClient other = new RawClient(proxy.address())) {
            try (RawClient vanishing = new RawClient(proxy.address())) {
                vanishing.send("POST " + origin.url("/echo") + " HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\nonly a little");
                Thread.sleep(100);
            }
            other.send(get("/second"));
            assertEquals("two", other.read().body());
            other.send(get("/third"));
            assertEquals("three", other.read().body());
        }
    }

    @Test
    void aDeclaredBodyOverTheLimitGets413AndOnlyItsOwnConnectionEnds() throws Exception {
        try (ProxyServer small = ProxyServer.start(ProxyConfig.builder().port(0).maxRequestBodyBytes(1000).build(), CacheLookup.NONE);
                RawClient other = new RawClient(small.address());
                RawClient big = new RawClient(small.address())) {
            // In flight on another connection while the refusal happens (the origin takes 300 ms over it).
            other.send(get("/first"));
            big.send("POST " + origin.url("/echo") + " HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n" + "b".repeat(5000)
                    + get("/second"));
            RawClient.Response r = big.read();
            assertEquals(413, r.status());
            assertTrue(r.header("content-type").startsWith("text/plain"), r.headers().toString());
            assertEquals("the request body is larger than this proxy forwards (1000 bytes)\n", r.body());
            assertEquals("close", r.header("connection"));
            // The pipelined GET after it is not answered: the connection ends with the refusal.
            assertTrue(big.closedByPeer());
            assertEquals("one", other.read().body());
            other.send(get("/third"));
            assertEquals("three", other.read().body());
            // Neither the refused POST nor the GET behind it reached the origin.
            assertEquals(2, origin.requests.get());
        }
    }

    @Test
    void aChunkedBodyGrowingPastTheLimitGets413AndTheOriginRequestIsDropped() throws Exception {
        CountDownLatch originReceiving = new CountDownLatch(1);
        CountDownLatch originCutOff = new CountDownLatch(1);
        origin.route("/upload", x -> {
            originReceiving.countDown();
            try {
                x.getRequestBody().readAllBytes();
            } catch (IOException cut) {
                originCutOff.countDown();
                throw cut;
            }
            TestOrigin.send(x, 200, "took it all");
        });
        try (ProxyServer small = ProxyServer.start(ProxyConfig.builder().port(0).maxRequestBodyBytes(1000).build(), CacheLookup.NONE);
                RawClient c = new RawClient(small.address())) {
            String chunk = Integer.toHexString(600) + "\r\n" + "c".repeat(600) + "\r\n";
            c.send("POST " + origin.url("/upload") + " HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" + chunk);
            // The head and first chunk go up before the proxy can know how long the body will be; the second crosses the limit.
            assertTrue(originReceiving.await(10, TimeUnit.SECONDS), "the origin got the request head");
            c.send(chunk);
            RawClient.Response r = c.read();
            assertEquals(413, r.status());
            assertEquals("the request body is larger than this proxy forwards (1000 bytes)\n", r.body());
            assertTrue(c.closedByPeer());
            assertTrue(originCutOff.await(10, TimeUnit.SECONDS), "the origin saw its request cut off");
            try (RawClient next = new RawClient(small.address())) {
                next.send(get("/second"));
                assertEquals("two", next.read().body());
            }
        }
    }

    @Test
    void aClientVanishingMidBodyAbortsTheOriginRequest() throws Exception {
        CountDownLatch originReceiving = new CountDownLatch(1);
        CountDownLatch originCutOff = new CountDownLatch(1);
        AtomicInteger originGotAll = new AtomicInteger();
        origin.route("/upload", x -> {
            InputStream in = x.getRequestBody();
            byte[] buffer = new byte[8192];
            long total = 0;
            try {
                for (int n; (n = in.read(buffer)) != -1; ) {
                    total += n;
                    originReceiving.countDown();
                }
            } catch (IOException cut) {
                originCutOff.countDown();
                throw cut;
            }
            if (total < 1_000_000) {
                originCutOff.countDown(); // ended early without an error: cut off all the same
            } else {
                originGotAll.incrementAndGet();
            }
            TestOrigin.send(x, 200, "got " + total);
        });
        try (RawClient other = new RawClient(proxy.address())) {
            try (RawClient vanishing = new RawClient(proxy.address())) {
                vanishing.send("POST " + origin.url("/upload") + " HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n"
                        + "v".repeat(20_000));
                assertTrue(originReceiving.await(10, TimeUnit.SECONDS), "the origin started receiving the body");
            }
            // Without the abort the origin would wait for the other 980,000 bytes until the idle timeout (60 s).
            assertTrue(originCutOff.await(10, TimeUnit.SECONDS), "the origin saw its request cut off");
            assertEquals(0, originGotAll.get());
            other.send(get("/second"));
            assertEquals("two", other.read().body());
        }
    }

    @Test
    void keepAliveCarriesSequentialRequestsOverOneConnectionEachSide() throws Exception {
        try (RawClient c = new RawClient(proxy.address())) {
            for (int i = 0; i < 6; i++) {
                if (i % 2 == 0) {
                    c.send(get("/second"));
                    assertEquals("two", c.read().body(), "response " + i);
                } else {
                    String body = "body " + i;
                    c.send("POST " + origin.url("/echo") + " HTTP/1.1\r\nHost: x\r\nContent-Length: " + body.length() + "\r\n\r\n"
                            + body);
                    RawClient.Response r = c.read();
                    assertEquals(body, r.body(), "response " + i);
                    assertTrue(r.header("connection") == null, "no Connection: close in " + r.headers());
                }
            }
        }
        assertEquals(6, origin.requests.get());
        assertEquals(1, origin.connections.size(), "origin saw connections from ports " + origin.connections);
        assertEquals(1, proxy.stats().upstreamConnectionsOpened());
    }

    @Test
    void connectTunnelsBytesBothWays() throws Exception {
        try (ServerSocket echo = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
            Thread t = new Thread(() -> {
                try (Socket s = echo.accept()) {
                    InputStream in = s.getInputStream();
                    OutputStream out = s.getOutputStream();
                    byte[] buf = new byte[8192];
                    for (int n; (n = in.read(buf)) != -1; ) {
                        out.write(buf, 0, n);
                        out.flush();
                    }
                } catch (IOException ignored) {
                    // The test ends the tunnel.
                }
            });
            t.setDaemon(true);
            t.start();
            try (RawClient c = new RawClient(proxy.address())) {
                c.send("CONNECT 127.0.0.1:" + echo.getLocalPort() + " HTTP/1.1\r\nHost: 127.0.0.1:" + echo.getLocalPort() + "\r\n\r\n");
                assertEquals(200, c.read(true).status());
                byte[] payload = new byte[200_000];
                for (int i = 0; i < payload.length; i++) {
                    payload[i] = (byte) i;
                }
                Thread writer = new Thread(() -> {
                    try {
                        c.socket.getOutputStream().write(payload);
                        c.socket.getOutputStream().flush();
                    } catch (IOException ignored) {
                        // Surfaces as a short read below.
                    }
                });
                writer.start();
                byte[] back = c.in.readNBytes(payload.length);
                writer.join(5_000);
                org.junit.jupiter.api.Assertions.assertArrayEquals(payload, back);
            }
            assertEquals(1, proxy.stats().tunnels());
        }
    }

    @Test
    void connectToAClosedPortGets502() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        try (RawClient c = new RawClient(proxy.address())) {
            c.send("CONNECT 127.0.0.1:" + closedPort + " HTTP/1.1\r\nHost: x\r\n\r\n");
            RawClient.Response r = c.read();
            assertEquals(502, r.status());
            assertTrue(r.body().contains("refused"), r.body());
        }
    }

    @Test
    void connectToAPortNotAllowedGets403() throws Exception {
        try (ProxyServer strict = ProxyServer.start(ProxyConfig.builder().port(0).build(), CacheLookup.NONE);
             RawClient c = new RawClient(strict.address())) {
            c.send("CONNECT 127.0.0.1:25 HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals(403, c.read().status());
        }
    }

    @Test
    void servesThePacFileStatusAndMetrics() throws Exception {
        try (RawClient c = new RawClient(proxy.address())) {
            c.send(get("/second"));
            assertEquals("two", c.read().body());
            c.send("GET /proxy.pac HTTP/1.1\r\nHost: x\r\n\r\n");
            RawClient.Response pac = c.read();
            assertEquals("application/x-ns-proxy-autoconfig", pac.header("content-type"));
            assertTrue(pac.body().contains("function FindProxyForURL(url, host)"), pac.body());
            assertTrue(pac.body().contains("PROXY 127.0.0.1:" + proxy.address().getPort() + "; DIRECT"), pac.body());
            assertTrue(pac.body().contains("DIRECT"), pac.body());
            c.send("GET /status HTTP/1.1\r\nHost: x\r\n\r\n");
            String status = c.read().body();
            assertTrue(status.contains("bypasses") && status.contains("p99") && status.contains("node-a:7000"), status);
            assertTrue(status.contains("&lt;b&gt;node&lt;/b&gt;"), status);
            c.send("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
            String metrics = c.read().body();
            assertTrue(metrics.contains("riptide_proxy_requests_total{result=\"miss\"} 1"), metrics);
            assertTrue(metrics.contains("riptide_proxy_latency_seconds{quantile=\"0.5\"}"), metrics);
            c.send("GET /nothing-here HTTP/1.1\r\nHost: x\r\n\r\n");
            RawClient.Response missing = c.read();
            assertEquals(404, missing.status());
            assertTrue(missing.body().contains("/proxy.pac"), missing.body());
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static String ascii(byte[] b) {
        return new String(b, StandardCharsets.ISO_8859_1);
    }
}
