package io.riptide.core.stage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The controlled-delay rule, on a clock the test moves: a burst may wait the interval, a standing queue only the target. */
class WaitLimitTest {
    private static final long MS = 1_000_000L;
    private final WaitLimit limit = new WaitLimit(Duration.ofMillis(5), Duration.ofMillis(100));

    @Test
    void aQueueEmptyWithinTheIntervalLetsABurstWaitTheInterval() {
        limit.empty(0);
        assertEquals(100 * MS, limit.limitNanos(50 * MS));
        assertFalse(limit.tooLong(80 * MS, 90 * MS), "a burst's request that waited 80 ms is still served");
        assertTrue(limit.tooLong(101 * MS, 100 * MS), "but not one that waited past the interval");
    }

    @Test
    void aQueueStandingLongerThanTheIntervalHoldsWaitsToTheTarget() {
        limit.empty(0);
        assertEquals(5 * MS, limit.limitNanos(101 * MS));
        assertTrue(limit.tooLong(6 * MS, 150 * MS), "a standing queue sheds what waited over the target");
        assertFalse(limit.tooLong(4 * MS, 150 * MS), "and serves what waited less");
    }

    @Test
    void seeingTheQueueEmptyAgainEndsTheStandingQueue() {
        limit.empty(0);
        assertEquals(5 * MS, limit.limitNanos(500 * MS));
        limit.empty(500 * MS);
        assertEquals(100 * MS, limit.limitNanos(520 * MS));
    }

    @Test
    void aQueueThatShedWithinTheIntervalIsStandingEvenIfEmptiedSince() {
        limit.empty(0);
        limit.shedAt(200 * MS);
        limit.empty(201 * MS);
        assertEquals(5 * MS, limit.limitNanos(250 * MS), "shedding emptied it: that is not catching up");
        limit.empty(301 * MS);
        assertEquals(100 * MS, limit.limitNanos(302 * MS), "an interval without shedding, and empty: a burst may wait again");
    }

    @Test
    void aQueueNeverSeenEmptyIsStanding() {
        assertEquals(5 * MS, limit.limitNanos(0));
    }

    @Test
    void theDefaultsAreCoDels() {
        WaitLimit d = WaitLimit.defaults();
        assertEquals(Duration.ofMillis(5), d.target());
        assertEquals(Duration.ofMillis(100), d.interval());
    }

    @Test
    void aTargetAboveTheIntervalIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new WaitLimit(Duration.ofMillis(200), Duration.ofMillis(100)));
        assertThrows(IllegalArgumentException.class, () -> new WaitLimit(Duration.ZERO, Duration.ofMillis(100)));
    }

    @Test
    void aSlowServiceScalesBothBoundsAndTheCeilingCapsThem() {
        WaitLimit capped = new WaitLimit(Duration.ofMillis(5), Duration.ofMillis(100), Duration.ofSeconds(1));
        capped.empty(0);
        assertEquals(100 * MS, capped.limitNanos(50 * MS, 2 * MS), "a fast service: CoDel's bounds");
        assertEquals(400 * MS, capped.limitNanos(50 * MS, 40 * MS), "a 40 ms service: a burst may wait ten of them");
        assertEquals(40 * MS, capped.limitNanos(401 * MS, 40 * MS), "standing past ten service times: one service time");
        assertEquals(400 * MS, capped.limitNanos(301 * MS, 40 * MS), "not standing yet at 301 ms");
        assertEquals(1_000 * MS, capped.limitNanos(50 * MS, 500 * MS), "never past the ceiling");
        assertEquals(500 * MS, capped.limitNanos(1_001 * MS, 500 * MS), "standing, it may wait one service");
    }

    @Test
    void aCeilingBelowTheIntervalIsRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> new WaitLimit(Duration.ofMillis(5), Duration.ofMillis(100), Duration.ofMillis(50)));
    }
}
