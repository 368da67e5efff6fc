package io.riptide.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.proxy.ProxyStats.Side;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Requests whose framing two parsers could read differently are refused and end their connection,
 * and never reach the origin: a transfer coding other than chunked alone gets 501, both
 * Transfer-Encoding and Content-Length 400, a bad or repeated Content-Length 400. A request that
 * passes reaches the origin with one framing field, spelled the proxy's way. The origin is lenient
 * ({@link LenientOrigin}) and records what it read; each refused request has a GET pipelined behind
 * it, which must not be answered either.
 */
@Timeout(30)
class RequestFramingTest {
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

    private String post(String fields, String body) {
        return "POST " + origin.url("/upload") + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + fields + "\r\n\r\n" + body;
    }

    private String get(String path) {
        return "GET " + origin.url(path) + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    }

    /** Sends {@code request} and a GET behind it; the refusal must be {@code status}, the last answer, and reach no origin. */
    private void refused(String request, int status) throws Exception {
        try (RawClient c = new RawClient(proxy.address())) {
            c.send(request + get("/after"));
            RawClient.Response r = c.read();
            assertEquals(status, r.status(), r.body());
            assertEquals("close", r.header("connection"), r.headers().toString());
            assertTrue(r.body().startsWith("the request"), r.body());
            assertTrue(c.closedByPeer(), "the connection ends with the refusal");
        }
        assertEquals(List.of(), origin.requests, "nothing reached the origin");
    }

    @ParameterizedTest
    @ValueSource(strings = {"Transfer-Encoding: xchunked", "Transfer-Encoding: chunked, gzip", "Transfer-Encoding: gzip, chunked",
        "Transfer-Encoding: identity", "Transfer-encoding: cow", "Transfer-Encoding: \"chunked\"", "Transfer-Encoding: chunk",
        "Transfer-Encoding: chunked,", "Transfer-Encoding: chunked\r\nTransfer-Encoding: identity",
        "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked", "Transfer-Encoding: x\r\nTransfer-Encoding: chunked",
        "Transfer-Encoding: identity\r\n chunked"})
    void aTransferCodingOtherThanChunkedAloneGets501(String fields) throws Exception {
        refused(post(fields, "5\r\nhello\r\n0\r\n\r\n"), 501);
        assertEquals(1, proxy.stats().framingRefusals(Side.REQUEST));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Content-Length: 5\r\nTransfer-Encoding: chunked", "Transfer-Encoding: chunked\r\nContent-Length: 5",
        "Content-Length: 0\r\nTransfer-Encoding: chunked", "Transfer-Encoding: xchunked\r\nContent-Length: 5",
        "Transfer-Encoding: CHUNKED\r\nContent-Length: 5"})
    void bothTransferEncodingAndContentLengthGet400(String fields) throws Exception {
        refused(post(fields, "0\r\n\r\n"), 400);
        assertEquals(1, proxy.stats().framingRefusals(Side.REQUEST));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Content-Length: +5", "Content-Length: -5", "Content-Length: 0x5", "Content-Length: 5.0",
        "Content-Length: 6, 5", "Content-Length: 5, 5", "Content-Length: 5\r\nContent-Length: 6",
        "Content-Length: 5\r\nContent-Length: 5", "Content-Length: 99999999999999999999", "Content-Length: 5 5",
        "Content-Length: "})
    void anInvalidOrRepeatedContentLengthGets400(String fields) throws Exception {
        refused(post(fields, "hello"), 400);
    }

    @Test
    void http10RequestsAreJudgedAlikeAndMayNotUseTransferEncoding() throws Exception {
        // Netty keeps only the first of differing lengths in HTTP/1.0, and both fields: the proxy sees them as received.
        refused("POST " + origin.url("/upload") + " HTTP/1.0\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!", 400);
        refused("POST " + origin.url("/upload") + " HTTP/1.0\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
                400);
        refused("POST " + origin.url("/upload") + " HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400);
        assertEquals(3, proxy.stats().framingRefusals(Side.REQUEST));
    }

    @Test
    void aFoldedOrMisspacedTransferEncodingIsMalformed() throws Exception {
        refused(post("Transfer-Encoding:\r\n chunked", "0\r\n\r\n"), 400);
        refused(post("Transfer-Encoding : chunked", "0\r\n\r\n"), 400);
        refused(post("Transfer-Encoding\u0000: chunked", "0\r\n\r\n"), 400);
    }

    @Test
    void aChunkedRequestReachesTheOriginWithChunkedAloneSpelledTheProxysWay() throws Exception {
        try (RawClient c = new RawClient(proxy.address())) {
            c.send(post("Transfer-Encoding: Chunked\t", "5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"));
            RawClient.Response r = c.read();
            assertEquals(200, r.status(), r.body());
            assertEquals("path=/upload", r.body());
            c.send(post("Content-Length: 005", "hello"));
            assertEquals("path=/upload", c.read().body());
            // The connection stays open after requests whose framing is sound.
            c.send(get("/next"));
            assertEquals("path=/next", c.read().body());
        }
        assertEquals(3, origin.requests.size());
        LenientOrigin.Request chunked = origin.requests.get(0);
        assertEquals(List.of("chunked"), chunked.values("Transfer-Encoding"), chunked.head().toString());
        assertEquals(List.of(), chunked.values("Content-Length"), chunked.head().toString());
        assertEquals("hello world", chunked.body());
        LenientOrigin.Request counted = origin.requests.get(1);
        assertEquals(List.of("5"), counted.values("Content-Length"), counted.head().toString());
        assertEquals(List.of(), counted.values("Transfer-Encoding"), counted.head().toString());
        assertEquals("hello", counted.body());
        assertEquals(0, proxy.stats().framingRefusals(Side.REQUEST));
    }
}
