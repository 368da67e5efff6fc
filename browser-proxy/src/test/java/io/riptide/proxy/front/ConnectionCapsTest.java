package io.riptide.proxy.front;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.riptide.proxy.ProxyStats.Cap;
import java.net.InetAddress;
import org.junit.jupiter.api.Test;

/** The connection caps' arithmetic: the global cap, the per-client cap, the proxy's own host held to the global one only. */
class ConnectionCapsTest {
    @Test
    void eachAddressIsCappedAndTheCapIsFreedAsItsConnectionsClose() throws Exception {
        ConnectionCaps caps = new ConnectionCaps(10, 2);
        InetAddress a = InetAddress.getByName("10.0.0.1");
        InetAddress b = InetAddress.getByName("10.0.0.2");
        assertNull(caps.open(a, false));
        assertNull(caps.open(a, false));
        assertEquals(Cap.PER_CLIENT, caps.open(a, false));
        assertNull(caps.open(b, false), "another address has its own allowance");
        assertEquals(3, caps.open(), "a refused connection is not counted");
        caps.close(a, false);
        assertNull(caps.open(a, false));
        assertEquals(Cap.PER_CLIENT, caps.open(a, false));
    }

    @Test
    void theGlobalCapHoldsForEveryClientTheProxysOwnHostIncluded() throws Exception {
        ConnectionCaps caps = new ConnectionCaps(3, 1);
        InetAddress self = InetAddress.getByName("127.0.0.1");
        assertNull(caps.open(self, true));
        assertNull(caps.open(self, true), "the proxy's own host is not held to the per-client cap");
        assertNull(caps.open(InetAddress.getByName("10.0.0.1"), false));
        assertEquals(Cap.GLOBAL, caps.open(self, true));
        assertEquals(Cap.GLOBAL, caps.open(InetAddress.getByName("10.0.0.2"), false));
        caps.close(self, true);
        assertNull(caps.open(InetAddress.getByName("10.0.0.2"), false));
        assertEquals(3, caps.open());
    }
}
