package io.riptide.simulator.discovery;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.simulator.topology.TopologyParams;
import io.riptide.simulator.topology.TransitStubTopology;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The analysis of a hand-made hint log: interval counts, shift times and shares against the true nearest manager. */
class DiscoveryAnalysisTest {
    private static final long S = 1_000_000_000L;
    private final TransitStubTopology topology = TransitStubTopology.generate(TopologyParams.forHosts(200).withHostsPerStub(20), 7);
    private final DiscoveryLayout layout = DiscoveryLayout.choose(topology, 10, 2, new SplittableRandom(3));
    private final ManagerStarts managers = new ManagerStarts(layout.managers(), new long[] {0, 30 * S, 60 * S});

    @Test
    void layoutPutsLaterManagersInTheClientStubsAndTheFirstFarAway() {
        assertEquals(10, layout.clients().length);
        int[] m = layout.managers();
        assertTrue(topology.transitRouterOf(topology.stubOf(m[0])) != topology.transitRouterOf(topology.stubOf(m[1])));
        for (int c : layout.clients()) {
            assertTrue(topology.sameStub(c, m[1]) || topology.sameStub(c, m[2]));
            assertEquals(1, managers.nearest(topology, c, 30 * S), "the second manager is nearer every client than the first");
        }
    }

    @Test
    void shiftIsTheFirstIntervalInWhichTheNearestClientsUseTheNewManager() {
        List<Hint> hints = new ArrayList<>();
        for (long t = 0; t < 90; t += 5) {
            for (int c : layout.clients()) {
                int nearest = managers.nearest(topology, c, t * S);
                // Traffic lags 10 s behind each start: hints in the new manager's first interval miss it.
                int reached = t >= 30 && t < 40 || t >= 60 && t < 70 ? nearest - 1 : nearest;
                hints.add(new Hint(c, t * S, t == 85 ? -1 : reached));
            }
        }
        DiscoveryAnalysis analysis = new DiscoveryAnalysis(hints, managers, topology);
        assertEquals(20 * S, analysis.shiftNanos(1, 10 * S, 90 * S, 0.9));
        assertEquals(20 * S, analysis.shiftNanos(2, 10 * S, 90 * S, 0.9));
        assertEquals(1.0, analysis.shareToNearest(1, 40 * S, 60 * S));
        IntervalCounts counts = analysis.perInterval(10 * S, 90 * S);
        assertEquals(9, counts.intervals());
        assertArrayEquals(new long[] {20, 20, 20, 20, 20, 20, 20, 10, 5}, sumOfManagers(counts));
        assertEquals(10, counts.unanswered()[8]);
        assertEquals(0.0, counts.toNearest()[3]);
        assertEquals(1.0, counts.toNearest()[4]);
    }

    private static long[] sumOfManagers(IntervalCounts counts) {
        long[] firstTwo = new long[counts.intervals()];
        for (int k = 0; k < firstTwo.length; k++) {
            firstTwo[k] = counts.byManager()[0][k] + counts.byManager()[1][k];
        }
        return firstTwo;
    }
}
