package io.riptide.dolr.simulation;

import static io.riptide.dolr.simulation.OverlayFixture.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.sim.Simulation;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.bloom.LocalArea;
import io.riptide.dolr.location.LocateResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A node at the edge of its network picks its nearest peers, but is nobody's nearest: without help no
 * filter in the area would hold what it offers, and a service there (a campus's cache manager) would
 * never be found locally. It asks its nearest neighbours to adopt it, and the area then finds it.
 */
class BloomAdoptionTest {
    /** Hosts on a line 1 ms apart, and one more far out at the end of it. */
    private static final int LINE = 60;
    private static final int EDGE = LINE;
    private static final long EDGE_GAP_MS = 30;

    @Test
    void aNodeThatIsNobodysNearestIsAdoptedAndWhatItOffersIsFoundInTheLocalArea() {
        Simulation sim = new Simulation(31);
        SimulatedOverlay overlay = new SimulatedOverlay(sim, (a, b) -> Math.abs(position(a) - position(b)) * 1_000_000L + 500_000L,
                DolrConfig.defaults(), v -> 0);
        overlay.checkWireFormat();
        List<Integer> vertices = new ArrayList<>();
        for (int v = 0; v <= EDGE; v++) {
            vertices.add(v);
        }
        overlay.addAll(vertices, Duration.ofMillis(50), Duration.ofSeconds(60), () -> { });
        run(overlay, Duration.ofSeconds(120)); // neighbours measured, filters pulled for several refreshes

        OverlayNode edge = overlay.node(EDGE);
        for (int v = 0; v < LINE; v++) {
            assertFalse(overlay.node(v).localArea().neighbours().contains(edge.self()),
                    "the edge node is not among node " + v + "'s nearest");
        }
        List<Integer> adopters = new ArrayList<>();
        for (int v = 0; v < LINE; v++) {
            if (overlay.node(v).localArea().adopted().contains(edge.self())) {
                adopters.add(v);
            }
        }
        assertEquals(List.of(LINE - 2, LINE - 1), adopters, "its two nearest neighbours adopted it");

        Id service = Id.hash("edge-service");
        edge.offerService(service);
        run(overlay, Duration.ofSeconds(5)); // pushed through the levels
        int reader = LINE - 10; // adopters are among its nearest; the edge node is not
        LocalArea area = overlay.node(reader).localArea();
        assertFalse(area.neighbours().contains(edge.self()));
        List<LocalArea.Match> matches = area.matches(service, edge.config().bloomLevels() - 1, id -> false);
        assertFalse(matches.isEmpty(), "the reader's filters lead to the edge node's service");

        LocateResult[] found = new LocateResult[1];
        overlay.node(reader).locate(service, 16, true, r -> found[0] = r);
        run(overlay, Duration.ofSeconds(4));
        assertNotNull(found[0]);
        assertTrue(found[0].found(), "located: " + found[0]);
        assertEquals(edge.self().id(), found[0].replica().id());
        assertTrue(found[0].hops() <= 2, "through the local area, not the wide overlay: " + found[0].hops() + " hops");
    }

    private static long position(int vertex) {
        return vertex == EDGE ? LINE - 1 + EDGE_GAP_MS : vertex;
    }
}
