package io.riptide.dolr.simulation;

import static io.riptide.dolr.simulation.OverlayFixture.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import io.riptide.dolr.lease.LeaseResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A claim whose message is lost is resent until its root answers: the claimant learns it holds the
 * lease instead of proceeding unconfirmed, and a later claimant is told who holds it.
 */
class LeaseResendTest {
    private static final int NODES = 120;
    private static final int GROUPS = 6;
    private static final int CLAIMANT = 3;

    @Test
    void aClaimLostWhileItsSenderIsCutOffIsResentAndAnswered() {
        SimulatedOverlay overlay = OverlayFixture.settled(13, NODES, GROUPS);
        Id key = Id.hash("fetching http://example.org/lost-claim");
        List<LeaseResult> results = new ArrayList<>();
        // The claimant is cut off for 2.5 s: its first claim is lost, the answer comes only to a resend.
        // Before resends, the claim waited one locate deadline (3 s) and then went ahead unconfirmed.
        overlay.network().partition(v -> v == CLAIMANT);
        overlay.node(CLAIMANT).claim(key, Duration.ofSeconds(30), results::add);
        run(overlay, Duration.ofMillis(2500));
        overlay.network().heal();
        run(overlay, Duration.ofSeconds(5));
        assertEquals(1, results.size());
        assertTrue(results.get(0).answered(), "the resent claim reached the root: " + results.get(0));
        assertTrue(results.get(0).granted());
        overlay.node(99).claim(key, Duration.ofSeconds(30), results::add);
        run(overlay, Duration.ofSeconds(2));
        assertFalse(results.get(1).granted(), "the root recorded the first claimant");
        assertEquals(overlay.node(CLAIMANT).self(), results.get(1).holder());
    }

    @Test
    void aRootThatNeverAnswersLeavesTheClaimUnconfirmedAfterItsBudget() {
        SimulatedOverlay overlay = OverlayFixture.settled(13, NODES, GROUPS);
        Id key = Id.hash("fetching http://example.org/no-root");
        List<LeaseResult> results = new ArrayList<>();
        overlay.network().partition(v -> v == CLAIMANT);
        overlay.node(CLAIMANT).claim(key, Duration.ofSeconds(30), results::add);
        run(overlay, Duration.ofSeconds(5));
        assertTrue(results.isEmpty(), "still resending within the budget");
        run(overlay, Duration.ofSeconds(2));
        overlay.network().heal();
        assertEquals(1, results.size());
        assertFalse(results.get(0).answered());
        assertTrue(overlay.node(CLAIMANT).leases().resent() > 0);
    }
}
