package io.riptide.dolr.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.runtime.sim.SimNetwork;
import io.riptide.core.runtime.sim.Simulation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A client's reads through two simulated access nodes whose service times the test sets: a late read
 * is hedged after the 95th percentile of that node's recent reads, the hedges stay within their budget
 * when the overlay turns slow, a node whose connection is lost gives its reads to the other at once,
 * is pinged in the background and used again when it answers, and a node that hangs with its connection
 * open is marked down once its silence is plain, not at the deadline.
 */
class HedgedReadsTest {
    private static final long MS = 1_000_000;
    private static final int CLIENT = 0;
    private static final int NEAR = 1;
    private static final int FAR = 2;
    private static final byte[] FROM_NEAR = {1};
    private static final byte[] FROM_FAR = {2};
    private static final Id GUID = Id.hash("an object");

    private final Simulation sim = new Simulation(7);
    // One way: client to the near node 4 ms, to the far one 6 ms.
    private final SimNetwork net = new SimNetwork(sim, (a, b) -> a == b ? 0 : a + b == NEAR ? 4 * MS : a + b == FAR ? 6 * MS : 5 * MS);
    private final FakeAccessPoint near = FakeAccessPoint.start(net, NEAR, FROM_NEAR);
    private final FakeAccessPoint far = FakeAccessPoint.start(net, FAR, FROM_FAR);
    private AccessNodes client;

    private void startClient(Duration deadline) {
        net.start(Id.hash("client"), CLIENT, env -> {
            client = new AccessNodes(env, List.of(near.address(), far.address()), 3, Duration.ofSeconds(30), deadline);
            return client;
        });
        client.start();
        sim.runFor(Duration.ofSeconds(1).toNanos());
        assertEquals(List.of(near.handle(), far.handle()), live(), "both found, the near one first");
    }

    private List<NodeHandle> live() {
        return client.active().stream().map(AccessNodes.Access::node).toList();
    }

    /** One read, run until answered; returns the answer and how long it took (virtual nanoseconds). */
    private record Timed(ObjectRead read, long nanos) {
    }

    private Timed readOnce() {
        List<ObjectRead> got = new ArrayList<>();
        long[] at = {-1};
        long sent = sim.now();
        client.read(GUID, 8, r -> {
            got.add(r);
            at[0] = sim.now();
        });
        sim.runFor(Duration.ofSeconds(5).toNanos());
        assertEquals(1, got.size(), "answered exactly once, late answers dropped");
        return new Timed(got.get(0), at[0] - sent);
    }

    @Test
    void aLateReadIsHedgedAfterTheNinetyFifthPercentileOfItsNodeAndTheSecondNodeWins() {
        startClient(Duration.ofSeconds(2));
        // The first read takes 20 ms, the next 10 ms each: until there are 20, the 95th percentile is the slowest
        // (20 ms), so none of these is hedged; from the 20th on it is 10 ms.
        int[] served = {0};
        near.serveIn(e -> Duration.ofMillis(served[0]++ == 0 ? 12 : 2));
        far.serveIn(Duration.ofMillis(2));
        for (int i = 0; i < 20; i++) {
            Timed t = readOnce();
            assertArrayEquals(FROM_NEAR, t.read().data());
            assertEquals((i == 0 ? 20 : 10) * MS, t.nanos(), "4 ms there, 2 ms to serve, 4 ms back");
        }
        assertEquals(0, client.accessFigures().readsHedged());
        assertEquals(Duration.ofMillis(10), client.hedgeDelay(), "the near node's 95th percentile");
        near.serveIn(Duration.ofMillis(500)); // the near node turns slow
        Timed t = readOnce();

        assertArrayEquals(FROM_FAR, t.read().data(), "the hedge through the far node answered first");
        assertEquals(24 * MS, t.nanos(), "hedged after 10 ms, then 6 + 2 + 6 ms through the far node");
        AccessFigures after = client.accessFigures();
        assertEquals(1, after.readsHedged());
        assertEquals(1, after.hedgeWins());
        assertEquals(near.handle(), live().get(0), "a node that answers late, but within the deadline, stays");
        assertTrue(after.down().isEmpty());
    }

    @Test
    void hedgesStayWithinTheirBudgetWhenTheOverlayTurnsSlow() {
        startClient(Duration.ofSeconds(4));
        near.serveIn(Duration.ofMillis(2));
        far.serveIn(Duration.ofMillis(2));
        for (int i = 0; i < 20; i++) {
            readOnce();
        }
        AccessFigures before = client.accessFigures();
        long sentBefore = near.reads() + far.reads();

        // Every access node now takes 1.2 to 1.8 s: each read is late by the 10 ms learnt, until slow answers come in.
        near.serveIn(e -> Duration.ofMillis(1200 + e.random().nextInt(600)));
        far.serveIn(e -> Duration.ofMillis(1200 + e.random().nextInt(600)));
        int reads = 3000;
        int[] answered = {0};
        int[] found = {0};
        for (int i = 0; i < reads; i++) {
            client.read(GUID, 8, r -> {
                answered[0]++;
                found[0] += r.found() ? 1 : 0;
            });
            sim.runFor(MS); // a read every millisecond
        }
        sim.runFor(Duration.ofSeconds(5).toNanos());

        assertEquals(reads, answered[0]);
        assertEquals(reads, found[0], "slow, but within the deadline: every read found its copy");
        AccessFigures after = client.accessFigures();
        long hedged = after.readsHedged() - before.readsHedged();
        long sent = near.reads() + far.reads() - sentBefore;
        assertTrue(hedged <= reads / 10 + HedgedReads.HEDGE_BURST, "hedges within a tenth of reads and the burst: " + hedged);
        assertTrue(after.hedgesOverBudget() - before.hedgesOverBudget() > reads / 2,
                "most late reads were not hedged: " + (after.hedgesOverBudget() - before.hedgesOverBudget()));
        assertEquals(reads + hedged, sent, "the access nodes saw each read once, and the hedges");
        assertTrue(after.down().isEmpty(), "no node was marked down");
    }

    @Test
    void aLostConnectionSendsItsReadsOnAtOnceAndTheNodeIsUsedAgainOnceItAnswers() {
        startClient(Duration.ofSeconds(2));
        near.serveIn(FakeAccessPoint.SILENT);
        far.serveIn(Duration.ofMillis(2));
        List<ObjectRead> got = new ArrayList<>();
        long sent = sim.now();
        long[] at = {-1};
        for (int i = 0; i < 3; i++) {
            client.read(GUID, 8, r -> {
                got.add(r);
                at[0] = sim.now();
            });
        }
        sim.runFor(5 * MS); // the reads reach the near node, which sits on them (the hedge delay is still 500 ms)
        assertEquals(3, near.reads());

        client.unreachable(near.address()); // its connection closed
        assertEquals(List.of(far.handle()), live(), "marked down at once");
        assertEquals(List.of(near.handle()), client.down());
        sim.runFor(20 * MS);

        assertEquals(3, got.size());
        got.forEach(r -> assertArrayEquals(FROM_FAR, r.data()));
        assertEquals(5 * MS + 14 * MS, at[0] - sent, "sent on at the loss (6 + 2 + 6 ms), not at a hedge delay or the deadline");
        AccessFigures figures = client.accessFigures();
        assertEquals(3, figures.readsResent());
        assertEquals(0, figures.readsHedged());
        assertEquals(1, figures.nodesLost());

        // The node is pinged again in the background (it is alive: the connection was what failed) and used again.
        near.serveIn(Duration.ofMillis(2));
        sim.runFor(DownNodes.FIRST_RETRY.toNanos() + 20 * MS);
        assertTrue(client.down().isEmpty());
        assertEquals(near.handle(), live().get(0), "back, and the nearest again");
        assertArrayEquals(FROM_NEAR, readOnce().read().data());
    }

    @Test
    void aDownNodeThatNeverAnswersIsPingedWithABackoffAndThenForgotten() {
        startClient(Duration.ofSeconds(2));
        net.kill(NEAR);
        client.unreachable(near.address());
        long dropped = net.messagesDropped();
        sim.runFor(Duration.ofSeconds(60).toNanos());
        long pings = net.messagesDropped() - dropped;
        assertEquals(List.of(near.handle()), client.down(), "still down, still tried");
        // At 0.5, 1.5, 3.5, 7.5, 15.5 and 31.5 s (then every 30 s), and as a seed twice a minute: 6 to 8 in the first minute.
        assertTrue(pings >= 6 && pings <= 8, "pings to the dead node in a minute: " + pings);
        sim.runFor(Duration.ofMinutes(5).toNanos());
        assertTrue(client.down().isEmpty(), "forgotten after " + DownNodes.MAX_TRIES + " unanswered pings");
        assertFalse(live().contains(near.handle()));
        assertArrayEquals(FROM_FAR, readOnce().read().data());
    }

    @Test
    void aNodeThatHangsWithItsConnectionOpenIsMarkedDownOnceAnotherAnswersPromptlyAndItsReadsGoOn() {
        startClient(Duration.ofSeconds(3));
        near.serveIn(Duration.ofMillis(2));
        far.serveIn(Duration.ofMillis(2));
        for (int i = 0; i < 20; i++) {
            readOnce();
        }
        near.hang();
        long hungAt = sim.now();
        long downAt = -1;
        int reads = 1000;
        int[] answered = {0};
        int[] fromFar = {0};
        long[] slowest = {0};
        for (int i = 0; i < reads; i++) {
            long sent = sim.now();
            client.read(GUID, 8, r -> {
                answered[0]++;
                fromFar[0] += r.found() && Arrays.equals(FROM_FAR, r.data()) ? 1 : 0;
                slowest[0] = Math.max(slowest[0], sim.now() - sent);
            });
            sim.runFor(2 * MS); // a read every 2 ms, for 2 s
            if (downAt < 0 && !client.down().isEmpty()) {
                downAt = sim.now();
            }
        }
        sim.runFor(Duration.ofSeconds(4).toNanos());

        assertEquals(reads, answered[0]);
        assertEquals(reads, fromFar[0], "every read answered, through the far node");
        AccessFigures figures = client.accessFigures();
        assertEquals(1, figures.nodesHung(), "marked down once, for hanging");
        assertTrue(downAt >= 0 && downAt - hungAt <= HedgedReads.MIN_HUNG.toNanos() + 30 * MS,
                "marked down " + (downAt - hungAt) / MS + " ms after it hung");
        assertEquals(List.of(near.handle()), figures.down(), "and down still: it answers no ping");
        assertEquals(List.of(far.handle()), live());
        long limit = HedgedReads.MIN_HUNG.toNanos() + 40 * MS; // its silence, then 6 + 2 + 6 ms through the far node
        assertTrue(slowest[0] <= limit, "the slowest read waited " + slowest[0] / MS + " ms, not the 3 s deadline");
        assertTrue(figures.readsResent() > 0, "the reads waiting on it were sent on at once");
    }

    @Test
    void aSlowReadNowAndThenDoesNotMakeANodeHung() {
        startClient(Duration.ofSeconds(4));
        int[] served = {0};
        near.serveIn(e -> Duration.ofMillis(served[0]++ == 0 ? 12 : 2)); // as in the first test: no hedge while learning
        far.serveIn(Duration.ofMillis(2));
        for (int i = 0; i < 20; i++) {
            readOnce();
        }
        // A read the near node takes 1.5 s over, now and then, none waiting beside it: each is hedged and won by
        // the far node, and the near node, silent only while that one read waits, stays.
        near.serveIn(Duration.ofMillis(1500));
        for (int i = 0; i < 2; i++) {
            Timed t = readOnce();
            assertArrayEquals(FROM_FAR, t.read().data(), "read " + i + " took " + t.nanos() / MS + " ms; " + client.accessFigures());
        }
        assertEquals(0, client.accessFigures().nodesHung());
        assertEquals(List.of(near.handle(), far.handle()), live());
    }
}
