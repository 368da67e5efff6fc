package io.riptide.core.runtime.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.wire.WireMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The network's injected faults: duplication, jitter that reorders, partitions that heal on a schedule, clock skew. */
class SimFaultsTest {
    private static final long MS = 1_000_000;
    private static final LatencyModel LINE = (from, to) -> Math.abs(from - to) * MS;

    record Numbered(int n) implements WireMessage {
    }

    private final Simulation sim = new Simulation(5);
    private final SimNetwork net = new SimNetwork(sim, LINE);

    private SimEnv host(int vertex, List<Integer> received) {
        return net.start(Id.hash("node" + vertex), vertex, env -> (from, m) -> received.add(((Numbered) m).n()));
    }

    @Test
    void duplicationDeliversTheGivenShareTwice() {
        List<Integer> got = new ArrayList<>();
        SimEnv a = host(1, new ArrayList<>());
        host(2, got);
        net.setDuplication(0.1);
        for (int i = 0; i < 4000; i++) {
            a.send(NodeAddress.simulated(2), new Numbered(i));
        }
        sim.runToQuiescence();
        assertEquals(4000 + net.messagesDuplicated(), got.size());
        assertTrue(Math.abs(net.messagesDuplicated() - 400) < 60, "about a tenth twice: " + net.messagesDuplicated());
        assertEquals(4000, net.messagesSent(), "a copy is not a message sent");
        assertThrows(IllegalArgumentException.class, () -> net.setDuplication(-0.1));
    }

    @Test
    void withoutJitterOnePairsMessagesArriveInOrderAndWithItTheyOvertake() {
        List<Integer> got = new ArrayList<>();
        SimEnv a = host(1, new ArrayList<>());
        host(3, got);
        for (int i = 0; i < 200; i++) {
            a.send(NodeAddress.simulated(3), new Numbered(i));
            sim.runFor(MS / 10);
        }
        sim.runToQuiescence();
        assertTrue(inOrder(got));
        got.clear();
        net.setJitter(0.5, Duration.ofMillis(20));
        for (int i = 0; i < 200; i++) {
            a.send(NodeAddress.simulated(3), new Numbered(i));
            sim.runFor(MS / 10);
        }
        sim.runToQuiescence();
        assertEquals(200, got.size(), "jitter delays, it does not drop");
        assertFalse(inOrder(got), "messages 0.1 ms apart overtake each other under up to 20 ms of jitter");
        assertTrue(net.messagesJittered() > 50 && net.messagesJittered() < 150, "about half: " + net.messagesJittered());
    }

    private static boolean inOrder(List<Integer> got) {
        for (int i = 1; i < got.size(); i++) {
            if (got.get(i) < got.get(i - 1)) {
                return false;
            }
        }
        return true;
    }

    @Test
    void partitionsStackAndHealOnTheirOwnSchedule() {
        List<Integer> got = new ArrayList<>();
        SimEnv a = host(1, new ArrayList<>());
        host(5, got);
        SimNetwork.Cut first = net.partition(v -> v < 3, Duration.ofMillis(100));
        SimNetwork.Cut second = net.partition(v -> v == 5, Duration.ofMillis(300));
        assertEquals(2, net.partitions());
        a.send(NodeAddress.simulated(5), new Numbered(1));
        sim.runFor(200 * MS);
        assertFalse(first.active(), "the first healed after 100 ms");
        assertTrue(second.active());
        a.send(NodeAddress.simulated(5), new Numbered(2));
        sim.runFor(200 * MS);
        assertFalse(second.active());
        a.send(NodeAddress.simulated(5), new Numbered(3));
        sim.runToQuiescence();
        assertEquals(List.of(3), got, "dropped while either cut stood");
        assertEquals(2, net.messagesLost());
    }

    @Test
    void clockSkewMovesTheWallClockOnlyAndOutlivesARestart() {
        SimEnv a = host(1, new ArrayList<>());
        SimEnv b = host(2, new ArrayList<>());
        sim.runFor(1_000 * MS);
        net.setClockSkew(1, Duration.ofSeconds(-30));
        assertEquals(b.wallClockMillis() - 30_000, a.wallClockMillis());
        assertEquals(b.nowNanos(), a.nowNanos(), "durations are measured as before");
        net.kill(1);
        SimEnv again = host(1, new ArrayList<>());
        assertEquals(b.wallClockMillis() - 30_000, again.wallClockMillis(), "the machine's clock, not the process's");
        net.setClockSkew(1, Duration.ZERO);
        assertEquals(b.wallClockMillis(), again.wallClockMillis());
    }

    @Test
    void faultsOffDrawNothingSoARunStaysAsItWas() {
        // Two networks with the same seed, one with duplication and jitter set to zero: every host's
        // random stream, and every delivery, are the same.
        Simulation other = new Simulation(5);
        SimNetwork quiet = new SimNetwork(other, LINE);
        net.setDuplication(0);
        net.setJitter(0, Duration.ofMillis(5));
        SimEnv a = host(1, new ArrayList<>());
        SimEnv b = quiet.start(Id.hash("node1"), 1, env -> (from, m) -> { });
        assertEquals(a.random().nextLong(), b.random().nextLong());
        net.setJitter(1, Duration.ofMillis(5));
        SimEnv c = host(2, new ArrayList<>());
        SimEnv d = quiet.start(Id.hash("node2"), 2, env -> (from, m) -> { });
        assertEquals(c.random().nextLong(), d.random().nextLong(), "the fault stream is split off the loss stream, not the engine");
        assertNotEquals(0, LINE.latencyNanos(1, 2));
    }
}
