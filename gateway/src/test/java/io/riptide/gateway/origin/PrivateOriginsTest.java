package io.riptide.gateway.origin;

import io.riptide.core.net.PublicAddresses;
import static io.riptide.gateway.origin.Outcomes.failure;
import static io.riptide.gateway.origin.Outcomes.response;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.resolver.AddressResolver;
import io.netty.resolver.AddressResolverGroup;
import io.netty.resolver.InetNameResolver;
import io.netty.util.NetUtil;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Promise;
import io.riptide.core.testing.ManualClock;
import io.riptide.gateway.origin.FetchException.Reason;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The fetcher fetches public origins only unless private ones are allowed: IP literals in the
 * refused ranges fail before any connection, names are judged by what they resolve to at each
 * connect (redirect hops included), and the reason says what to change. No external DNS: literals,
 * "localhost", and a resolver of the test's own.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class PrivateOriginsTest {
    private static final String POLICY = "; this gateway fetches public origins only (allow-private-origins changes that)";
    private static EventLoopGroup group;

    @BeforeAll
    static void startGroup() {
        group = new NioEventLoopGroup(2);
    }

    @AfterAll
    static void stopGroup() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private static OriginFetcher publicOnly() {
        return new OriginFetcher(group, OriginFetcherConfig.defaults(), OriginTls.systemDefault(), new ManualClock(0));
    }

    @Test
    void literalsInRefusedRangesFailBeforeAnyConnection() throws Exception {
        try (OriginFetcher fetcher = publicOnly(); TestOrigin origin = new TestOrigin(group, null, TestOrigin.ok("secret"))) {
            int port = origin.port();
            String[][] cases = {
                {"http://127.0.0.1:" + port + "/admin", "127.0.0.1 is a loopback address"},
                {"http://[::1]:" + port + "/admin", "::1 is a loopback address"},
                {"http://10.1.2.3/", "10.1.2.3 is a private address"},
                {"http://169.254.169.254/latest/meta-data/", "169.254.169.254 is a link-local address (the cloud metadata service)"},
                {"https://192.168.1.1/", "192.168.1.1 is a private address"},
                {"http://user:pw@[::ffff:10.0.0.1]:8080/x", "::ffff:10.0.0.1 is a private address"},
            };
            for (String[] c : cases) {
                CompletableFuture<OriginResponse> f = fetcher.fetch(OriginRequest.get(URI.create(c[0])));
                assertTrue(f.isDone(), "refused on the spot, before any connect: " + c[0]);
                FetchException e = failure(f, Reason.FORBIDDEN_ORIGIN);
                String shown = c[0].replace("user:pw@", "");
                assertEquals("not fetching " + shown + ": " + c[1] + POLICY, e.getMessage());
            }
            assertEquals(0, origin.connections(), "the loopback origin saw no connection");
            assertEquals(0, fetcher.metrics().connectionsOpened());
            assertEquals(cases.length, fetcher.metrics().failures(Reason.FORBIDDEN_ORIGIN));
        }
    }

    @Test
    void aNameThatResolvesToLoopbackIsRefusedAtResolution() throws Exception {
        try (OriginFetcher fetcher = publicOnly(); TestOrigin origin = new TestOrigin(group, null, TestOrigin.ok("secret"))) {
            URI url = URI.create("http://localhost:" + origin.port() + "/admin");
            FetchException e = failure(fetcher.fetch(OriginRequest.get(url)), Reason.FORBIDDEN_ORIGIN);
            String loopback = NetUtil.toAddressString(InetAddress.getByName("localhost"));
            assertEquals("not fetching " + url + ": localhost resolves to " + loopback + ", a loopback address" + POLICY,
                    e.getMessage());
            assertEquals(url, e.url());
            assertEquals(0, origin.connections(), "the loopback origin saw no connection");
            assertEquals(0, fetcher.metrics().connectionsOpened(), "a refused name opens no connection");
        }
    }

    /**
     * A fetcher whose names come from {@code names}, with 127.0.0.1 standing in for a public
     * address (the tests have no network) and every other address judged as in production.
     */
    private static OriginFetcher withNames(FakeNames names) {
        AddressPolicy policy = new AddressPolicy(
                a -> a.getHostAddress().equals("127.0.0.1") ? null : PublicAddresses.forbidden(a), names);
        return new OriginFetcher(group, OriginFetcherConfig.defaults(), OriginTls.systemDefault(), new ManualClock(0), policy);
    }

    @Test
    void aPublicOriginRedirectingToAPrivateOneIsRefusedAtTheRedirectHop() throws Exception {
        FakeNames names = new FakeNames()
                .add("public.test", "127.0.0.1")
                .add("internal.test", "10.0.0.5");
        try (TestOrigin origin = new TestOrigin(group, null, (ctx, req) -> ctx.writeAndFlush(switch (req.uri()) {
            case "/to-literal" -> TestOrigin.response(HttpResponseStatus.FOUND, "", "Location", "http://192.168.1.1/router");
            case "/to-name" -> TestOrigin.response(HttpResponseStatus.MOVED_PERMANENTLY, "", "Location",
                    "http://internal.test:" + ((InetSocketAddress) ctx.channel().localAddress()).getPort() + "/wiki");
            default -> TestOrigin.response(HttpResponseStatus.OK, "public page");
        }));
             OriginFetcher fetcher = withNames(names)) {
            String base = "http://public.test:" + origin.port();
            OriginResponse ok = response(fetcher.fetch(OriginRequest.get(URI.create(base + "/page"))));
            assertEquals("public page", new String(ok.body(), StandardCharsets.UTF_8), "the stand-in public origin is fetched");

            FetchException literal = failure(fetcher.fetch(OriginRequest.get(URI.create(base + "/to-literal"))),
                    Reason.FORBIDDEN_ORIGIN);
            assertEquals("not fetching http://192.168.1.1/router: 192.168.1.1 is a private address" + POLICY, literal.getMessage());
            assertEquals(URI.create("http://192.168.1.1/router"), literal.url());

            FetchException named = failure(fetcher.fetch(OriginRequest.get(URI.create(base + "/to-name"))),
                    Reason.FORBIDDEN_ORIGIN);
            URI hop = URI.create("http://internal.test:" + origin.port() + "/wiki");
            assertEquals("not fetching " + hop + ": internal.test resolves to 10.0.0.5, a private address" + POLICY,
                    named.getMessage());
            assertEquals(hop, named.url());
            assertEquals(3, origin.seen().size(), "the public origin answered; the private hops were never fetched");
        }
    }

    @Test
    void aNameIsJudgedAgainAtEachConnectSoRebindingDoesNotGetThrough() throws Exception {
        FakeNames names = new FakeNames().add("rebind.test", "127.0.0.1", "10.0.0.5");
        try (TestOrigin origin = new TestOrigin(group, null, TestOrigin.ok("first", "Connection", "close"));
             OriginFetcher fetcher = withNames(names)) {
            URI url = URI.create("http://rebind.test:" + origin.port() + "/");
            assertEquals(200, response(fetcher.fetch(OriginRequest.get(url))).status());
            FetchException e = failure(fetcher.fetch(OriginRequest.get(url)), Reason.FORBIDDEN_ORIGIN);
            assertTrue(e.getMessage().contains("rebind.test resolves to 10.0.0.5, a private address"), e.getMessage());
            assertEquals(1, origin.connections());
        }
    }

    @Test
    void withPrivateOriginsAllowedLoopbackIsFetchedAsBefore() throws Exception {
        try (OriginFetcher fetcher = new OriginFetcher(group, OriginFetcherConfig.defaults().withPrivateOrigins(true),
                OriginTls.systemDefault(), new ManualClock(0));
             TestOrigin origin = new TestOrigin(group, null, (ctx, req) -> ctx.writeAndFlush(req.uri().equals("/start")
                     ? TestOrigin.response(HttpResponseStatus.FOUND, "", "Location",
                             "http://127.0.0.1:" + ((InetSocketAddress) ctx.channel().localAddress()).getPort() + "/inside")
                     : TestOrigin.response(HttpResponseStatus.OK, "internal page")))) {
            OriginResponse r = response(fetcher.fetch(OriginRequest.get(origin.url("/start"))));
            assertEquals("internal page", new String(r.body(), StandardCharsets.UTF_8));
            assertEquals(1, r.redirects());
            assertEquals(0, fetcher.metrics().failures(Reason.FORBIDDEN_ORIGIN));
        }
    }

    /** Names resolved from a table: each lookup takes the next address, the last one repeating. */
    private static final class FakeNames extends AddressResolverGroup<InetSocketAddress> {
        private final Map<String, Deque<InetAddress>> table = new ConcurrentHashMap<>();

        FakeNames add(String name, String... literals) throws UnknownHostException {
            Deque<InetAddress> answers = new ArrayDeque<>();
            for (String l : literals) {
                answers.add(InetAddress.getByAddress(name, InetAddress.getByName(l).getAddress()));
            }
            table.put(name, answers);
            return this;
        }

        private synchronized InetAddress lookup(String name) throws UnknownHostException {
            Deque<InetAddress> answers = table.get(name);
            if (answers == null) {
                throw new UnknownHostException(name);
            }
            return answers.size() > 1 ? answers.poll() : answers.peek();
        }

        @Override
        protected AddressResolver<InetSocketAddress> newResolver(EventExecutor executor) {
            return new InetNameResolver(executor) {
                @Override
                protected void doResolve(String host, Promise<InetAddress> promise) {
                    try {
                        promise.setSuccess(lookup(host));
                    } catch (UnknownHostException e) {
                        promise.setFailure(e);
                    }
                }

                @Override
                protected void doResolveAll(String host, Promise<List<InetAddress>> promise) {
                    try {
                        promise.setSuccess(List.of(lookup(host)));
                    } catch (UnknownHostException e) {
                        promise.setFailure(e);
                    }
                }
            }.asAddressResolver();
        }
    }
}
