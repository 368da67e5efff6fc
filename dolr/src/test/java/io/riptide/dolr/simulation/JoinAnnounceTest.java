package io.riptide.dolr.simulation;

import static io.riptide.dolr.simulation.OverlayFixture.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.runtime.NodeHandle;
import io.riptide.dolr.OverlayNode;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A node that joined tells the nodes in its routing table about itself after its first maintenance
 * round (Pastry's join: the new node sends its state to the nodes in its tables), so nodes that
 * joined before it can take it into their own tables without waiting for maintenance to find it.
 */
class JoinAnnounceTest {
    @Test
    void theNodesInANewcomersTableMeasureIt() {
        SimulatedOverlay overlay = OverlayFixture.settled(44, 200, 4);
        run(overlay, Duration.ofSeconds(30));
        OverlayNode newcomer = overlay.add(200);
        run(overlay, Duration.ofSeconds(5));
        assertTrue(newcomer.isJoined(), "joined");
        List<NodeHandle> entries = newcomer.routingTable().all().stream()
                .filter(h -> !newcomer.leafSet().contains(h.id())).toList();
        assertTrue(entries.size() >= 10, "a table to announce to: " + entries.size());

        run(overlay, newcomer.config().maintenanceInterval().plusSeconds(2));
        long unaware = entries.stream()
                .filter(h -> overlay.node(overlay.vertexOf(h.id())).peers().distance(newcomer.self().id()) < 0)
                .count();
        assertEquals(0, unaware, "table entries that never measured the newcomer, of " + entries.size());
    }
}
