package io.riptide.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.proxy.ProxyStats.Side;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Origin responses whose framing two parsers could read differently are not forwarded: the browser
 * gets a 502 naming the origin and what was wrong, and the origin connection is closed rather than
 * pooled (what follows on it cannot be trusted to start a response). A response that passes reaches
 * the browser with one framing field. Each scripted answer ends with a whole second response, as a
 * response-splitting origin would send: it must reach nobody.
 */
@Timeout(30)
class ResponseFramingTest {
    /** What a split response smuggles in after the first: it must never be seen. */
    private static final String SPLIT = "HTTP/1.1 200 OK\r\nContent-Length: 8\r\n\r\nsmuggled";

    private LenientOrigin origin;
    private ProxyServer proxy;

    @BeforeEach
    void setUp() throws Exception {
        origin = new LenientOrigin();
        proxy = ProxyServer.start(ProxyConfig.builder().port(0).passThrough(true).build(), CacheLookup.NONE);
    }

    @AfterEach
    void tearDown() throws Exception {
        proxy.close();
        origin.close();
    }

    private String get(String path) {
        return "GET " + origin.url(path) + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 50\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: xchunked\r\nContent-Length: 5\r\n\r\nhello",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, identity\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: identity\r\n\r\nhello",
        "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!",
        "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"})
    void anAmbiguouslyFramedResponseIs502AndItsConnectionClosed(String response) throws Exception {
        origin.script("/split", response + SPLIT);
        assertRefused();
        assertEquals(1, proxy.stats().framingRefusals(Side.RESPONSE));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!",
        "HTTP/1.1 200 OK\r\nContent-Length: 6, 5\r\n\r\nhello!",
        "HTTP/1.1 200 OK\r\nContent-Length: +5\r\n\r\nhello"})
    void aResponseTheDecoderRefusesIs502AndItsConnectionClosedToo(String response) throws Exception {
        origin.script("/split", response + SPLIT);
        assertRefused();
    }

    /** The browser gets a 502 for /split, the origin connection ends, and the next request gets a new one. */
    private void assertRefused() throws Exception {
        try (RawClient c = new RawClient(proxy.address())) {
            c.send(get("/split"));
            RawClient.Response r = c.read();
            assertEquals(502, r.status(), r.body());
            assertTrue(r.body().startsWith("origin 127.0.0.1:" + origin.port() + " sent a"), r.body());
            assertTrue(!r.body().contains("smuggled"), r.body());
            // The browser's own connection is sound: it stays open for the next request.
            c.send(get("/fine"));
            RawClient.Response next = c.read();
            assertEquals(200, next.status(), next.body());
            assertEquals("path=/fine", next.body());
        }
        assertEquals(2, origin.accepted.get(), "the refused response's connection was not reused");
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (origin.ended.get() < 1 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(1, origin.ended.get(), "the proxy closed the connection the refused response came on");
    }

    @Test
    void aSoundResponseReachesTheBrowserWithOneFramingField() throws Exception {
        origin.script("/chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: Chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
                .script("/counted", "HTTP/1.1 200 OK\r\nContent-Length: 005\r\n\r\nhello");
        try (RawClient c = new RawClient(proxy.address())) {
            c.send(get("/chunked"));
            RawClient.Response chunked = c.read();
            assertEquals("chunked", chunked.header("transfer-encoding"));
            assertNull(chunked.header("content-length"));
            assertEquals("hello", chunked.body());
            c.send(get("/counted"));
            RawClient.Response counted = c.read();
            assertEquals("5", counted.header("content-length"));
            assertNull(counted.header("transfer-encoding"));
            assertEquals("hello", counted.body());
        }
        assertEquals(1, origin.accepted.get(), "sound responses leave their connection in the pool");
        assertEquals(0, proxy.stats().framingRefusals(Side.RESPONSE));
    }
}
