package io.riptide.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Client access control: the proxy listens on 127.0.0.1 and a client connecting from 127.0.0.2
 * stands in for another machine. The default allow-list (all of 127.0.0.0/8, and ::1) holds
 * 127.0.0.2, so the tests that need an outsider narrow it to {@link #THIS_HOST}: 127.0.0.1 and ::1.
 * A client outside the allow-list gets 403 and a closed connection on its first request, and
 * nothing behind the front moves: no origin request, no cache lookup, no tunnel.
 */
@Timeout(30)
class ClientAccessTest {
    /** The default with 127.0.0.2 left out, so that 127.0.0.2 is another machine. */
    private static final List<Cidr> THIS_HOST = List.of(Cidr.parse("127.0.0.1/32"), Cidr.parse("::1"));
    private static final String REFUSAL = "this proxy serves clients in 127.0.0.1, ::1; "
            + "ask its operator to add your network with --allow-from\n";

    private InetAddress outsider;
    private TestOrigin origin;
    private RecordingCache cache;
    private ProxyServer proxy;

    @BeforeEach
    void setUp() throws Exception {
        outsider = InetAddress.getByName("127.0.0.2");
        origin = new TestOrigin().route("/page", x -> TestOrigin.send(x, 200, "the page"));
        cache = RecordingCache.missing();
    }

    @AfterEach
    void tearDown() {
        if (proxy != null) {
            proxy.close();
        }
        origin.close();
    }

    private ProxyServer start(ProxyConfig.Builder config) {
        proxy = ProxyServer.start(config.host("127.0.0.1").port(0).build(), cache);
        return proxy;
    }

    private String get(String path) {
        return "GET " + origin.url(path) + " HTTP/1.1\r\nHost: 127.0.0.1:" + origin.port() + "\r\n\r\n";
    }

    @Test
    void anOutsiderGets403WithAReadableBodyAndNothingReachesTheOrigin() throws Exception {
        start(ProxyConfig.builder().allowFrom(THIS_HOST));
        try (RawClient c = new RawClient(proxy.address(), outsider)) {
            // Pipelined: the second request must not be served either.
            c.send(get("/page") + get("/page"));
            RawClient.Response r = c.read();
            assertEquals(403, r.status());
            assertEquals(REFUSAL, r.body());
            assertEquals("text/plain; charset=utf-8", r.header("content-type"));
            assertEquals("close", r.header("connection"));
            assertTrue(c.closedByPeer(), "the connection is closed after the 403");
        }
        assertEquals(0, origin.requests.get(), "nothing reached the origin");
        assertEquals(List.of(), cache.lookups, "no cache lookup");
        assertEquals(0, proxy.stats().upstreamConnectionsOpened());
        assertEquals(1, proxy.stats().clientsRefused());
        assertEquals(0, proxy.stats().errors() + proxy.stats().misses() + proxy.stats().hits() + proxy.stats().bypasses(),
                "a refusal is not an answered request");
    }

    @Test
    void theRefusalCounterShowsOnTheStatusPageAndMetrics() throws Exception {
        start(ProxyConfig.builder().allowFrom(THIS_HOST));
        for (int i = 0; i < 2; i++) {
            try (RawClient c = new RawClient(proxy.address(), outsider)) {
                c.send(get("/page"));
                assertEquals(403, c.read().status());
            }
        }
        try (RawClient local = new RawClient(proxy.address())) {
            local.send("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
            String metrics = local.read().body();
            assertTrue(metrics.contains("# TYPE riptide_proxy_clients_refused_total counter"), metrics);
            assertTrue(metrics.contains("\nriptide_proxy_clients_refused_total 2\n"), metrics);
            local.send("GET /status.json HTTP/1.1\r\nHost: x\r\n\r\n");
            String status = local.read().body();
            assertTrue(status.contains("clients refused (not in allow-from)") && status.contains("127.0.0.1, ::1"), status);
        }
    }

    @Test
    void thePacFileAndStatusPagesFollowTheAllowList() throws Exception {
        start(ProxyConfig.builder().allowFrom(THIS_HOST));
        for (String page : new String[] {"/proxy.pac", "/status", "/status.json", "/metrics"}) {
            try (RawClient c = new RawClient(proxy.address(), outsider)) {
                c.send("GET " + page + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
                RawClient.Response r = c.read();
                assertEquals(403, r.status(), page);
                assertEquals(REFUSAL, r.body(), page);
            }
        }
        assertEquals(4, proxy.stats().clientsRefused());
    }

    @Test
    void connectFromAnOutsiderGets403AndNoTunnel() throws Exception {
        start(ProxyConfig.builder().allowFrom(THIS_HOST).tunnelPorts(Set.of()));
        try (ServerSocket target = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
            try (RawClient c = new RawClient(proxy.address(), outsider)) {
                c.send("CONNECT 127.0.0.1:" + target.getLocalPort() + " HTTP/1.1\r\nHost: 127.0.0.1:" + target.getLocalPort()
                        + "\r\n\r\n");
                RawClient.Response r = c.read();
                assertEquals(403, r.status());
                assertEquals(REFUSAL, r.body());
                assertTrue(c.closedByPeer());
            }
            target.setSoTimeout(500);
            assertThrows(SocketTimeoutException.class, target::accept, "the proxy never connected to the tunnel's target");
        }
        assertEquals(0, proxy.stats().tunnels());
        assertEquals(1, proxy.stats().clientsRefused());
    }

    @Test
    void aClientInTheAllowListIsServedAndLoopbackIsNoLongerImplied() throws Exception {
        start(ProxyConfig.builder().allowFrom(List.of(Cidr.parse("127.0.0.2/32"))));
        try (RawClient c = new RawClient(proxy.address(), outsider)) {
            c.send(get("/page"));
            RawClient.Response r = c.read();
            assertEquals(200, r.status());
            assertEquals("the page", r.body());
            // Kept alive: the next request on the same connection is served too.
            c.send(get("/page"));
            assertEquals("the page", c.read().body());
        }
        assertEquals(2, origin.requests.get());
        assertEquals(0, proxy.stats().clientsRefused());
        try (RawClient c = new RawClient(proxy.address(), InetAddress.getByName("127.0.0.1"))) {
            c.send(get("/page"));
            RawClient.Response r = c.read();
            assertEquals(403, r.status());
            assertEquals("this proxy serves clients in 127.0.0.2; ask its operator to add your network with --allow-from\n", r.body());
        }
        assertEquals(2, origin.requests.get());
        assertEquals(1, proxy.stats().clientsRefused());
    }

    @Test
    void theDefaultServesAllOfLoopbackAsBefore() throws Exception {
        start(ProxyConfig.builder());
        for (String from : new String[] {"127.0.0.1", "127.0.0.2", "127.1.2.3"}) {
            try (RawClient c = new RawClient(proxy.address(), InetAddress.getByName(from))) {
                c.send(get("/page"));
                assertEquals(200, c.read().status(), from);
            }
        }
        assertEquals(0, proxy.stats().clientsRefused());
    }

    @Test
    void aWiderNetworkAdmitsEveryAddressInIt() throws Exception {
        // Clients on a LAN would keep the proxy to public destinations; this test's origin is on loopback.
        start(ProxyConfig.builder().allowFrom(List.of(Cidr.parse("10.0.0.0/8"), Cidr.parse("127.0.0.0/30")))
                .destinations(new DestinationPolicy(DestinationPolicy.Mode.ANY, List.of())));
        for (String from : new String[] {"127.0.0.1", "127.0.0.3"}) {
            try (RawClient c = new RawClient(proxy.address(), InetAddress.getByName(from))) {
                c.send(get("/page"));
                assertEquals(200, c.read().status(), from);
            }
        }
        try (RawClient c = new RawClient(proxy.address(), InetAddress.getByName("127.0.0.4"))) {
            c.send(get("/page"));
            assertEquals(403, c.read().status());
        }
    }
}
