package io.riptide.dolr.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.dolr.discovery.MdnsInterface.Candidate;
import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which interface mDNS may use: only one the operator named, the node's own, or the one LAN interface; never a guess. */
class MdnsInterfaceTest {
    private static final Candidate LO = new Candidate("lo", true, true, false, false, List.of(ip("127.0.0.1"), ip("::1")));
    private static final Candidate LO_MULTICAST = new Candidate("lo", true, true, true, false, List.of(ip("127.0.0.1")));
    private static final Candidate ETH0 = new Candidate("eth0", true, false, true, false, List.of(ip("fe80::1"), ip("10.0.0.5")));
    private static final Candidate WLAN0 = new Candidate("wlan0", true, false, true, false, List.of(ip("192.168.1.5")));
    private static final Candidate DOWN = new Candidate("eth1", false, false, true, false, List.of(ip("10.1.0.5")));
    private static final Candidate TUN = new Candidate("tun0", true, false, true, true, List.of(ip("10.8.0.2")));

    @Test
    void aNamedInterfaceIsUsedByNameOrByAddressPreferringIpv4() {
        assertEquals(new MdnsInterface("eth0", ip("10.0.0.5")), MdnsInterface.named("eth0", List.of(LO, ETH0)));
        assertEquals(new MdnsInterface("eth0", ip("10.0.0.5")), MdnsInterface.named("10.0.0.5", List.of(LO, ETH0)));
        assertEquals(new MdnsInterface("lo", ip("127.0.0.1")), MdnsInterface.named("lo", List.of(LO_MULTICAST, ETH0)),
                "loopback only when named, and only if it has the MULTICAST flag (as in a test network namespace)");
    }

    @Test
    void aNamedInterfaceThatCannotCarryMulticastIsAnError() {
        assertTrue(message(() -> MdnsInterface.named("lo", List.of(LO, ETH0))).contains("lo does not support multicast"));
        assertTrue(message(() -> MdnsInterface.named("eth1", List.of(DOWN))).contains("eth1 is down"));
        assertTrue(message(() -> MdnsInterface.named("eth9", List.of(LO, ETH0))).contains("no interface named 'eth9'"));
        assertTrue(message(() -> MdnsInterface.named("10.9.9.9", List.of(LO, ETH0))).contains("no interface of this machine has"));
    }

    @Test
    void aNodeAnnouncesOnTheInterfaceOfItsOwnAddressButNeverFromLoopback() {
        assertEquals(new MdnsInterface("wlan0", ip("192.168.1.5")), MdnsInterface.holding("192.168.1.5", List.of(LO, ETH0, WLAN0)));
        assertTrue(message(() -> MdnsInterface.holding("127.0.0.1", List.of(LO_MULTICAST, ETH0)))
                .contains("nobody else on the network can reach"));
    }

    @Test
    void withoutANameOnlyTheOneLanInterfaceIsChosen() {
        assertEquals("eth0", MdnsInterface.choose(List.of(LO_MULTICAST, ETH0, DOWN, TUN)).name());
        assertTrue(message(() -> MdnsInterface.choose(List.of(LO_MULTICAST, DOWN, TUN))).contains("no LAN interface"));
        assertTrue(message(() -> MdnsInterface.choose(List.of(LO, ETH0, WLAN0))).contains("several LAN interfaces (eth0, wlan0)"));
    }

    private static String message(Runnable r) {
        return assertThrows(IllegalArgumentException.class, r::run).getMessage();
    }

    private static InetAddress ip(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (java.net.UnknownHostException e) {
            throw new AssertionError(e);
        }
    }
}
