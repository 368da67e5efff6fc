package io.riptide.proxy;

import io.netty.util.NetUtil;
import java.net.InetAddress;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A network of client addresses, as {@code ADDRESS/PREFIX} ({@code 10.0.0.0/8}, {@code 2001:db8::/32})
 * or a single address ({@code 192.168.1.7}, {@code ::1}). Only literal addresses: a name would need a
 * lookup. IPv4 networks match IPv4 clients, also those a dual-stack socket reports as IPv4-mapped IPv6
 * addresses ({@code ::ffff:a.b.c.d}); a network written in that form ({@code ::ffff:10.0.0.0/104}) is
 * the IPv4 network it maps ({@code 10.0.0.0/8}).
 *
 * @param address the network's address, 4 or 16 bytes, with every bit past the prefix zero
 * @param prefix how many leading bits a client's address must share with it
 */
public record Cidr(byte[] address, int prefix) {
    private static final Pattern FORM = Pattern.compile("([^/]+)(?:/(\\d{1,3}))?");

    /** Loopback only: the browser on this machine. */
    public static final List<Cidr> LOOPBACK = List.of(parse("127.0.0.0/8"), parse("::1"));

    public Cidr {
        if (address == null || (address.length != 4 && address.length != 16)) {
            throw new IllegalArgumentException("a network address has 4 or 16 bytes");
        }
        if (prefix < 0 || prefix > address.length * 8) {
            throw new IllegalArgumentException("prefix /" + prefix + " is out of range");
        }
        address = address.clone();
    }

    /**
     * Reads {@code ADDRESS/PREFIX} or {@code ADDRESS}; the message of a refusal names the value and
     * what is expected, for a person to fix it.
     */
    public static Cidr parse(String text) {
        String value = text == null ? "" : text.strip();
        Matcher m = FORM.matcher(value);
        String expected = "expected a network as ADDRESS/PREFIX (10.0.0.0/8, 2001:db8::/32) or one address, got '" + text + "'";
        if (!m.matches() || m.group(1).contains("%")) {
            throw new IllegalArgumentException(expected);
        }
        String host = m.group(1);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        byte[] bytes = NetUtil.isValidIpV4Address(host) || NetUtil.isValidIpV6Address(host)
                ? NetUtil.createByteArrayFromIpAddressString(host) : null;
        if (bytes == null) {
            throw new IllegalArgumentException(expected);
        }
        int bits = bytes.length * 8;
        int prefix = m.group(2) == null ? bits : Integer.parseInt(m.group(2));
        if (prefix > bits) {
            throw new IllegalArgumentException("'" + text + "': the prefix of an IPv" + (bytes.length == 4 ? "4" : "6")
                    + " network is at most /" + bits);
        }
        if (isIpv4Mapped(bytes) && prefix >= 96) {
            bytes = Arrays.copyOfRange(bytes, 12, 16);
            prefix -= 96;
        }
        byte[] network = masked(bytes, prefix);
        if (!Arrays.equals(network, bytes)) {
            throw new IllegalArgumentException("'" + text + "' has bits set past its /" + m.group(2) + " prefix; did you mean "
                    + new Cidr(network, prefix) + "?");
        }
        return new Cidr(network, prefix);
    }

    /** Whether {@code client} is in this network. */
    public boolean contains(InetAddress client) {
        byte[] a = client.getAddress();
        if (a.length == 16 && isIpv4Mapped(a)) {
            a = Arrays.copyOfRange(a, 12, 16);
        }
        return a.length == address.length && Arrays.equals(masked(a, prefix), address);
    }

    /** Whether every address of this network is in {@code other}. */
    public boolean within(Cidr other) {
        return other.address.length == address.length && other.prefix <= prefix
                && Arrays.equals(masked(address, other.prefix), other.address);
    }

    /** Whether any of {@code networks} holds {@code client}. */
    public static boolean anyContains(List<Cidr> networks, InetAddress client) {
        for (Cidr n : networks) {
            if (n.contains(client)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public byte[] address() {
        return address.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Cidr c && c.prefix == prefix && Arrays.equals(c.address, address);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(address) + prefix;
    }

    /** As it would be typed: {@code 10.0.0.0/8}, {@code 2001:db8::/32}; a single address without its prefix ({@code ::1}). */
    @Override
    public String toString() {
        String a = NetUtil.bytesToIpAddress(address);
        return prefix == address.length * 8 ? a : a + "/" + prefix;
    }

    private static boolean isIpv4Mapped(byte[] a) {
        if (a.length != 16) {
            return false;
        }
        for (int i = 0; i < 10; i++) {
            if (a[i] != 0) {
                return false;
            }
        }
        return a[10] == (byte) 0xff && a[11] == (byte) 0xff;
    }

    private static byte[] masked(byte[] a, int prefix) {
        byte[] m = a.clone();
        for (int i = 0; i < m.length; i++) {
            int keep = Math.max(0, Math.min(8, prefix - i * 8));
            m[i] &= (byte) (0xff << (8 - keep));
        }
        return m;
    }
}
