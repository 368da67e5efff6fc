package io.riptide.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.proxy.ProxyStats.Cap;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Connection caps over loopback: a connection over a cap is answered 503 at once, with Retry-After and
 * one line saying which cap, then closed, and counted on /metrics; one closing frees its place. The
 * proxy listens on 127.0.0.1; clients from 127.0.0.1 are on its own host (held to the global cap only),
 * and a client from 127.0.0.2 stands in for another machine.
 */
@Timeout(30)
class ConnectionCapsTest {
    private TestOrigin origin;
    private ProxyServer proxy;
    private final List<RawClient> open = new ArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        origin = new TestOrigin().route("/page", x -> TestOrigin.send(x, 200, "the page"));
    }

    @AfterEach
    void tearDown() throws Exception {
        for (RawClient c : open) {
            c.close();
        }
        if (proxy != null) {
            proxy.close();
        }
        origin.close();
    }

    private void start(int max, int perClient) {
        proxy = ProxyServer.start(ProxyConfig.builder().host("127.0.0.1").port(0).passThrough(true)
                .maxConnections(max).maxConnectionsPerClient(perClient).build(), CacheLookup.NONE);
    }

    private String get(String path) {
        return "GET " + origin.url(path) + " HTTP/1.1\r\nHost: 127.0.0.1:" + origin.port() + "\r\n\r\n";
    }

    /** A connection that was admitted: it has been answered once. */
    private RawClient served(InetAddress from) throws Exception {
        RawClient c = new RawClient(proxy.address(), from);
        open.add(c);
        c.send(get("/page"));
        assertEquals("the page", c.read().body());
        return c;
    }

    private static void assertOverCap(RawClient c, String option) throws Exception {
        RawClient.Response r = c.read();
        assertEquals(503, r.status(), r.body());
        assertEquals("10", r.header("retry-after"));
        assertEquals("close", r.header("connection"));
        assertTrue(r.body().contains(option), r.body());
        assertEquals(1, r.body().lines().count(), r.body());
        assertTrue(c.closedByPeer());
    }

    @Test
    void aConnectionOverTheGlobalCapGets503AtOnceEvenFromTheProxysOwnHost() throws Exception {
        start(3, 256);
        InetAddress self = InetAddress.getByName("127.0.0.1");
        RawClient first = served(self);
        served(self);
        served(self);
        try (RawClient silent = new RawClient(proxy.address(), self)) {
            // Answered without sending anything: it holds no descriptor while it thinks.
            assertOverCap(silent, "--max-connections");
        }
        try (RawClient asking = new RawClient(proxy.address(), self)) {
            asking.send(get("/page"));
            assertOverCap(asking, "--max-connections");
        }
        assertEquals(2, proxy.stats().connectionsOverCap(Cap.GLOBAL));
        first.send("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
        String metrics = first.read().body();
        assertTrue(metrics.contains("riptide_proxy_connections_over_cap_total{cap=\"global\"} 2"), metrics);
        assertTrue(metrics.contains("riptide_proxy_client_connections 3"), metrics);
        // A connection closing frees its place.
        first.close();
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (proxy.stats().clientConnections() > 2 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        served(self);
        assertEquals(4, origin.requests.get());
    }

    @Test
    void oneAddressIsHeldToThePerClientCapButTheProxysOwnHostIsNot() throws Exception {
        start(100, 2);
        InetAddress other = InetAddress.getByName("127.0.0.2");
        InetAddress self = InetAddress.getByName("127.0.0.1");
        served(other);
        served(other);
        try (RawClient third = new RawClient(proxy.address(), other)) {
            third.send(get("/page"));
            assertOverCap(third, "--max-connections-per-client");
        }
        for (int i = 0; i < 4; i++) {
            served(self);
        }
        assertEquals(1, proxy.stats().connectionsOverCap(Cap.PER_CLIENT));
        assertEquals(0, proxy.stats().connectionsOverCap(Cap.GLOBAL));
        assertEquals(6, proxy.stats().clientConnections());
    }
}
