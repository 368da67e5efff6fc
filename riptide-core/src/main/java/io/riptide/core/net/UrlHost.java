package io.riptide.core.net;

import io.netty.util.NetUtil;
import java.io.ByteArrayOutputStream;
import java.net.IDN;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The host of an {@code http} or {@code https} URL as browsers read it: the WHATWG URL Standard's
 * host parser (section 3.5), so a policy that judges a destination judges the host a browser or
 * curl would reach. The classic bypass is an IPv4 address spelled the old BSD way: {@code 0177.0.0.1},
 * {@code 0x7f.1} and {@code 2130706433} are all 127.0.0.1 to a browser, while a strict dotted-quad
 * reader takes the first for 177.0.0.1 or for a name.
 *
 * <p>What it does, in the standard's order: a bracketed host is an IPv6 address (printed compressed,
 * in brackets); anything else is percent-decoded, mapped to ASCII (IDNA, lower case), refused if it
 * holds a code point no domain may hold, and, if its last label is a number (decimal, octal with a
 * leading {@code 0}, or hexadecimal with {@code 0x}), read as an IPv4 address of one to four parts,
 * the last part filling the bytes left. IDNA here is the JDK's (IDNA 2003 with unassigned code points
 * allowed) rather than UTS 46; the two differ only on rare non-ASCII names, which a destination policy
 * judges by their resolved address anyway.
 */
public final class UrlHost {
    /** Code points no host may contain (the standard's forbidden host code points). */
    private static final String FORBIDDEN_HOST = "\u0000\t\n\r #/:<>?@[\\]^|";

    private UrlHost() {
    }

    /**
     * The canonical form of {@code host} (without a port): a lower-case ASCII domain, a dotted-quad
     * IPv4 address or a bracketed, compressed IPv6 address.
     *
     * @throws IllegalArgumentException with a readable reason when a browser would refuse the host
     */
    public static String canonical(String host) {
        if (host == null || host.isEmpty()) {
            throw new IllegalArgumentException("the URL names no host");
        }
        if (host.startsWith("[")) {
            if (!host.endsWith("]") || host.length() < 3) {
                throw new IllegalArgumentException("'" + host + "' is not a bracketed IPv6 address");
            }
            String inside = host.substring(1, host.length() - 1);
            byte[] v6 = inside.contains("%") || !NetUtil.isValidIpV6Address(inside)
                    ? null : NetUtil.createByteArrayFromIpAddressString(inside);
            if (v6 == null || v6.length != 16) {
                throw new IllegalArgumentException("'" + host + "' is not a valid IPv6 address");
            }
            return "[" + NetUtil.bytesToIpAddress(v6) + "]";
        }
        String domain = percentDecode(host);
        String ascii;
        try {
            ascii = IDN.toASCII(domain, IDN.ALLOW_UNASSIGNED).toLowerCase(Locale.ROOT);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + host + "' is not a valid host name: " + e.getMessage());
        }
        if (ascii.isEmpty()) {
            throw new IllegalArgumentException("the URL names no host");
        }
        for (int i = 0; i < ascii.length(); i++) {
            char c = ascii.charAt(i);
            if (c < 0x20 || c == 0x7f || c == '%' || FORBIDDEN_HOST.indexOf(c) >= 0) {
                throw new IllegalArgumentException("the host '" + host + "' contains a character no host name may hold");
            }
        }
        return endsInANumber(ascii) ? ipv4(ascii, host) : ascii;
    }

    private static String percentDecode(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.length());
        byte[] in = s.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < in.length; i++) {
            if (in[i] == '%' && i + 2 < in.length && hex(in[i + 1]) >= 0 && hex(in[i + 2]) >= 0) {
                out.write(hex(in[i + 1]) << 4 | hex(in[i + 2]));
                i += 2;
            } else {
                out.write(in[i]);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static int hex(byte b) {
        return Character.digit(b, 16);
    }

    /** The standard's "ends in a number": the last label (a trailing dot aside) is digits, or parses as an IPv4 number. */
    private static boolean endsInANumber(String ascii) {
        List<String> parts = labels(ascii);
        if (parts.get(parts.size() - 1).isEmpty()) {
            if (parts.size() == 1) {
                return false;
            }
            parts.remove(parts.size() - 1);
        }
        String last = parts.get(parts.size() - 1);
        if (!last.isEmpty() && last.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return true;
        }
        return ipv4Number(last) >= 0;
    }

    private static String ipv4(String ascii, String host) {
        List<String> parts = labels(ascii);
        if (parts.get(parts.size() - 1).isEmpty() && parts.size() > 1) {
            parts.remove(parts.size() - 1);
        }
        String refused = "'" + host + "' ends in a number but is not a valid IPv4 address";
        if (parts.size() > 4) {
            throw new IllegalArgumentException(refused);
        }
        long[] numbers = new long[parts.size()];
        for (int i = 0; i < numbers.length; i++) {
            numbers[i] = ipv4Number(parts.get(i));
            if (numbers[i] < 0 || (i < numbers.length - 1 && numbers[i] > 255)) {
                throw new IllegalArgumentException(refused);
            }
        }
        long last = numbers[numbers.length - 1];
        if (last >= 1L << (8 * (5 - numbers.length))) {
            throw new IllegalArgumentException(refused);
        }
        long address = last;
        for (int i = 0; i < numbers.length - 1; i++) {
            address += numbers[i] << (8 * (3 - i));
        }
        return (address >>> 24) + "." + (address >>> 16 & 0xff) + "." + (address >>> 8 & 0xff) + "." + (address & 0xff);
    }

    /** One part of an IPv4 address (decimal, {@code 0}-prefixed octal or {@code 0x} hexadecimal), or -1 if it is none. */
    private static long ipv4Number(String part) {
        if (part.isEmpty()) {
            return -1;
        }
        int radix = 10;
        String digits = part;
        if (digits.length() >= 2 && (digits.startsWith("0x") || digits.startsWith("0X"))) {
            radix = 16;
            digits = digits.substring(2);
        } else if (digits.length() >= 2 && digits.charAt(0) == '0') {
            radix = 8;
            digits = digits.substring(1);
        }
        if (digits.isEmpty()) {
            return 0;
        }
        // Longer than any value that could fit the check above: refuse rather than overflow.
        if (digits.length() > 32) {
            return -1;
        }
        long value = 0;
        for (int i = 0; i < digits.length(); i++) {
            int d = Character.digit(digits.charAt(i), radix);
            if (d < 0 || digits.charAt(i) > 0x7f) {
                return -1;
            }
            value = value * radix + d;
            if (value > 0xffff_ffffL) {
                return Long.MAX_VALUE; // too large for any part; the caller refuses it
            }
        }
        return value;
    }

    private static List<String> labels(String ascii) {
        List<String> parts = new ArrayList<>();
        int from = 0;
        for (int i = 0; i <= ascii.length(); i++) {
            if (i == ascii.length() || ascii.charAt(i) == '.') {
                parts.add(ascii.substring(from, i));
                from = i + 1;
            }
        }
        return parts;
    }
}
