package io.riptide.cachemanager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.cachemanager.sim.Stub;
import io.riptide.core.hint.HintMessages.MissHint;
import io.riptide.core.id.Id;
import io.riptide.dolr.location.LocateResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Hints go to the nearest cache manager with no configuration: one that joins takes over its
 * stub's hints, and when it fails the next nearest gets them again after only a few late hints.
 */
class ServiceDiscoveryTest {
    private static final int NODES = 36;
    private static final int GROUPS = 6;
    private static final int GATEWAY = 1;
    private static final int FIRST = 0; // group 0
    private static final int JOINER = 38; // group 2, added later
    private static final int[] CLIENTS = {8, 14, 20, 26}; // group 2

    private static List<LocateResult[]> round(Stub stub, int n) {
        List<LocateResult[]> out = new ArrayList<>();
        for (int c : CLIENTS) {
            out.add(stub.hint(c, new MissHint("http://example.com/d" + n, Id.hash("d" + n))));
        }
        stub.run(Duration.ofSeconds(1));
        return out;
    }

    private static int landedIn(Stub stub, List<LocateResult[]> results, int group) {
        int n = 0;
        for (LocateResult[] r : results) {
            if (stub.groupOf(r[0]) == group) {
                n++;
            }
        }
        return n;
    }

    @Test
    void aJoiningManagerTakesItsStubsHintsAndOnItsFailureTheNextNearestDoes() {
        Stub stub = new Stub(9, NODES, GROUPS, GATEWAY, CacheManagerConfig.defaults(), FIRST);
        assertEquals(CLIENTS.length, landedIn(stub, round(stub, 0), 0), "only one manager: it takes every hint");

        stub.addManager(JOINER, CacheManagerConfig.defaults());
        stub.run(Duration.ofSeconds(40)); // it joins, offers the service, and its pointers and Bloom filters spread
        long before = stub.manager(JOINER).hints();
        assertEquals(CLIENTS.length, landedIn(stub, round(stub, 1), 2), "the stub's own manager is now nearest");
        assertEquals(before + CLIENTS.length, stub.manager(JOINER).hints());

        stub.overlay.kill(JOINER);
        int late = 0;
        int toFirst = 0;
        for (int n = 2; n < 32; n++) {
            List<LocateResult[]> results = round(stub, n);
            stub.run(Duration.ofSeconds(1));
            for (LocateResult[] r : results) {
                if (r[0] == null || !r[0].found() || stub.overlay.vertexOf(r[0].replica().id()) != FIRST) {
                    late++;
                } else {
                    toFirst++;
                }
            }
        }
        assertTrue(late <= 3 * CLIENTS.length, late + " hints lost or late while the failure was detected");
        List<LocateResult[]> last = round(stub, 99);
        assertEquals(CLIENTS.length, landedIn(stub, last, 0), "the next nearest manager takes them all again");
        assertTrue(toFirst > 0);
    }
}
