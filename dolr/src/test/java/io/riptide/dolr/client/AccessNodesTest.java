package io.riptide.dolr.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeAddress;

import io.riptide.dolr.location.LocationMessages.FailureReason;
import io.riptide.dolr.simulation.OverlayFixture;
import io.riptide.dolr.simulation.SimulatedOverlay;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A client that does not join: it finds the nearest nodes from a few seeds, reads through them, and fails over. */
class AccessNodesTest {
    private static final int NODES = 120;
    private static final int GROUPS = 6;
    private static final int CLIENT_VERTEX = NODES + 2; // group 2

    @Test
    void theClientReadsThroughItsNearestNodesAndFailsOverWhenOneDies() {
        SimulatedOverlay overlay = OverlayFixture.settled(21, NODES, GROUPS);
        Id guid = Id.hash("client-readable");
        byte[] data = {4, 2};
        overlay.node(33).storeReplica(guid, data);
        // Seeds in other groups: the client must find the nodes of its own group by itself.
        List<NodeAddress> seeds = List.of(NodeAddress.simulated(0), NodeAddress.simulated(1), NodeAddress.simulated(3));
        AccessNodes[] client = new AccessNodes[1];
        overlay.network().start(Id.hash("the client"), CLIENT_VERTEX, env -> {
            client[0] = new AccessNodes(env, seeds, 3, Duration.ofSeconds(5), Duration.ofSeconds(2));
            return client[0];
        });
        client[0].start();
        OverlayFixture.run(overlay, Duration.ofSeconds(12));

        List<AccessNodes.Access> access = client[0].active();
        assertEquals(3, access.size());
        for (AccessNodes.Access a : access) {
            assertEquals(CLIENT_VERTEX % GROUPS, a.node().address().port() % GROUPS, "access node in the client's own group: " + a);
        }
        for (int v : overlay.liveVertices()) {
            assertFalse(overlay.node(v).leafSet().members().stream().anyMatch(h -> h.address().port() == CLIENT_VERTEX),
                    "the client is in nobody's leaf set");
        }

        ObjectRead[] reply = new ObjectRead[1];
        client[0].read(guid, 16, r -> reply[0] = r);
        OverlayFixture.run(overlay, Duration.ofSeconds(3));
        assertNotNull(reply[0]);
        assertTrue(reply[0].found());
        assertArrayEquals(data, reply[0].data());

        int nearest = access.get(0).node().address().port();
        overlay.kill(nearest);
        reply[0] = null;
        long sent = overlay.simulation().now();
        long[] answeredAt = {-1};
        client[0].read(guid, 16, r -> {
            reply[0] = r;
            answeredAt[0] = overlay.simulation().now();
        });
        OverlayFixture.run(overlay, Duration.ofSeconds(3));
        assertTrue(reply[0].found(), "the read is hedged through the next nearest node: " + reply[0]);
        assertEquals(1, client[0].accessFigures().readsHedged());
        assertEquals(1, client[0].accessFigures().hedgeWins());
        assertTrue(answeredAt[0] - sent < Duration.ofSeconds(1).toNanos(),
                "answered after the hedge delay, not the 2 s deadline: " + (answeredAt[0] - sent) / 1e6 + " ms");
        assertTrue(client[0].active().stream().noneMatch(a -> a.node().address().port() == nearest),
                "and the dead node is dropped once its own request times out");
        client[0].read(guid, 16, r -> reply[0] = r);
        OverlayFixture.run(overlay, Duration.ofSeconds(3));
        assertTrue(reply[0].found(), "the next nearest serves the next read");

        // With one access node left, a read through a dead one has nobody to be hedged to: it times out.
        List<AccessNodes.Access> left = client[0].active();
        for (AccessNodes.Access a : left.subList(1, left.size())) {
            overlay.kill(a.node().address().port());
        }
        overlay.kill(left.get(0).node().address().port());
        client[0].read(guid, 16, r -> reply[0] = r);
        OverlayFixture.run(overlay, Duration.ofSeconds(3));
        assertEquals(FailureReason.TIMEOUT, reply[0].failure(), "every access node dead: the read times out");
    }

    @Test
    void aClientStartedWithoutSeedsAttachesOnceASeedIsAddedLater() {
        SimulatedOverlay overlay = OverlayFixture.settled(22, 40, 4);
        AccessNodes[] client = new AccessNodes[1];
        overlay.network().start(Id.hash("a client that discovers"), 42, env -> {
            client[0] = new AccessNodes(env, List.of(), 3, Duration.ofSeconds(5), Duration.ofSeconds(2));
            return client[0];
        });
        client[0].start();
        OverlayFixture.run(overlay, Duration.ofSeconds(6));
        assertTrue(client[0].active().isEmpty(), "no seed, no access node");

        client[0].addSeed(NodeAddress.simulated(5));
        client[0].addSeed(NodeAddress.simulated(5));
        assertEquals(List.of(NodeAddress.simulated(5)), client[0].seeds(), "a seed added twice is kept once");
        OverlayFixture.run(overlay, Duration.ofSeconds(6));
        assertEquals(3, client[0].active().size(), "the added seed was measured and the nodes around it found");
    }

    @Test
    void discoveredSeedsAreBoundedKeptApartFromConfiguredOnesAndDroppedWhenWithdrawn() {
        SimulatedOverlay overlay = OverlayFixture.settled(23, 40, 4);
        AccessNodes[] client = new AccessNodes[1];
        NodeAddress configured = NodeAddress.simulated(1);
        overlay.network().start(Id.hash("a client on a flooded LAN"), 42, env -> {
            client[0] = new AccessNodes(env, List.of(configured), 3, Duration.ofSeconds(5), Duration.ofSeconds(2));
            return client[0];
        });
        client[0].start();
        // Someone on the LAN announces ten thousand instances pointing anywhere: only the cap is kept and pinged.
        List<NodeAddress> flood = new java.util.ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            NodeAddress fake = new NodeAddress("10.9." + (i / 250) + "." + (i % 250 + 1), 7101);
            flood.add(fake);
            client[0].addDiscovered(fake);
        }
        assertEquals(AccessNodes.MAX_DISCOVERED, client[0].discovered().size());
        assertEquals(flood.subList(0, AccessNodes.MAX_DISCOVERED), client[0].discovered());
        assertEquals(10_000 - AccessNodes.MAX_DISCOVERED, client[0].discoveredRefused());
        assertEquals(configured, client[0].seeds().get(0), "configured seeds apart, and first");
        assertEquals(1 + AccessNodes.MAX_DISCOVERED, client[0].seeds().size());
        long dropped = overlay.network().messagesDropped();
        OverlayFixture.run(overlay, Duration.ofSeconds(5));
        assertEquals(AccessNodes.MAX_DISCOVERED, overlay.network().messagesDropped() - dropped,
                "one period pings each kept seed once (unreachable here), no more");

        // Their services expire: each is dropped, and no longer pinged; the configured seed stays.
        flood.forEach(client[0]::removeDiscovered);
        assertFalse(client[0].removeDiscovered(configured), "a configured seed is never dropped");
        assertEquals(List.of(configured), client[0].seeds());
        dropped = overlay.network().messagesDropped();
        OverlayFixture.run(overlay, Duration.ofSeconds(10));
        assertEquals(0, overlay.network().messagesDropped() - dropped, "withdrawn seeds are not pinged again");

        // A real node found later is used, and let go of as a seed when it withdraws.
        assertTrue(client[0].addDiscovered(NodeAddress.simulated(5)));
        assertTrue(client[0].removeDiscovered(NodeAddress.simulated(5)));
        assertTrue(client[0].addDiscovered(NodeAddress.simulated(5)), "room again once the flood is gone");
        assertEquals(List.of(configured, NodeAddress.simulated(5)), client[0].seeds());
        assertFalse(client[0].addDiscovered(configured), "a configured seed is not also a discovered one");
        OverlayFixture.run(overlay, Duration.ofSeconds(6));
        assertEquals(3, client[0].active().size());
        assertTrue(client[0].removeDiscovered(NodeAddress.simulated(5)));
        assertEquals(List.of(configured), client[0].seeds());
    }
}
