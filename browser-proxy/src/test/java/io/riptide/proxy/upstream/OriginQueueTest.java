package io.riptide.proxy.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.embedded.EmbeddedChannel;
import io.riptide.core.stage.StageMetrics;
import io.riptide.core.stage.WaitLimit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * One origin's queue, on a clock the test moves (the queue's and its event loop's together): requests beyond the
 * connections wait in order, those that waited past the wait limit are shed when a connection frees or a sweep finds
 * them, one over the queue's bound is refused at once, and the stage figures count each.
 */
class OriginQueueTest {
    private static final long MS = 1_000_000L;
    private final EmbeddedChannel channel = new EmbeddedChannel();
    private long now = 1_000 * MS;
    private final OriginStage stage = new OriginStage();
    private final OriginQueue queue = new OriginQueue(channel.eventLoop(), 2, 3,
            new WaitLimit(Duration.ofMillis(5), Duration.ofMillis(100)), () -> now, stage);

    @AfterEach
    void tearDown() {
        channel.finishAndReleaseAll();
    }

    /** A request that records what the queue decided. */
    private static final class Request implements OriginQueue.Waiter {
        boolean admitted;
        boolean shed;
        boolean left;
        long waited;

        @Override
        public void admitted() {
            admitted = true;
        }

        @Override
        public void shed(long waitedNanos, long limitNanos) {
            shed = true;
            waited = waitedNanos;
        }
    }

    /** Every request entered, in order. */
    private final List<Request> entered = new ArrayList<>();

    private Request enter() {
        Request r = new Request();
        entered.add(r);
        queue.enter(r);
        return r;
    }

    /** The first admitted request still holding its slot: it finishes now. */
    private Request admittedOne() {
        for (Request r : entered) {
            if (r.admitted && !r.left) {
                r.left = true;
                return r;
            }
        }
        throw new AssertionError("no request holds a slot");
    }

    private void advance(long ms) {
        now += ms * MS;
        channel.advanceTimeBy(ms, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
    }

    @Test
    void requestsBeyondTheConnectionsWaitAndAreAdmittedInOrderAsConnectionsFree() {
        Request a = enter();
        Request b = enter();
        Request c = enter();
        Request d = enter();
        assertTrue(a.admitted && b.admitted);
        assertFalse(c.admitted || c.shed || d.admitted || d.shed);
        assertEquals(2, queue.waiting());
        advance(10); // a burst: the queue was empty 10 ms ago, so waiting up to the interval is fine
        queue.leave(admittedOne());
        assertTrue(c.admitted);
        assertFalse(d.admitted);
        queue.leave(admittedOne());
        assertTrue(d.admitted);
        StageMetrics m = stage.metrics();
        assertEquals(4, m.accepted());
        assertEquals(0, m.shed());
        assertEquals(0, m.queueLength());
        assertEquals(2, m.threads());
        assertEquals(4, m.waited());
        assertEquals(20 * MS, m.waitTotalNanos());
    }

    @Test
    void oneOverTheBoundIsRefusedAtOnce() {
        enter();
        enter();
        enter();
        enter();
        enter();
        Request over = enter();
        assertTrue(over.shed);
        assertEquals(0, over.waited);
        assertEquals(1, stage.metrics().refused());
        assertEquals(3, stage.metrics().queueLength());
    }

    /** Two exchanges of 2 ms each: the queue knows its origin serves fast. */
    private void learnAFastOrigin() {
        enter();
        enter();
        advance(2);
        queue.leave(admittedOne());
        queue.leave(admittedOne());
        assertEquals(2 * MS, queue.serviceNanos());
    }

    @Test
    void aStandingQueueShedsWhatWaitedPastTheTargetAndServesTheFresh() {
        learnAFastOrigin();
        enter();
        enter();
        Request old = enter();
        // Requests keep coming and none is served: the queue stands.
        advance(150);
        Request fresh = enter(); // the old one is shed by now (the sweep): it waited 150 ms, the queue has stood 150 ms
        assertTrue(old.shed);
        assertEquals(150 * MS, old.waited);
        assertFalse(fresh.shed);
        advance(2);
        queue.leave(admittedOne());
        assertTrue(fresh.admitted, "what waited 2 ms of a standing queue is served");
        assertEquals(1, stage.metrics().shed());
    }

    @Test
    void aSweepShedsWaitersWhenNoConnectionFreesAndNoOneComes() {
        learnAFastOrigin();
        enter();
        enter();
        Request waiting = enter();
        advance(99);
        assertFalse(waiting.shed, "a burst may wait the interval");
        advance(2);
        assertTrue(waiting.shed, "past it, the sweep sheds without waiting for a connection");
        assertEquals(0, queue.waiting());
        assertEquals(0, stage.metrics().queueLength());
    }

    @Test
    void aRequestWhoseBrowserLeftIsTakenOutOfTheQueue() {
        enter();
        enter();
        Request gone = enter();
        Request next = enter();
        queue.cancel(gone);
        queue.leave(admittedOne());
        assertFalse(gone.admitted);
        assertTrue(next.admitted);
        assertEquals(0, stage.metrics().queueLength());
    }

    @Test
    void everyWaiterAdmittedOrShedIsCountedOnce() {
        learnAFastOrigin();
        List<Request> all = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            all.add(enter());
        }
        advance(200);
        for (int i = 0; i < 2; i++) {
            queue.leave(admittedOne());
        }
        long decided = all.stream().filter(r -> r.admitted || r.shed).count();
        assertEquals(5, decided);
        StageMetrics m = stage.metrics();
        assertEquals(7, m.accepted());
        assertEquals(3, m.shed());
        assertEquals(7, m.waited());
    }

    @Test
    void aBurstForAnOriginThatTakesLongToServeMayWaitTenOfItsServiceTimes() {
        // The origin takes 60 ms an exchange: learnt from the first two.
        enter();
        enter();
        advance(60);
        queue.leave(admittedOne());
        queue.leave(admittedOne());
        assertEquals(60 * MS, queue.serviceNanos());
        // A burst of 5 over 2 connections: the last waits two exchanges, 120 ms, past CoDel's 100 ms but within 600.
        for (int i = 0; i < 5; i++) {
            enter();
        }
        for (int round = 0; round < 3; round++) {
            advance(60);
            queue.leave(admittedOne());
            if (round < 2) {
                queue.leave(admittedOne());
            }
        }
        assertEquals(0, stage.metrics().shed(), "the burst was served, none shed");
        assertEquals(7, entered.stream().filter(r -> r.admitted).count());
    }

    @Test
    void aStandingQueueForASlowOriginMayWaitOneServiceTime() {
        enter();
        enter();
        advance(30);
        queue.leave(admittedOne());
        queue.leave(admittedOne());
        enter();
        enter();
        Request r = enter();
        advance(400); // nobody served: the queue stands (its interval is 300 ms), and r has waited past it
        assertTrue(r.shed);
        Request fresh = enter();
        advance(29);
        queue.leave(admittedOne());
        assertTrue(fresh.admitted, "29 ms is within one 30 ms service time");
    }

    @Test
    void beforeAnyExchangeFinishesTheOldestInProgressStandsForTheServiceTime() {
        // A new origin across a WAN: its first two exchanges take 300 ms, and a page's burst queues behind them.
        enter();
        enter();
        List<Request> burst = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            burst.add(enter());
        }
        advance(150);
        assertTrue(burst.stream().noneMatch(r -> r.shed), "past CoDel's 100 ms, but the exchanges ahead took longer still");
        advance(150);
        queue.leave(admittedOne());
        queue.leave(admittedOne());
        assertEquals(300 * MS, queue.serviceNanos());
        assertTrue(burst.get(0).admitted && burst.get(1).admitted);
        advance(300);
        queue.leave(admittedOne());
        assertTrue(burst.get(2).admitted, "served after 600 ms, within ten of the 300 ms exchanges");
        assertEquals(0, stage.metrics().shed());
    }

    @Test
    void anOriginThatHangsHoldsItsWaitersUpToTheCeilingAndNoLonger() {
        OriginQueue capped = new OriginQueue(channel.eventLoop(), 2, 3,
                new WaitLimit(Duration.ofMillis(5), Duration.ofMillis(100), Duration.ofSeconds(1)), () -> now, stage);
        List<Request> all = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Request r = new Request();
            all.add(r);
            capped.enter(r);
        }
        Request waiting = all.get(2);
        advance(999); // the two admitted never finish
        assertFalse(waiting.shed, "as long as a connect to it could take");
        advance(2);
        assertTrue(waiting.shed, "the sweep sheds it at the ceiling, with no connection freed and no request coming");
        assertEquals(0, capped.serviceNanos());
    }
}
