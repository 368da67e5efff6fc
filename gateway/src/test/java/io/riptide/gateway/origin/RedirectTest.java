package io.riptide.gateway.origin;

import static io.riptide.gateway.origin.Outcomes.failure;
import static io.riptide.gateway.origin.Outcomes.response;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.riptide.core.testing.ManualClock;
import io.riptide.gateway.origin.FetchException.Reason;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 20, unit = TimeUnit.SECONDS)
class RedirectTest {
    private static EventLoopGroup group;
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
        fetcher = new OriginFetcher(group, OriginFetcherConfig.defaults().withPrivateOrigins(true).withMaxRedirects(3), OriginTls.systemDefault(),
                new ManualClock(0));
    }

    @AfterEach
    void stop() {
        fetcher.close();
    }

    /** /r/N redirects to /r/N-1 (status cycling through the kinds), /r/0 answers; /loop/a and /loop/b point at each other. */
    private static final TestOrigin.Route ROUTES = (ctx, req) -> {
        String uri = req.uri();
        int[] kinds = {301, 302, 303, 307, 308};
        if (uri.startsWith("/r/")) {
            int n = Integer.parseInt(uri.substring(3));
            ctx.writeAndFlush(n == 0 ? TestOrigin.response(HttpResponseStatus.OK, "landed")
                    : TestOrigin.response(HttpResponseStatus.valueOf(kinds[n % kinds.length]), "moved",
                            "Location", n % 2 == 0 ? "/r/" + (n - 1) : (n - 1) + ""));
        } else if (uri.equals("/loop/a")) {
            ctx.writeAndFlush(TestOrigin.response(HttpResponseStatus.FOUND, "", "Location", "b"));
        } else if (uri.equals("/loop/b")) {
            ctx.writeAndFlush(TestOrigin.response(HttpResponseStatus.MOVED_PERMANENTLY, "", "Location", "/loop/a"));
        } else {
            ctx.writeAndFlush(TestOrigin.response(HttpResponseStatus.NOT_FOUND, "no"));
        }
    };

    @Test
    void followsAChainOfAbsoluteAndRelativeRedirects() throws Exception {
        try (TestOrigin origin = new TestOrigin(group, null, ROUTES)) {
            OriginResponse r = response(fetcher.fetch(OriginRequest.get(origin.url("/r/3"))));
            assertEquals(200, r.status());
            assertEquals("landed", new String(r.body(), StandardCharsets.UTF_8));
            assertEquals(3, r.redirects());
            assertEquals(origin.url("/r/0"), r.url());
            assertEquals(4, origin.seen().size());
            assertEquals(3, fetcher.metrics().redirectsFollowed());
            assertEquals(1, fetcher.metrics().connectionsOpened(), "hops to one origin share a connection");
        }
    }

    @Test
    void aLoopIsDetected() throws Exception {
        try (TestOrigin origin = new TestOrigin(group, null, ROUTES)) {
            FetchException e = failure(fetcher.fetch(OriginRequest.get(origin.url("/loop/a"))), Reason.REDIRECT_LOOP);
            assertTrue(e.getMessage().contains(origin.url("/loop/a").toString()), e.getMessage());
            assertEquals(2, origin.seen().size());
        }
    }

    @Test
    void moreRedirectsThanTheLimitFail() throws Exception {
        try (TestOrigin origin = new TestOrigin(group, null, ROUTES)) {
            FetchException e = failure(fetcher.fetch(OriginRequest.get(origin.url("/r/4"))), Reason.TOO_MANY_REDIRECTS);
            assertTrue(e.getMessage().contains("the limit is 3"), e.getMessage());
        }
    }

    @Test
    void aRedirectWithoutLocationIsTheAnswer() throws Exception {
        TestOrigin.Route noLocation = (ctx, req) -> ctx.writeAndFlush(TestOrigin.response(HttpResponseStatus.FOUND, "x"));
        try (TestOrigin origin = new TestOrigin(group, null, noLocation)) {
            assertEquals(302, response(fetcher.fetch(OriginRequest.get(origin.url("/n")))).status());
        }
    }

    @Test
    void aRedirectToAnotherSchemeIsMalformed() throws Exception {
        TestOrigin.Route toFtp = (ctx, req) -> ctx.writeAndFlush(TestOrigin.response(HttpResponseStatus.FOUND, "",
                "Location", "ftp://example.com/file"));
        try (TestOrigin origin = new TestOrigin(group, null, toFtp)) {
            failure(fetcher.fetch(OriginRequest.get(origin.url("/f"))), Reason.MALFORMED_RESPONSE);
        }
    }

    @Test
    void headStaysHeadAcrossRedirects() throws Exception {
        try (TestOrigin origin = new TestOrigin(group, null, ROUTES)) {
            OriginResponse r = response(fetcher.fetch(OriginRequest.head(origin.url("/r/2"))));
            assertEquals(200, r.status());
            assertEquals(0, r.body().length);
            assertTrue(origin.seen().stream().allMatch(s -> s.method().equals("HEAD")));
        }
    }
}
