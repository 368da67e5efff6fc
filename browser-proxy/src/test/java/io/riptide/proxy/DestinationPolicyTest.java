package io.riptide.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
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
 * The destination policy as a client of a proxy serving other machines sees it: a request or tunnel
 * to this host's loopback (however its address is spelled, or a name that resolves to it) gets 403
 * saying why, and nothing is connected to; a network the operator allowed is served; a proxy serving
 * its own machine only reaches loopback as before. Every destination here is on loopback, so nothing
 * leaves the machine even if the policy failed.
 */
@Timeout(30)
class DestinationPolicyTest {
    /** Loopback and a LAN: the proxy serves other machines, so {@code auto} keeps it to public destinations. */
    private static final List<Cidr> CAMPUS = List.of(Cidr.parse("127.0.0.0/8"), Cidr.parse("192.168.0.0/16"));

    private TestOrigin origin;
    private ProxyServer proxy;

    @BeforeEach
    void setUp() throws Exception {
        origin = new TestOrigin().route("/page", x -> TestOrigin.send(x, 200, "the page"));
    }

    @AfterEach
    void tearDown() {
        if (proxy != null) {
            proxy.close();
        }
        origin.close();
    }

    private void start(ProxyConfig.Builder config) {
        proxy = ProxyServer.start(config.host("127.0.0.1").port(0).build(), RecordingCache.missing());
    }

    private RawClient.Response get(String host) throws Exception {
        try (RawClient c = new RawClient(proxy.address())) {
            c.send("GET http://" + host + ":" + origin.port() + "/page HTTP/1.1\r\nHost: " + host + "\r\n\r\n");
            return c.read();
        }
    }

    @Test
    void loopbackHowEverSpelledIsRefusedWithTheReasonAndNeverContacted() throws Exception {
        start(ProxyConfig.builder().allowFrom(CAMPUS));
        for (String host : new String[] {"127.0.0.1", "0177.0.0.1", "0x7f.1", "2130706433", "127.1", "0x7f000001", "[::ffff:127.0.0.1]"}) {
            RawClient.Response r = get(host);
            assertEquals(403, r.status(), host);
            // An IPv4 spelling is named as the address; the mapped IPv6 form as what it maps to.
            String named = host.startsWith("[") ? "::ffff:7f00:1 resolves to 127.0.0.1" : "127.0.0.1";
            assertTrue(r.body().startsWith("this proxy does not connect to " + named + ", a loopback address"), host + ": " + r.body());
            assertTrue(r.body().contains("--allow-destination"), r.body());
        }
        RawClient.Response byName = get("localhost");
        assertEquals(403, byName.status());
        assertTrue(byName.body().contains("localhost resolves to") && byName.body().contains("a loopback address"), byName.body());
        assertEquals(0, origin.requests.get(), "nothing reached the loopback origin");
        try (RawClient c = new RawClient(proxy.address())) {
            c.send("GET /status.json HTTP/1.1\r\nHost: x\r\n\r\n");
            String status = c.read().body();
            assertTrue(status.contains("public addresses only"), status);
        }
    }

    @Test
    void aNetworkTheOperatorAllowedIsServed() throws Exception {
        start(ProxyConfig.builder().allowFrom(CAMPUS)
                .destinations(new DestinationPolicy(DestinationPolicy.Mode.AUTO, List.of(Cidr.parse("127.0.0.1")))));
        RawClient.Response r = get("0177.0.0.1");
        assertEquals(200, r.status(), r.body());
        assertEquals("the page", r.body());
        assertEquals(1, origin.requests.get());
    }

    @Test
    void aProxyServingItsOwnMachineOnlyReachesLoopbackAsBefore() throws Exception {
        start(ProxyConfig.builder());
        assertEquals(200, get("127.0.0.1").status());
        assertEquals(200, get("0x7f.1").status(), "read as browsers read it: 127.0.0.1, not a name");
        assertEquals(2, origin.requests.get());
    }

    @Test
    void publicModeAppliesEvenToALoopbackOnlyProxy() throws Exception {
        start(ProxyConfig.builder().destinations(new DestinationPolicy(DestinationPolicy.Mode.PUBLIC, List.of())));
        assertEquals(403, get("127.0.0.1").status());
        assertEquals(0, origin.requests.get());
    }

    @Test
    void aTunnelToLoopbackIsRefusedBeforeAnyConnect() throws Exception {
        try (ServerSocket target = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
            start(ProxyConfig.builder().allowFrom(CAMPUS).tunnelPorts(Set.of(target.getLocalPort())));
            for (String host : new String[] {"127.0.0.1", "0177.0.0.1", "localhost"}) {
                try (RawClient c = new RawClient(proxy.address())) {
                    c.send("CONNECT " + host + ":" + target.getLocalPort() + " HTTP/1.1\r\nHost: " + host + "\r\n\r\n");
                    RawClient.Response r = c.read();
                    assertEquals(403, r.status(), host);
                    assertTrue(r.body().contains("a loopback address"), r.body());
                }
            }
            target.setSoTimeout(500);
            assertThrows(SocketTimeoutException.class, target::accept, "the proxy never connected to the tunnel's target");
        }
        assertEquals(0, proxy.stats().tunnels());
    }

    @Test
    void theRuleAppliesOnceClientsReachBeyondLoopbackAndJudgesByAddress() throws Exception {
        DestinationPolicy auto = DestinationPolicy.AUTO;
        assertFalse(auto.enforced(Cidr.LOOPBACK));
        assertFalse(auto.enforced(List.of(Cidr.parse("127.0.0.2"))));
        assertTrue(auto.enforced(CAMPUS));
        assertTrue(auto.enforced(List.of(Cidr.parse("0.0.0.0/0"))));
        assertFalse(new DestinationPolicy(DestinationPolicy.Mode.ANY, List.of()).enforced(CAMPUS));
        assertEquals("a link-local address (the cloud metadata service)", auto.refusal(InetAddress.getByName("169.254.169.254")));
        assertEquals("a private address", auto.refusal(InetAddress.getByName("10.1.2.3")));
        assertNull(auto.refusal(InetAddress.getByName("93.184.216.34")));
        assertNull(new DestinationPolicy(DestinationPolicy.Mode.PUBLIC, List.of(Cidr.parse("10.1.0.0/16")))
                .refusal(InetAddress.getByName("10.1.2.3")), "an allowed intranet");
        assertThrows(IllegalArgumentException.class, () -> DestinationPolicy.Mode.parse("public-only"));
    }
}
