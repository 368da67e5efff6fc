package io.riptide.gateway.origin;

import static io.riptide.gateway.origin.Outcomes.failure;
import static io.riptide.gateway.origin.Outcomes.response;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.riptide.core.http.Headers;
import io.riptide.core.testing.ManualClock;
import io.riptide.gateway.origin.FetchException.Reason;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 20, unit = TimeUnit.SECONDS)
class OriginFetcherTest {
    private static EventLoopGroup group;
    private ManualClock clock;
    private OriginFetcher fetcher;

    @BeforeAll
    static void startGroup() {
        group = new NioEventLoopGroup(2);
    }

    @AfterAll
    static void stopGroup() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @BeforeEach
    void start() {
        clock = new ManualClock(1_000_000);
        fetcher = new OriginFetcher(group, OriginFetcherConfig.defaults().withPrivateOrigins(true), OriginTls.systemDefault(), clock);
    }

    @AfterEach
    void stop() {
        fetcher.close();
    }

    @Test
    void getsABodyWithContentLength() throws Exception {
        try (TestOrigin origin = new TestOrigin(group, null, TestOrigin.ok("hello", "ETag", "\"v1\"", "Content-Type", "text/plain"))) {
            OriginResponse r = response(fetcher.fetch(OriginRequest.get(origin.url("/a?b=c"))));
            assertEquals(200, r.status());
            assertEquals("OK", r.reason());
            assertEquals("hello", new String(r.body(), StandardCharsets.UTF_8));
            assertEquals("\"v1\"", r.headers().first("etag").orElseThrow());
            assertEquals(origin.url("/a?b=c"), r.url());
            assertEquals(0, r.redirects());
            assertEquals(1_000_000, r.requestTimeMillis());
            assertEquals(1_000_000, r.responseTimeMillis());
            TestOrigin.Seen seen = origin.seen().get(0);
            assertEquals("/a?b=c", seen.uri());
            assertEquals("127.0.0.1:" + origin.port(), seen.header("host"));
            assertEquals("Riptide-Gateway/0.1", seen.header("user-agent"));
            OriginFetcherMetrics m = fetcher.metrics();
            assertEquals(1, m.fetches());
            assertEquals(1, m.succeeded());
            assertEquals(5, m.bodyBytes());
            assertTrue(m.bytesReceived() > 5);
        }
    }

    @Test
    void getsAChunkedBodyAsSentWithoutDecodingIt() throws Exception {
        byte[] gz = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, 3};
        TestOrigin.Route chunked = (ctx, req) -> {
            var head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
            head.headers().set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
            head.headers().set(HttpHeaderNames.CONTENT_ENCODING, "gzip");
            ctx.write(head);
            ctx.write(new DefaultHttpContent(Unpooled.wrappedBuffer(gz, 0, 4)));
            ctx.write(new DefaultHttpContent(Unpooled.wrappedBuffer(gz, 4, 6)));
            ctx.writeAndFlush(new DefaultLastHttpContent());
        };
        try (TestOrigin origin = new TestOrigin(group, null, chunked)) {
            OriginResponse r = response(fetcher.fetch(OriginRequest.get(origin.url("/z"),
                    Headers.of("Accept-Encoding", "gzip"))));
            assertEquals(200, r.status());
            assertArrayEquals(gz, r.body());
            assertEquals("gzip", r.headers().first("Content-Encoding").orElseThrow());
            assertEquals("gzip", origin.seen().get(0).header("accept-encoding"));
        }
    }

    @Test
    void headGetsHeadersAndNoBody() throws Exception {
        TestOrigin.Route head = (ctx, req) -> {
            var r = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
            // Far over the body limit: a HEAD answer's Content-Length promises no body, so it's no reason to refuse.
            r.headers().set(HttpHeaderNames.CONTENT_LENGTH, 1L << 40);
            ctx.write(r);
            ctx.writeAndFlush(new DefaultLastHttpContent());
        };
        try (TestOrigin origin = new TestOrigin(group, null, head)) {
            OriginResponse r = response(fetcher.fetch(OriginRequest.head(origin.url("/big"))));
            assertEquals(200, r.status());
            assertEquals(0, r.body().length);
            assertEquals(String.valueOf(1L << 40), r.headers().first("content-length").orElseThrow());
            assertEquals("HEAD", origin.seen().get(0).method());
        }
    }

    @Test
    void conditionalHeadersReachTheOriginAnd304ComesBack() throws Exception {
        TestOrigin.Route conditional = (ctx, req) -> ctx.writeAndFlush("\"v1\"".equals(req.headers().get("If-None-Match"))
                ? TestOrigin.response(HttpResponseStatus.NOT_MODIFIED, "", "ETag", "\"v1\"")
                : TestOrigin.response(HttpResponseStatus.OK, "body", "ETag", "\"v1\""));
        try (TestOrigin origin = new TestOrigin(group, null, conditional)) {
            Headers validators = Headers.of("If-None-Match", "\"v1\"", "If-Modified-Since",
                    "Tue, 01 Oct 2024 00:00:00 GMT", "Accept", "text/html");
            OriginResponse r = response(fetcher.fetch(OriginRequest.get(origin.url("/c"), validators)));
            assertEquals(304, r.status());
            assertEquals(0, r.body().length);
            TestOrigin.Seen seen = origin.seen().get(0);
            assertEquals("\"v1\"", seen.header("if-none-match"));
            assertEquals("Tue, 01 Oct 2024 00:00:00 GMT", seen.header("if-modified-since"));
            assertEquals("text/html", seen.header("accept"));
        }
    }

    @Test
    void aSecondFetchReusesTheConnection() throws Exception {
        try (TestOrigin origin = new TestOrigin(group, null, TestOrigin.ok("x"))) {
            response(fetcher.fetch(OriginRequest.get(origin.url("/1"))));
            response(fetcher.fetch(OriginRequest.get(origin.url("/2"))));
            assertEquals(origin.seen().get(0).connection(), origin.seen().get(1).connection(),
                    "both requests should arrive on one connection");
            assertEquals(1, fetcher.metrics().connectionsOpened());
            assertEquals(1, fetcher.metrics().connectionsReused());
        }
    }

    @Test
    void connectionCloseFromTheOriginIsHonoured() throws Exception {
        try (TestOrigin origin = new TestOrigin(group, null, TestOrigin.ok("x", "Connection", "close"))) {
            response(fetcher.fetch(OriginRequest.get(origin.url("/1"))));
            response(fetcher.fetch(OriginRequest.get(origin.url("/2"))));
            assertTrue(!origin.seen().get(0).connection().equals(origin.seen().get(1).connection()));
            assertEquals(2, fetcher.metrics().connectionsOpened());
        }
    }

    @Test
    void credentialsNeverReachTheOrigin() throws Exception {
        try (TestOrigin origin = new TestOrigin(group, null, TestOrigin.ok("x"))) {
            Headers withSecrets = Headers.of("Cookie", "session=secret", "Authorization", "Bearer abc",
                    "Proxy-Authorization", "Basic eA==", "X-Api-Key", "k", "X-Auth-Token", "t",
                    "Accept-Language", "en", "Connection", "close");
            response(fetcher.fetch(OriginRequest.get(origin.url("/p"), withSecrets)));
            TestOrigin.Seen seen = origin.seen().get(0);
            for (String name : new String[] {"cookie", "authorization", "proxy-authorization", "x-api-key", "x-auth-token"}) {
                assertNull(seen.header(name), name + " reached the origin");
            }
            assertEquals("en", seen.header("accept-language"));
            assertNull(seen.header("connection"), "the fetcher owns connection management");
        }
    }

    @Test
    void userinfoInTheUrlIsNeverSent() throws Exception {
        try (TestOrigin origin = new TestOrigin(group, null, TestOrigin.ok("x"))) {
            URI withUser = URI.create("http://alice:pa55@127.0.0.1:" + origin.port() + "/u#frag");
            OriginResponse r = response(fetcher.fetch(OriginRequest.get(withUser)));
            TestOrigin.Seen seen = origin.seen().get(0);
            assertNull(seen.header("authorization"));
            assertEquals("/u", seen.uri());
            assertEquals("127.0.0.1:" + origin.port(), seen.header("host"));
            assertEquals(origin.url("/u"), r.url());
        }
    }

    @Test
    void onlyGetAndHeadAreSent() throws Exception {
        try (TestOrigin origin = new TestOrigin(group, null, TestOrigin.ok("x"))) {
            FetchException e = failure(fetcher.fetch(new OriginRequest("POST", origin.url("/f"), Headers.EMPTY)),
                    Reason.INVALID_REQUEST);
            assertTrue(e.getMessage().contains("POST"), e.getMessage());
            failure(fetcher.fetch(new OriginRequest("DELETE", origin.url("/f"), Headers.EMPTY)), Reason.INVALID_REQUEST);
            assertTrue(origin.seen().isEmpty());
            assertEquals(2, fetcher.metrics().failures(Reason.INVALID_REQUEST));
        }
    }

    @Test
    void refusesUrlsAndHeadersItCannotSendSafely() throws Exception {
        failure(fetcher.fetch(OriginRequest.get(URI.create("ftp://127.0.0.1/x"))), Reason.INVALID_REQUEST);
        failure(fetcher.fetch(OriginRequest.get(URI.create("/relative"))), Reason.INVALID_REQUEST);
        FetchException e = failure(fetcher.fetch(OriginRequest.get(URI.create("http://u:secret@127.0.0.1:1/x"),
                Headers.of("Accept", "a\r\nCookie: smuggled"))), Reason.INVALID_REQUEST);
        assertTrue(!e.getMessage().contains("secret"), "the message must not repeat the URL's password: " + e.getMessage());
    }

    @Test
    void timesComeFromTheInjectedClock() throws Exception {
        TestOrigin.Route slowClock = (ctx, req) -> {
            clock.advance(250);
            ctx.writeAndFlush(TestOrigin.response(HttpResponseStatus.OK, "t"));
        };
        try (TestOrigin origin = new TestOrigin(group, null, slowClock)) {
            OriginResponse r = response(fetcher.fetch(OriginRequest.get(origin.url("/t"))));
            assertEquals(1_000_000, r.requestTimeMillis());
            assertEquals(1_000_250, r.responseTimeMillis());
        }
    }

    @Test
    void closedFetcherRefuses() throws Exception {
        fetcher.close();
        failure(fetcher.fetch(OriginRequest.get(URI.create("http://127.0.0.1:1/x"))), Reason.CLOSED);
    }

    @Test
    void unreachableOriginIsAConnectFailure() throws Exception {
        int port;
        try (var s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            port = s.getLocalPort();
        }
        FetchException e = failure(fetcher.fetch(OriginRequest.get(URI.create("http://127.0.0.1:" + port + "/x"))),
                Reason.CONNECT_FAILED);
        assertTrue(e.getMessage().contains("127.0.0.1:" + port), e.getMessage());
    }
}
