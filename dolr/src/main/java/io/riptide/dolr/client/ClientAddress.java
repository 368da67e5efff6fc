package io.riptide.dolr.client;

import io.riptide.core.runtime.NodeAddress;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * Chooses the address an overlay client listens on and advertises: the local address its seeds see
 * it connect from. Nodes answer a client's reads at the address it advertises, and take its own
 * connection for that only when the connection comes from that very IP; a laptop that advertised
 * 127.0.0.1 to a node on another machine would have every answer sent to the node's own loopback.
 */
public final class ClientAddress {
    private static final String LOOPBACK = "127.0.0.1";

    private ClientAddress() {
    }

    /**
     * The source address this host uses toward the first seed it can route to (found the way the
     * operating system picks it, by connecting a UDP socket, which sends nothing), with port 0 so
     * the listener takes a free one; 127.0.0.1 when there is no seed or no route.
     */
    public static NodeAddress toward(List<NodeAddress> seeds) {
        for (NodeAddress seed : seeds) {
            String local = sourceAddressToward(seed);
            if (local != null) {
                return new NodeAddress(local, 0);
            }
        }
        return new NodeAddress(LOOPBACK, 0);
    }

    /**
     * The address to listen on and advertise: with discovery on ({@code discoveryInterface} not null),
     * the address of the interface nodes are discovered on, since they are found there only later and
     * answer wherever the client said it was; otherwise {@link #toward} the seeds.
     */
    public static NodeAddress choose(InetAddress discoveryInterface, List<NodeAddress> seeds) {
        return discoveryInterface != null ? new NodeAddress(discoveryInterface.getHostAddress(), 0) : toward(seeds);
    }

    private static String sourceAddressToward(NodeAddress seed) {
        try (DatagramSocket probe = new DatagramSocket()) {
            InetSocketAddress target = new InetSocketAddress(seed.host(), seed.port());
            if (target.isUnresolved()) {
                return null;
            }
            probe.connect(target);
            InetAddress local = probe.getLocalAddress();
            if (local == null || local.isAnyLocalAddress()) {
                return null;
            }
            return local.getHostAddress();
        } catch (IOException | IllegalArgumentException | SecurityException e) {
            return null;
        }
    }
}
