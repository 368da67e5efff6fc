package io.riptide.dolr.transport;

import io.netty.util.NetUtil;
import io.riptide.core.runtime.NodeAddress;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Arrays;

/**
 * Whether a connection proves the address its peer advertises in the handshake. Peers dial a node at
 * the address it advertises and gossip it on, so a node that could advertise another's address would
 * have that node's traffic sent there, and could place many identities under addresses it does not
 * hold (defeating the per-source limits of the routing state). What a connection proves:
 *
 * <ul>
 *   <li>inbound, the IP address the peer connects from (TCP's own handshake rules out a forged
 *       source): the advertised host must be that address, written as an IP address; the port is the
 *       peer's word, but only for its own host. From this node's own host (a loopback source, or
 *       source and destination address the same), any loopback address is accepted too: only local
 *       processes can connect from there, and the kernel picks 127.0.0.1 as the source toward every
 *       127.x address, so a node listening on 127.0.0.5 connects from 127.0.0.1.
 *   <li>outbound, the address this node dialed, when it dialed an IP address: the peer must advertise
 *       that address, port included. A peer dialed by name (a seed an operator named) may advertise
 *       any address; no name is resolved on the I/O loop.
 * </ul>
 * Pure: the caller refuses the peer when {@link #mismatch} names a reason.
 */
final class AddressProof {
    private AddressProof() {
    }

    /**
     * Null when the connection proves {@code advertised}, else why not. {@code dialed} is the address
     * this node connected to (outbound), or null (inbound).
     */
    static String mismatch(SocketAddress remote, SocketAddress local, NodeAddress dialed, NodeAddress advertised) {
        byte[] claimed = NetUtil.createByteArrayFromIpAddressString(advertised.host());
        if (dialed != null) {
            byte[] target = NetUtil.createByteArrayFromIpAddressString(dialed.host());
            if (target == null) {
                return null;
            }
            return claimed != null && sameIp(claimed, target) && advertised.port() == dialed.port() ? null
                    : "dialed " + dialed + " but the peer advertises " + advertised;
        }
        if (!(remote instanceof InetSocketAddress from) || from.getAddress() == null) {
            return null; // not an IP connection (tests): nothing to compare
        }
        InetAddress source = from.getAddress();
        if (claimed == null) {
            return "advertises " + advertised + ", not an IP address, from " + source.getHostAddress();
        }
        if (sameIp(claimed, source.getAddress())) {
            return null;
        }
        // A peer on this host (a loopback source, or the node's own address as source) may advertise a
        // loopback address: the kernel picks 127.0.0.1 as the source toward any 127.x address.
        boolean ownHost = source.isLoopbackAddress() || local instanceof InetSocketAddress to && source.equals(to.getAddress());
        if (ownHost && isLoopback(claimed)) {
            return null;
        }
        return "advertises " + advertised + " but connects from " + source.getHostAddress();
    }

    private static boolean isLoopback(byte[] ip) {
        try {
            return InetAddress.getByAddress(ip).isLoopbackAddress();
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }

    /** The same IP address, an IPv4 address and its IPv4-mapped IPv6 form alike. */
    private static boolean sameIp(byte[] a, byte[] b) {
        return Arrays.equals(unmapped(a), unmapped(b));
    }

    private static byte[] unmapped(byte[] ip) {
        if (ip.length == 16) {
            for (int i = 0; i < 10; i++) {
                if (ip[i] != 0) {
                    return ip;
                }
            }
            if (ip[10] == (byte) 0xff && ip[11] == (byte) 0xff) {
                return Arrays.copyOfRange(ip, 12, 16);
            }
        }
        return ip;
    }
}
