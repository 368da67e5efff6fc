package io.riptide.dolr.secure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.NodeHandle;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The prefix rule that names a node's source, and the count against it. */
class SourceGroupTest {
    private static final SourceLimits DEFAULTS = SourceLimits.defaults();

    private static String source(String host, SourceLimits limits) {
        return SourceGroup.of(new NodeAddress(host, 7101), limits);
    }

    @Test
    void byDefaultAnIpv4AddressIsItsOwnSourceAndAnIpv6AddressItsSlash64() {
        assertEquals("192.0.2.7/32", source("192.0.2.7", DEFAULTS));
        assertNotEquals(source("192.0.2.7", DEFAULTS), source("192.0.2.8", DEFAULTS));
        assertEquals("2001:db8:0:1::/64", source("2001:db8:0:1::7", DEFAULTS));
        assertEquals(source("2001:db8:0:1::7", DEFAULTS), source("2001:db8:0:1:ffff::9", DEFAULTS),
                "one /64: one host's to choose from");
        assertNotEquals(source("2001:db8:0:1::7", DEFAULTS), source("2001:db8:0:2::7", DEFAULTS));
        assertEquals(source("192.0.2.7", DEFAULTS), source("::ffff:192.0.2.7", DEFAULTS), "the mapped form is the IPv4 address");
    }

    @Test
    void aShorterPrefixGroupsAddresses() {
        SourceLimits by24 = DEFAULTS.withPrefixes(24, 48);
        assertEquals("192.0.2.0/24", source("192.0.2.7", by24));
        assertEquals(source("192.0.2.7", by24), source("192.0.2.200", by24));
        assertNotEquals(source("192.0.2.7", by24), source("192.0.3.7", by24));
        assertEquals(source("2001:db8:0:1::7", by24), source("2001:db8:0:2::7", by24));
    }

    @Test
    void loopbackIsNotLimitedUnlessAskedAndANameIsItsOwnSource() {
        assertNull(source("127.0.0.1", DEFAULTS));
        assertNull(source("::1", DEFAULTS));
        assertEquals("127.0.0.9", source("127.0.0.9", DEFAULTS.limitingLoopback()));
        assertEquals("node.example", source("Node.Example", DEFAULTS));
    }

    @Test
    void aSimulatedHostIsItsVertexReadAsAnIpv4Address() {
        assertNotEquals(SourceGroup.of(NodeAddress.simulated(1), DEFAULTS), SourceGroup.of(NodeAddress.simulated(2), DEFAULTS));
        SourceLimits by24 = DEFAULTS.withPrefixes(24, 64);
        assertEquals(SourceGroup.of(NodeAddress.simulated(0x20001), by24), SourceGroup.of(NodeAddress.simulated(0x200ff), by24));
        assertNotEquals(SourceGroup.of(NodeAddress.simulated(0x20001), by24), SourceGroup.of(NodeAddress.simulated(0x20101), by24));
    }

    @Test
    void oneMoreIdThanTheLimitIsRefusedAndCounted() {
        List<NodeHandle> state = new ArrayList<>();
        SourceLimit limit = new SourceLimit(DEFAULTS.withIdsPerSource(2), () -> state);
        NodeHandle a = new NodeHandle(Id.hash("a"), new NodeAddress("192.0.2.7", 1));
        NodeHandle b = new NodeHandle(Id.hash("b"), new NodeAddress("192.0.2.7", 2));
        NodeHandle c = new NodeHandle(Id.hash("c"), new NodeAddress("192.0.2.7", 3));
        NodeHandle elsewhere = new NodeHandle(Id.hash("d"), new NodeAddress("192.0.2.8", 1));
        assertTrue(limit.admits(a));
        state.add(a);
        assertTrue(limit.admits(b));
        state.add(b);
        assertFalse(limit.admits(c), "a third ID from 192.0.2.7");
        assertTrue(limit.admits(elsewhere), "another address");
        assertTrue(limit.admits(b), "one already in the state is not judged again");
        assertEquals(1, limit.refused());
        assertEquals("192.0.2.7/32", limit.lastRefusedSource());
    }
}
