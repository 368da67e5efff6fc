package io.riptide.dolr.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.NodeHandle;
import org.junit.jupiter.api.Test;

/** A peer's distance is its least RTT sampled lately; its smoothed RTT still carries the queueing, for timeouts. */
class PeerTableTest {
    private static final long MS = 1_000_000L;
    private static final long S = 1_000 * MS;
    private final NodeHandle peer = new NodeHandle(Id.hash("peer"), new NodeAddress("sim", 7));

    @Test
    void aSampleTakenWhileTheLinkQueuedDoesNotMakeThePeerFar() {
        PeerTable table = new PeerTable(16);
        table.rttSample(peer, 900 * MS, 0); // during a join storm
        assertEquals(900 * MS, table.distance(peer.id()));
        table.rttSample(peer, 100 * MS, 40 * S);
        table.rttSample(peer, 300 * MS, 80 * S);
        assertEquals(100 * MS, table.distance(peer.id()), "the least sample");
        assertTrue(table.rtt(peer.id()) > 300 * MS, "the smoothed RTT still remembers the queue: " + table.rtt(peer.id()));
    }

    @Test
    void aDistanceRestsOnThreeSamplesSpacedApartThenAnOldMinimumGivesWay() {
        PeerTable table = new PeerTable(16);
        assertFalse(table.wantsDistanceSample(peer.id(), 0), "never measured: nothing to refresh");
        table.rttSample(peer, 50 * MS, 0);
        assertFalse(table.wantsDistanceSample(peer.id(), 10 * S), "too soon after the first sample");
        assertTrue(table.wantsDistanceSample(peer.id(), 30 * S));
        table.rttSample(peer, 50 * MS, 31 * S);
        table.rttSample(peer, 50 * MS, 32 * S); // close to the last: counts as the same sample
        assertTrue(table.wantsDistanceSample(peer.id(), 62 * S));
        table.rttSample(peer, 50 * MS, 62 * S);
        assertFalse(table.wantsDistanceSample(peer.id(), 200 * S), "three samples suffice");

        // The route got longer: once the least sample is older than the window, a new one replaces it.
        table.rttSample(peer, 80 * MS, 62 * S + PeerTable.MIN_RTT_WINDOW_NANOS + 1);
        assertEquals(80 * MS, table.distance(peer.id()));
    }
}
