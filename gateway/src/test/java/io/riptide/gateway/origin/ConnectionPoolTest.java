package io.riptide.gateway.origin;

import static io.riptide.gateway.origin.Outcomes.response;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.riptide.core.testing.Await;
import io.riptide.core.testing.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Keep-alive connections: bounded per origin, closed when idle, replaced when the origin dropped them. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class ConnectionPoolTest {
    private static EventLoopGroup group;

    @BeforeAll
    static void startGroup() {
        group = new NioEventLoopGroup(2);
    }

    @AfterAll
    static void stopGroup() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Test
    void connectionsPerOriginAreBounded() throws Exception {
        Set<String> open = ConcurrentHashMap.newKeySet();
        // Answers slowly, so concurrent fetches need concurrent connections.
        TestOrigin.Route slow = (ctx, req) -> {
            open.add(ctx.channel().id().asLongText());
            ctx.executor().schedule(() -> ctx.writeAndFlush(TestOrigin.response(HttpResponseStatus.OK, "s")),
                    50, TimeUnit.MILLISECONDS);
        };
        try (OriginFetcher f = new OriginFetcher(group, OriginFetcherConfig.defaults().withPrivateOrigins(true).withMaxConnectionsPerOrigin(2),
                OriginTls.systemDefault(), new ManualClock(0));
                TestOrigin origin = new TestOrigin(group, null, slow)) {
            List<CompletableFuture<OriginResponse>> all = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                all.add(f.fetch(OriginRequest.get(origin.url("/" + i))));
            }
            for (var r : all) {
                assertEquals(200, response(r).status());
            }
            assertEquals(2, open.size());
            assertEquals(2, f.metrics().connectionsOpened());
            assertEquals(6, f.metrics().connectionsReused());
        }
    }

    @Test
    void idleConnectionsAreClosedAndAStaleOneIsReplaced() throws Exception {
        Set<String> closedByUs = ConcurrentHashMap.newKeySet();
        TestOrigin.Route route = (ctx, req) -> {
            ctx.channel().closeFuture().addListener(c -> closedByUs.add(ctx.channel().id().asLongText()));
            ctx.writeAndFlush(TestOrigin.response(HttpResponseStatus.OK, "i"));
        };
        OriginFetcherConfig config = OriginFetcherConfig.defaults().withPrivateOrigins(true).withDeadline(Duration.ofMillis(300))
                .withIdleTimeout(Duration.ofMillis(300));
        try (OriginFetcher f = new OriginFetcher(group, config, OriginTls.systemDefault(), new ManualClock(0));
                TestOrigin origin = new TestOrigin(group, null, route)) {
            response(f.fetch(OriginRequest.get(origin.url("/1"))));
            Await.until("the idle connection closes", () -> closedByUs.size() == 1);
            response(f.fetch(OriginRequest.get(origin.url("/2"))));
            assertTrue(f.metrics().connectionsOpened() == 2, "a fresh connection after the idle one closed");
        }
    }

    @Test
    void aKeptConnectionTheOriginDroppedDoesNotFailTheNextFetch() throws Exception {
        // Every connection answers one request and then closes without saying so: the fetcher can't
        // tell before it sends the second request on the kept connection.
        try (ScriptedOrigin origin = new ScriptedOrigin(ScriptedOrigin.raw("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"));
                OriginFetcher f = new OriginFetcher(group, OriginFetcherConfig.defaults().withPrivateOrigins(true), OriginTls.systemDefault(),
                        new ManualClock(0))) {
            response(f.fetch(OriginRequest.get(origin.url("/1"))));
            Await.until("the origin has served the first connection", () -> origin.requests().size() == 1);
            assertEquals(200, response(f.fetch(OriginRequest.get(origin.url("/2")))).status());
            assertEquals(2, f.metrics().connectionsOpened());
        }
    }
}
