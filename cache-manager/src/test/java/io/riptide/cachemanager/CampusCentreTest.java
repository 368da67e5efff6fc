package io.riptide.cachemanager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.cachemanager.replicas.CampusCentre;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.hint.HintMessages.LoadReport;
import io.riptide.core.id.Id;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.runtime.sim.LatencyModel;
import io.riptide.core.runtime.sim.Simulation;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.OverlayApplication;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.location.LocateResult;
import io.riptide.dolr.simulation.SimulatedOverlay;
import java.time.Duration;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * A manager at the edge of its campus finds the node its readers are nearest on average and copies
 * what they read there; a manager already at the centre, or with too few readers, makes no copy.
 */
class CampusCentreTest {
    private static final int NODES = 40;
    private static final int MANAGER = 0; // campus 0, at one end of its line
    /** Seconds between one reader's reports: the campus's rate stays under the hot-object bound (5/s), so no hot extras. */
    private static final int REPORT_EVERY_S = 10;

    /** Two campuses (even and odd vertices); inside one, hosts on a line 1 ms apart; 40 ms between them. */
    private record LineCampuses() implements LatencyModel {
        static int campus(int v) {
            return v % 2;
        }

        @Override
        public long latencyNanos(int from, int to) {
            if (from == to) {
                return 0;
            }
            if (campus(from) != campus(to)) {
                return 40_000_000L;
            }
            return 1_000_000L + Math.abs(from / 2 - to / 2) * 1_000_000L;
        }
    }

    private final SigningKey provider = SigningKey.fromSeed(new byte[32]);
    private final Id service = ObjectNames.cacheManagerGuid(provider.publicKey());

    private SimulatedOverlay campuses(long seed, int managerVertex, CacheManager[] manager) {
        Simulation sim = new Simulation(seed);
        LineCampuses latency = new LineCampuses();
        SimulatedOverlay overlay = new SimulatedOverlay(sim, latency, DolrConfig.defaults(), LineCampuses::campus);
        overlay.checkWireFormat();
        Function<OverlayNode, OverlayApplication> factory = CacheManager.factory(provider.publicKey(), CacheManagerConfig.defaults());
        for (int v = 0; v < NODES; v++) {
            if (v == managerVertex) {
                overlay.add(v, node -> {
                    manager[0] = (CacheManager) factory.apply(node);
                    return manager[0];
                });
            } else {
                overlay.add(v);
            }
            sim.runFor(Duration.ofMillis(50).toNanos());
        }
        sim.runFor(Duration.ofSeconds(60).toNanos());
        return overlay;
    }

    /** Readers in campus 0 (not the manager) report a hit of {@code guid} every few seconds for {@code seconds}. */
    private static void readersReport(SimulatedOverlay overlay, int managerVertex, Id service, Id guid, int readers, int seconds) {
        for (int s = 0; s < seconds; s += REPORT_EVERY_S) {
            int sent = 0;
            for (int v = 0; v < NODES && sent < readers; v += 2) {
                if (v != managerVertex) {
                    overlay.node(v).anycast(service, new LoadReport(guid, 1), 8, r -> { });
                    sent++;
                }
            }
            overlay.simulation().runFor(Duration.ofSeconds(REPORT_EVERY_S).toNanos());
        }
    }

    @Test
    void aManagerAtTheEdgeCopiesWhatItsCampusReadsToTheCampusCentre() {
        CacheManager[] manager = new CacheManager[1];
        SimulatedOverlay overlay = campuses(31, MANAGER, manager);
        Id guid = Id.hash("read across the campus");
        overlay.node(MANAGER).storeReplica(guid, new byte[] {7, 7});
        readersReport(overlay, MANAGER, service, guid, NODES, 75);

        CampusCentre centre = manager[0].campusCentre();
        assertNotNull(centre.centre(), "a centre was found");
        int vertex = overlay.vertexOf(centre.centre().id());
        assertEquals(0, LineCampuses.campus(vertex), "in the readers' campus");
        int position = vertex / 2;
        assertTrue(position >= 5 && position <= 14, "near the middle of the line of 20, not at its end: " + position);
        double[] means = centre.meansMs();
        assertTrue(means[1] <= 0.9 * means[0], "readers nearer the centre: " + means[1] + " vs " + means[0] + " ms");
        assertTrue(overlay.node(vertex).replicas().contains(guid), "the centre holds a copy");
        assertEquals(1, centre.made());
        assertEquals(0, manager[0].hotObjects().added(), "no hot extras: the copy is the centre's");

        // A reader at the far end now reads the centre's copy, not the manager's.
        int farReader = 2 * 19;
        LocateResult[] out = new LocateResult[1];
        overlay.node(farReader).read(guid, 8, r -> out[0] = r);
        overlay.simulation().runFor(Duration.ofSeconds(4).toNanos());
        assertTrue(out[0].found());
        assertEquals(vertex, overlay.vertexOf(out[0].replica().id()));
    }

    @Test
    void aManagerAtTheCentreOrWithFewReadersMakesNoCopy() {
        CacheManager[] central = new CacheManager[1];
        int middle = 2 * 10;
        SimulatedOverlay overlay = campuses(32, middle, central);
        Id guid = Id.hash("read around the centre");
        overlay.node(middle).storeReplica(guid, new byte[] {1});
        readersReport(overlay, middle, service, guid, NODES, 75);
        assertNull(central[0].campusCentre().centre());
        assertEquals(0, central[0].campusCentre().made());

        CacheManager[] edge = new CacheManager[1];
        SimulatedOverlay few = campuses(33, MANAGER, edge);
        few.node(MANAGER).storeReplica(guid, new byte[] {1});
        readersReport(few, MANAGER, service, guid, 4, 75); // four readers: too few to place for
        assertEquals(0, edge[0].campusCentre().checks());
        assertEquals(0, edge[0].campusCentre().made());
    }
}
