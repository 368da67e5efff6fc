package io.riptide.dolr.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.dolr.client.ClientMessages.ClientReadReply;
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

        ClientReadReply[] reply = new ClientReadReply[1];
        client[0].read(guid, 16, r -> reply[0] = r);
        OverlayFixture.run(overlay, Duration.ofSeconds(3));
        assertNotNull(reply[0]);
        assertTrue(reply[0].found());
        assertArrayEquals(data, reply[0].data());

        int nearest = access.get(0).node().address().port();
        overlay.kill(nearest);
        client[0].read(guid, 16, r -> reply[0] = r);
        OverlayFixture.run(overlay, Duration.ofSeconds(3));
        assertEquals(FailureReason.TIMEOUT, reply[0].failure(), "the read through the dead node times out");
        assertTrue(client[0].active().stream().noneMatch(a -> a.node().address().port() == nearest), "and the node is dropped");
        client[0].read(guid, 16, r -> reply[0] = r);
        OverlayFixture.run(overlay, Duration.ofSeconds(3));
        assertTrue(reply[0].found(), "the next nearest serves the next read");
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
}
