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

    private Request enter() {
        Request r = new Request();
        queue.enter(r);
        return r;
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
        queue.leave();
        assertTrue(c.admitted);
        assertFalse(d.admitted);
        queue.leave();
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

    @Test
    void aStandingQueueShedsWhatWaitedPastTheTargetAndServesTheFresh() {
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
        queue.leave();
        assertTrue(fresh.admitted, "what waited 2 ms of a standing queue is served");
        assertEquals(1, stage.metrics().shed());
    }

    @Test
    void aSweepShedsWaitersWhenNoConnectionFreesAndNoOneComes() {
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
        queue.leave();
        assertFalse(gone.admitted);
        assertTrue(next.admitted);
        assertEquals(0, stage.metrics().queueLength());
    }

    @Test
    void everyWaiterAdmittedOrShedIsCountedOnce() {
        List<Request> all = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            all.add(enter());
        }
        advance(200);
        for (int i = 0; i < 2; i++) {
            queue.leave();
        }
        long decided = all.stream().filter(r -> r.admitted || r.shed).count();
        assertEquals(5, decided);
        StageMetrics m = stage.metrics();
        assertEquals(5, m.accepted());
        assertEquals(3, m.shed());
        assertEquals(5, m.waited());
    }
}
