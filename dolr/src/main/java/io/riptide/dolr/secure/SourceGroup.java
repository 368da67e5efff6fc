package io.riptide.dolr.secure;

import com.google.common.net.InetAddresses;
import io.riptide.core.runtime.NodeAddress;
import java.net.InetAddress;

/**
 * The source a node's address belongs to, for {@link SourceLimits}: its address prefix, such as
 * {@code 192.0.2.0/24}. Pure: no name is resolved.
 */
public final class SourceGroup {
    private SourceGroup() {
    }

    /**
     * The source of {@code address} under {@code limits}, or null when it is not limited: a loopback
     * address, which only processes on this machine can prove (the transport checks that an inbound
     * peer's advertised host is the address it connects from, and no remote host can connect from
     * loopback). A host name is its own source: it is not resolved here, and a node advertising one
     * is held to what it named.
     */
    public static String of(NodeAddress address, SourceLimits limits) {
        String host = address.host();
        if (isSimulated(address)) {
            // A simulated host's vertex read as an IPv4 address, so that experiments can place hosts in prefixes.
            return prefix(address.port(), limits.ipv4PrefixBits()) + "/" + limits.ipv4PrefixBits() + "(sim)";
        }
        if (!InetAddresses.isInetAddress(host)) {
            return host.toLowerCase(java.util.Locale.ROOT);
        }
        InetAddress ip = InetAddresses.forString(host);
        if (ip.isLoopbackAddress()) {
            return limits.limitLoopback() ? InetAddresses.toAddrString(ip) : null;
        }
        byte[] bytes = ip.getAddress();
        int bits = bytes.length == 4 ? limits.ipv4PrefixBits() : limits.ipv6PrefixBits();
        for (int i = 0; i < bytes.length; i++) {
            int keep = Math.max(0, Math.min(8, bits - 8 * i));
            bytes[i] &= (byte) (0xff << (8 - keep));
        }
        try {
            return InetAddresses.toAddrString(InetAddress.getByAddress(bytes)) + "/" + bits;
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException("an address of 4 or 16 bytes is always valid", e);
        }
    }

    static boolean isSimulated(NodeAddress address) {
        return NodeAddress.SIMULATED_HOST.equals(address.host());
    }

    private static String prefix(int vertex, int bits) {
        long masked = bits == 0 ? 0 : (vertex & 0xffffffffL) & (0xffffffffL << (32 - bits)) & 0xffffffffL;
        return InetAddresses.toAddrString(InetAddresses.fromInteger((int) masked));
    }
}
