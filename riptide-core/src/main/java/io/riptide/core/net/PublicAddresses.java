package io.riptide.core.net;

import java.net.InetAddress;

/**
 * Which IP addresses are not public unicast addresses of the internet, and so refused by a gateway
 * that fetches public origins only and by a browser proxy that serves clients beyond its own machine.
 * Without this, anyone in the overlay could make the gateway fetch (and sign into the shared cache)
 * pages of its own network, its loopback services or the cloud metadata service, and anyone allowed
 * to use a proxy could reach its host's admin ports or its network through it: a server-side request
 * forgery.
 *
 * <p>Refused: "this network" and unspecified (0.0.0.0/8, ::), loopback (127/8, ::1), private
 * (10/8, 172.16/12, 192.168/16, unique-local fc00::/7, site-local fec0::/10), carrier-grade NAT
 * (100.64/10), link-local (169.254/16 with the cloud metadata service 169.254.169.254, fe80::/10),
 * IETF protocol assignments (192.0.0/24), benchmarking (198.18/15), documentation (192.0.2/24,
 * 198.51.100/24, 203.0.113/24, 2001:db8::/32), the 6to4 relay anycast (192.88.99/24), multicast
 * (224/4, ff00::/8), and reserved and broadcast (240/4). IPv6 addresses that carry an IPv4 address
 * (IPv4-mapped ::ffff:0:0/96, IPv4-translated ::ffff:0:0:0/96, IPv4-compatible ::/96, NAT64
 * 64:ff9b::/96, 6to4 2002::/16) are judged by the IPv4 address they carry; those whose IPv4 address
 * cannot be read off (local-use NAT64 64:ff9b:1::/48, Teredo 2001::/32) are refused.
 */
public final class PublicAddresses {
    private PublicAddresses() {
    }

    /** Null if {@code address} is a public one, else what kind it is, as "a private address". */
    public static String forbidden(InetAddress address) {
        return forbidden(address.getAddress());
    }

    /** As {@link #forbidden(InetAddress)}, for the 4 or 16 bytes of an address. */
    public static String forbidden(byte[] a) {
        if (a.length == 4) {
            return forbiddenV4(a[0] & 0xff, a[1] & 0xff, a[2] & 0xff, a[3] & 0xff);
        }
        if (a.length != 16) {
            throw new IllegalArgumentException("not an IP address: " + a.length + " bytes");
        }
        if (zero(a, 0, 10) && (a[10] & 0xff) == 0xff && (a[11] & 0xff) == 0xff) {
            return embedded(a, 12); // ::ffff:a.b.c.d, IPv4-mapped
        }
        if (zero(a, 0, 16)) {
            return "an unspecified address";
        }
        if (zero(a, 0, 15) && a[15] == 1) {
            return "a loopback address";
        }
        if (zero(a, 0, 12)) {
            return embedded(a, 12); // ::a.b.c.d, IPv4-compatible (deprecated)
        }
        if (zero(a, 0, 8) && (a[8] & 0xff) == 0xff && (a[9] & 0xff) == 0xff && zero(a, 10, 12)) {
            return embedded(a, 12); // ::ffff:0:a.b.c.d, IPv4-translated (SIIT)
        }
        int b0 = a[0] & 0xff;
        int b1 = a[1] & 0xff;
        if (b0 == 0x00 && b1 == 0x64 && (a[2] & 0xff) == 0xff && (a[3] & 0xff) == 0x9b && zero(a, 4, 12)) {
            return embedded(a, 12); // 64:ff9b::a.b.c.d, NAT64
        }
        if (b0 == 0x00 && b1 == 0x64 && (a[2] & 0xff) == 0xff && (a[3] & 0xff) == 0x9b && a[4] == 0 && a[5] == 1) {
            // 64:ff9b:1::/48, local-use NAT64 (RFC 8215): where the IPv4 address sits is the
            // operator's choice, so it may carry a private one anywhere.
            return "a translated address of a local network";
        }
        if (b0 == 0x20 && b1 == 0x01 && a[2] == 0 && a[3] == 0) {
            return "a tunnelled address (Teredo)"; // 2001::/32: its IPv4 endpoint is obfuscated, so not judged
        }
        if (b0 == 0x20 && b1 == 0x01 && (a[2] & 0xff) == 0x0d && (a[3] & 0xff) == 0xb8) {
            return "a documentation address"; // 2001:db8::/32
        }
        if (b0 == 0x20 && b1 == 0x02) {
            return embedded(a, 2); // 2002:aabb:ccdd::, 6to4
        }
        if ((b0 & 0xfe) == 0xfc) {
            return "a private address";
        }
        if (b0 == 0xfe && (b1 & 0xc0) == 0x80) {
            return "a link-local address";
        }
        if (b0 == 0xfe && (b1 & 0xc0) == 0xc0) {
            return "a private address"; // site-local, deprecated but still routed inside some networks
        }
        if (b0 == 0xff) {
            return "a multicast address";
        }
        return null;
    }

    private static String embedded(byte[] a, int at) {
        return forbiddenV4(a[at] & 0xff, a[at + 1] & 0xff, a[at + 2] & 0xff, a[at + 3] & 0xff);
    }

    private static String forbiddenV4(int b0, int b1, int b2, int b3) {
        if (b0 == 0) {
            return "an unspecified address";
        }
        if (b0 == 127) {
            return "a loopback address";
        }
        if (b0 == 10 || (b0 == 172 && (b1 & 0xf0) == 16) || (b0 == 192 && b1 == 168)) {
            return "a private address";
        }
        if (b0 == 100 && (b1 & 0xc0) == 64) {
            return "a carrier-grade NAT address";
        }
        if (b0 == 169 && b1 == 254) {
            return b2 == 169 && b3 == 254 ? "a link-local address (the cloud metadata service)" : "a link-local address";
        }
        if (b0 == 192 && b1 == 0 && b2 == 0) {
            return "a reserved address";
        }
        if ((b0 == 192 && b1 == 0 && b2 == 2) || (b0 == 198 && b1 == 51 && b2 == 100) || (b0 == 203 && b1 == 0 && b2 == 113)) {
            return "a documentation address";
        }
        if (b0 == 192 && b1 == 88 && b2 == 99) {
            return "a reserved address"; // the deprecated 6to4 relay anycast
        }
        if (b0 == 198 && (b1 & 0xfe) == 18) {
            return "a reserved address";
        }
        if (b0 >= 224 && b0 <= 239) {
            return "a multicast address";
        }
        if (b0 >= 240) {
            return "a reserved address";
        }
        return null;
    }

    private static boolean zero(byte[] a, int from, int to) {
        for (int i = from; i < to; i++) {
            if (a[i] != 0) {
                return false;
            }
        }
        return true;
    }
}
