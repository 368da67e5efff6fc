package io.riptide.dolr.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.riptide.core.runtime.NodeAddress;
import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The client advertises the address its seeds see it from, so their answers come back to it. */
class ClientAddressTest {
    @Test
    void aSeedOnThisHostIsReachedFromLoopback() {
        assertEquals(new NodeAddress("127.0.0.1", 0), ClientAddress.toward(List.of(new NodeAddress("127.0.0.1", 7101))));
    }

    @Test
    void withoutSeedsTheClientStaysOnLoopback() {
        assertEquals(new NodeAddress("127.0.0.1", 0), ClientAddress.toward(List.of()));
    }

    @Test
    void withDiscoveryOnTheClientIsOnTheDiscoveryInterfaceEvenBeforeAnyNodeIsFound() throws Exception {
        InetAddress lan = InetAddress.getByName("192.0.2.7"); // an IP literal: no lookup
        assertEquals(new NodeAddress("192.0.2.7", 0), ClientAddress.choose(lan, List.of()), "no seed yet: the interface's address");
        assertEquals(new NodeAddress("192.0.2.7", 0), ClientAddress.choose(lan, List.of(new NodeAddress("127.0.0.1", 7101))));
        assertEquals(new NodeAddress("127.0.0.1", 0), ClientAddress.choose(null, List.of(new NodeAddress("127.0.0.1", 7101))),
                "without discovery: toward the seeds, as before");
    }
}
