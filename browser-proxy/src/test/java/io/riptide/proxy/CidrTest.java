package io.riptide.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Client networks: how they are read, printed and matched, and what is refused with which message. */
class CidrTest {
    private static InetAddress ip(String literal) throws Exception {
        return InetAddress.getByName(literal); // literals only: no lookup
    }

    @Test
    void ipv4NetworksMatchTheirAddressesOnly() throws Exception {
        Cidr n = Cidr.parse("10.20.0.0/16");
        assertEquals("10.20.0.0/16", n.toString());
        assertTrue(n.contains(ip("10.20.0.0")));
        assertTrue(n.contains(ip("10.20.255.255")));
        assertFalse(n.contains(ip("10.21.0.0")));
        assertFalse(n.contains(ip("10.19.255.255")));
        assertFalse(n.contains(ip("::a14:1")), "an IPv6 address is never in an IPv4 network");
        Cidr odd = Cidr.parse("192.168.4.0/22");
        assertTrue(odd.contains(ip("192.168.7.200")));
        assertFalse(odd.contains(ip("192.168.8.1")));
    }

    @Test
    void slash32AndABareAddressAreOneHost() throws Exception {
        assertEquals(Cidr.parse("127.0.0.2/32"), Cidr.parse("127.0.0.2"));
        assertEquals("127.0.0.2", Cidr.parse("127.0.0.2/32").toString());
        assertTrue(Cidr.parse("127.0.0.2/32").contains(ip("127.0.0.2")));
        assertFalse(Cidr.parse("127.0.0.2/32").contains(ip("127.0.0.1")));
        assertFalse(Cidr.parse("127.0.0.2/32").contains(ip("127.0.0.3")));
    }

    @Test
    void slash0IsEveryAddressOfItsFamily() throws Exception {
        Cidr v4 = Cidr.parse("0.0.0.0/0");
        assertTrue(v4.contains(ip("1.2.3.4")) && v4.contains(ip("255.255.255.255")) && v4.contains(ip("0.0.0.0")));
        assertFalse(v4.contains(ip("2001:db8::1")));
        Cidr v6 = Cidr.parse("::/0");
        assertEquals("::/0", v6.toString());
        assertTrue(v6.contains(ip("2001:db8::1")) && v6.contains(ip("::1")));
        assertFalse(v6.contains(ip("1.2.3.4")), "::/0 is IPv6 only; 0.0.0.0/0 is IPv4");
    }

    @Test
    void ipv6NetworksAndSlash128() throws Exception {
        Cidr n = Cidr.parse("2001:DB8:0:0::/32");
        assertEquals("2001:db8::/32", n.toString());
        assertTrue(n.contains(ip("2001:db8:ffff::1")));
        assertFalse(n.contains(ip("2001:db9::1")));
        Cidr odd = Cidr.parse("fd00::/8");
        assertFalse(odd.contains(ip("fe80::1")));
        assertTrue(Cidr.parse("fc00::/7").contains(ip("fdff::1")));
        Cidr host = Cidr.parse("::1/128");
        assertEquals(Cidr.parse("::1"), host);
        assertEquals("::1", host.toString());
        assertTrue(host.contains(ip("::1")));
        assertFalse(host.contains(ip("::2")));
        assertFalse(host.contains(ip("127.0.0.1")));
        assertTrue(Cidr.parse("[2001:db8::]/48").contains(ip("2001:db8:0:1::")));
    }

    @Test
    void ipv4MappedClientsMatchIpv4Networks() throws Exception {
        // Java turns a mapped literal into an Inet4Address; a dual-stack socket may hand over the raw form.
        InetAddress mapped = Inet6Address.getByAddress(null,
                new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, 10, 1, 2, 3}, null);
        assertEquals(16, mapped.getAddress().length);
        assertTrue(Cidr.parse("10.0.0.0/8").contains(mapped));
        assertFalse(Cidr.parse("11.0.0.0/8").contains(mapped));
        assertTrue(Cidr.parse("10.1.2.3/32").contains(mapped));
        assertTrue(Cidr.parse("0.0.0.0/0").contains(mapped));
        // A network written as mapped is the IPv4 network.
        assertEquals(Cidr.parse("10.0.0.0/8"), Cidr.parse("::ffff:10.0.0.0/104"));
        assertEquals(Cidr.parse("10.1.2.3"), Cidr.parse("::ffff:10.1.2.3"));
        assertTrue(Cidr.parse("::ffff:10.0.0.0/104").contains(ip("10.9.9.9")));
    }

    @Test
    void theDefaultIsLoopbackOnly() throws Exception {
        assertEquals("[127.0.0.0/8, ::1]", Cidr.LOOPBACK.toString());
        ProxyConfig c = ProxyConfig.defaults();
        assertEquals(Cidr.LOOPBACK, c.allowFrom());
        assertTrue(c.clientAllowed(ip("127.0.0.1")) && c.clientAllowed(ip("127.255.0.9")) && c.clientAllowed(ip("::1")));
        assertFalse(c.clientAllowed(ip("192.168.1.2")) || c.clientAllowed(ip("::2")) || c.clientAllowed(ip("128.0.0.1")));
        assertThrows(IllegalArgumentException.class, () -> ProxyConfig.builder().allowFrom(List.of()).build());
    }

    @Test
    void badInputsAreRefusedNamingTheValue() {
        for (String bad : new String[] {"", " ", "nonsense", "localhost", "example.org/24", "10.0.0.0/", "/8", "10.0.0/8", "10.0.0.256",
            "10.0.0.0/-1", "10.0.0.0/+8", "10.0.0.0/8/8", "10.0.0.0/8x", "10.0.0.0/1000", "1::2::3", "fe80::1%eth0", "fe80::1%1/64",
            "10.0.0.0/8,10.1.0.0/16"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Cidr.parse(bad), bad);
            assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
        }
        assertEquals("expected a network as ADDRESS/PREFIX (10.0.0.0/8, 2001:db8::/32) or one address, got 'nonsense'",
                assertThrows(IllegalArgumentException.class, () -> Cidr.parse("nonsense")).getMessage());
        assertEquals("'10.0.0.0/33': the prefix of an IPv4 network is at most /32",
                assertThrows(IllegalArgumentException.class, () -> Cidr.parse("10.0.0.0/33")).getMessage());
        assertEquals("'::/129': the prefix of an IPv6 network is at most /128",
                assertThrows(IllegalArgumentException.class, () -> Cidr.parse("::/129")).getMessage());
        assertEquals("'10.1.2.3/8' has bits set past its /8 prefix; did you mean 10.0.0.0/8?",
                assertThrows(IllegalArgumentException.class, () -> Cidr.parse("10.1.2.3/8")).getMessage());
        assertEquals("'2001:db8::1/64' has bits set past its /64 prefix; did you mean 2001:db8::/64?",
                assertThrows(IllegalArgumentException.class, () -> Cidr.parse("2001:db8::1/64")).getMessage());
    }

    @Test
    void surroundingSpacesAreIgnored() {
        assertEquals(Cidr.parse("10.0.0.0/8"), Cidr.parse(" 10.0.0.0/8 "));
    }
}
