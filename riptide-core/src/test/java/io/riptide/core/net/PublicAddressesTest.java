package io.riptide.core.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.util.NetUtil;
import java.net.Inet6Address;
import java.net.InetAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Which addresses a public-origins-only gateway refuses, range by range, edges included. */
class PublicAddressesTest {
    private static String kind(String literal) {
        byte[] bytes = NetUtil.createByteArrayFromIpAddressString(literal);
        if (bytes == null) {
            throw new IllegalArgumentException("not a literal: " + literal);
        }
        return PublicAddresses.forbidden(bytes);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "0.0.0.0|an unspecified address",
        "0.1.2.3|an unspecified address",
        "127.0.0.1|a loopback address",
        "127.255.255.254|a loopback address",
        "10.0.0.0|a private address",
        "10.1.2.3|a private address",
        "10.255.255.255|a private address",
        "172.16.0.1|a private address",
        "172.31.255.255|a private address",
        "192.168.1.1|a private address",
        "100.64.0.1|a carrier-grade NAT address",
        "100.127.255.255|a carrier-grade NAT address",
        "169.254.0.1|a link-local address",
        "169.254.169.254|a link-local address (the cloud metadata service)",
        "192.0.0.170|a reserved address",
        "198.18.0.1|a reserved address",
        "198.19.255.255|a reserved address",
        "224.0.0.1|a multicast address",
        "239.255.255.250|a multicast address",
        "240.0.0.1|a reserved address",
        "255.255.255.255|a reserved address",
        "::|an unspecified address",
        "::1|a loopback address",
        "fc00::1|a private address",
        "fd00:ec2::254|a private address",
        "fdff:ffff::1|a private address",
        "fec0::1|a private address",
        "fe80::1|a link-local address",
        "febf:ffff::1|a link-local address",
        "ff02::1|a multicast address",
        "ff0e::101|a multicast address",
        "::ffff:10.0.0.1|a private address",
        "::ffff:127.0.0.1|a loopback address",
        "::ffff:169.254.169.254|a link-local address (the cloud metadata service)",
        "::10.0.0.1|a private address",
        "64:ff9b::c0a8:101|a private address",
        "2002:7f00:1::|a loopback address",
        "2002:a9fe:a9fe::1|a link-local address (the cloud metadata service)",
        "::ffff:0:a00:1|a private address",
        "::ffff:0:7f00:1|a loopback address",
        "64:ff9b:1::a00:1|a translated address of a local network",
        "64:ff9b:1:ffff::1|a translated address of a local network",
        "2001::1|a tunnelled address (Teredo)",
        "2001:0:4136:e378:8000:63bf:3fff:fdd2|a tunnelled address (Teredo)",
        "2001:db8::1|a documentation address",
        "192.0.2.1|a documentation address",
        "198.51.100.7|a documentation address",
        "203.0.113.255|a documentation address",
        "192.88.99.1|a reserved address",
    })
    void refusesEveryNonPublicRange(String address, String expected) {
        assertEquals(expected, kind(address), address);
    }

    @ParameterizedTest
    @ValueSource(strings = {"93.184.216.34", "1.1.1.1", "8.8.8.8", "9.255.255.255", "11.0.0.0", "100.63.255.255",
        "100.128.0.0", "126.255.255.255", "128.0.0.0", "169.253.255.255", "169.255.0.0", "172.15.255.255",
        "172.32.0.0", "192.167.255.255", "192.169.0.0", "198.17.255.255", "198.20.0.0", "223.255.255.255",
        "2606:4700::1", "2001:4860:4860::8888", "2a00:1450:4001:80b::200e", "fbff:ffff::1", "::ffff:93.184.216.34",
        "64:ff9b::808:808", "2002:5db8:d822::1", "2001:1::1", "2001:db9::1", "64:ff9b:2::1", "192.0.3.1",
        "198.51.101.1", "203.0.114.1", "192.88.98.1"})
    void letsPublicAddressesThrough(String address) {
        assertNull(kind(address), address);
    }

    @Test
    void anIpv4MappedAddressKeptAsIpv6IsJudgedByItsIpv4Address() throws Exception {
        byte[] mapped = new byte[16];
        mapped[10] = (byte) 0xff;
        mapped[11] = (byte) 0xff;
        mapped[12] = 10;
        mapped[15] = 1;
        InetAddress v6 = Inet6Address.getByAddress(null, mapped, -1);
        assertEquals(16, v6.getAddress().length, "still 16 bytes, as a resolver may hand it over");
        assertEquals("a private address", PublicAddresses.forbidden(v6));
        // As java.net parses the same text: an IPv4 address.
        assertEquals("a private address", PublicAddresses.forbidden(InetAddress.getByName("::ffff:10.0.0.1")));
    }

    @Test
    void refusesSomethingThatIsNoAddress() {
        assertThrows(IllegalArgumentException.class, () -> PublicAddresses.forbidden(new byte[5]));
    }
}
