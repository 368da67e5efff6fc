package io.riptide.dolr.membership;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Maintenance asks more rows while answers come back unqueued, and backs off by half once they queue. */
class MaintenancePaceTest {
    private static final long QUIET = 0;
    private static final long QUEUED = MaintenancePace.TARGET_QUEUEING_NANOS + 1;

    @Test
    void aQuietUplinkAddsARowEachRoundUpToThePopulatedRows() {
        MaintenancePace pace = new MaintenancePace();
        assertEquals(2, pace.rowsThisRound(4, QUIET));
        assertEquals(3, pace.rowsThisRound(4, QUIET));
        assertEquals(4, pace.rowsThisRound(4, QUIET));
        assertEquals(4, pace.rowsThisRound(4, QUIET), "never more rows than the table has");
    }

    @Test
    void queueingPastTheTargetHalvesTheRowsButNeverBelowOne() {
        MaintenancePace pace = new MaintenancePace();
        for (int i = 0; i < 6; i++) {
            pace.rowsThisRound(6, QUIET);
        }
        assertEquals(3, pace.rowsThisRound(6, QUEUED));
        assertEquals(1, pace.rowsThisRound(6, QUEUED));
        assertEquals(1, pace.rowsThisRound(6, QUEUED));
        assertEquals(2, pace.rowsThisRound(6, MaintenancePace.TARGET_QUEUEING_NANOS), "at the target is not past it");
    }

    @Test
    void aTableThatShrankCapsTheRows() {
        MaintenancePace pace = new MaintenancePace();
        for (int i = 0; i < 6; i++) {
            pace.rowsThisRound(6, QUIET);
        }
        assertEquals(2, pace.rowsThisRound(2, QUIET));
        assertEquals(1, pace.rowsThisRound(0, QUIET), "an empty table still asks its neighbour once");
    }
}
