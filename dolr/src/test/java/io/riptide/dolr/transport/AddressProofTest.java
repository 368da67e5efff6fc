package io.riptide.dolr.transport;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.riptide.core.runtime.NodeAddress;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

/** What a connection proves of the address its peer advertises (the rule alone; over TCP in {@link AdvertisedAddressTest}). */
class AddressProofTest {
    private static InetSocketAddress at(String ip) {
        return new InetSocketAddress(ip, 40000);
    }

    private static NodeAddress addr(String host, int port) {
        return new NodeAddress(host, port);
    }

    @Test
    void inboundTheAdvertisedHostMustBeTheSourceAddress() {
        assertNull(AddressProof.mismatch(at("192.0.2.7"), at("198.51.100.1"), null, addr("192.0.2.7", 7101)));
        assertNotNull(AddressProof.mismatch(at("192.0.2.7"), at("198.51.100.1"), null, addr("192.0.2.8", 7101)));
        assertNotNull(AddressProof.mismatch(at("192.0.2.7"), at("198.51.100.1"), null, addr("node.example", 7101)),
                "a name proves nothing, and is not resolved");
        assertNull(AddressProof.mismatch(at("2001:db8::7"), at("2001:db8::1"), null, addr("2001:db8:0:0:0:0:0:7", 7101)),
                "IPv6 compared as addresses, not as text");
        assertNull(AddressProof.mismatch(at("192.0.2.7"), at("198.51.100.1"), null, addr("::ffff:192.0.2.7", 7101)),
                "an IPv4-mapped address is the IPv4 address");
    }

    @Test
    void fromThisHostALoopbackAddressIsAcceptedAndFromElsewhereNot() {
        assertNull(AddressProof.mismatch(at("127.0.0.1"), at("127.0.0.2"), null, addr("127.0.0.5", 7101)),
                "a loopback source is this host; the kernel picks 127.0.0.1 toward any 127.x");
        assertNull(AddressProof.mismatch(at("192.0.2.7"), at("192.0.2.7"), null, addr("127.0.0.1", 7101)),
                "the node's own address as source: this host");
        assertNotNull(AddressProof.mismatch(at("192.0.2.7"), at("198.51.100.1"), null, addr("127.0.0.1", 7101)),
                "a remote host cannot claim loopback");
        assertNotNull(AddressProof.mismatch(at("127.0.0.1"), at("127.0.0.1"), null, addr("192.0.2.9", 7101)),
                "a local process may not claim another host's address");
    }

    @Test
    void outboundThePeerMustAdvertiseTheAddressDialed() {
        assertNull(AddressProof.mismatch(at("192.0.2.7"), at("198.51.100.1"), addr("192.0.2.7", 7101), addr("192.0.2.7", 7101)));
        assertNotNull(AddressProof.mismatch(at("192.0.2.7"), at("198.51.100.1"), addr("192.0.2.7", 7101),
                addr("192.0.2.7", 7102)), "another port");
        assertNotNull(AddressProof.mismatch(at("192.0.2.7"), at("198.51.100.1"), addr("192.0.2.7", 7101),
                addr("192.0.2.9", 7101)), "another host");
        assertNull(AddressProof.mismatch(at("192.0.2.7"), at("198.51.100.1"), addr("seed.example", 7101),
                addr("192.0.2.7", 7101)), "a seed dialed by name may advertise its address");
    }
}
