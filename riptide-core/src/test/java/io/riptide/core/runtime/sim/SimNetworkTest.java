package io.riptide.core.runtime.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.wire.MessageCodec;
import io.riptide.core.wire.WireException;
import io.riptide.core.wire.WireMessage;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SimNetworkTest {
    private static final long MS = 1_000_000;
    /** One millisecond per vertex of distance. */
    private static final LatencyModel LINE = (from, to) -> Math.abs(from - to) * MS;

    record Ping(long n) implements WireMessage {
    }

    record Unregistered() implements WireMessage {
    }

    /** A message as a host saw it: when, from whom, what. */
    record Received(long at, NodeHandle from, WireMessage message) {
    }

    private final Simulation sim = new Simulation(7);
    private final SimNetwork net = new SimNetwork(sim, LINE);

    private SimEnv host(int vertex, List<Received> inbox) {
        return net.start(Id.hash("node" + vertex), vertex, env -> (from, m) -> inbox.add(new Received(env.nowNanos(), from, m)));
    }

    @Test
    void deliversAfterTheModelledLatencyWithTheSendersHandle() {
        List<Received> inbox = new ArrayList<>();
        SimEnv a = host(1, new ArrayList<>());
        host(4, inbox);
        sim.runFor(10 * MS);
        a.send(NodeAddress.simulated(4), new Ping(1));
        sim.runFor(3 * MS - 1);
        assertTrue(inbox.isEmpty(), "not before the latency has passed");
        sim.runFor(1);
        assertEquals(List.of(new Received(13 * MS, a.self(), new Ping(1))), inbox);
        assertEquals(3 * MS, net.latencyNanos(1, 4));
        assertEquals(1, net.messagesSent());
        assertEquals(0, net.messagesDropped());
    }

    @Test
    void messagesBetweenTwoHostsArriveInOrder() {
        List<Received> inbox = new ArrayList<>();
        SimEnv a = host(0, new ArrayList<>());
        host(2, inbox);
        for (int i = 0; i < 5; i++) {
            a.send(NodeAddress.simulated(2), new Ping(i));
        }
        sim.runToQuiescence();
        assertEquals(List.of(new Ping(0), new Ping(1), new Ping(2), new Ping(3), new Ping(4)),
                inbox.stream().map(Received::message).toList());
    }

    @Test
    void aKilledHostReceivesNothingAndItsTimersNeverFire() {
        List<Received> inbox = new ArrayList<>();
        List<String> fired = new ArrayList<>();
        SimEnv a = host(0, new ArrayList<>());
        SimEnv b = host(5, inbox);
        b.schedule(Duration.ofMillis(1), () -> fired.add("timer"));
        b.execute(() -> fired.add("execute"));
        a.send(NodeAddress.simulated(5), new Ping(1)); // in flight when b dies
        net.kill(5);
        assertFalse(net.isAlive(5));
        assertFalse(b.isAlive());
        a.send(NodeAddress.simulated(5), new Ping(2));
        b.send(NodeAddress.simulated(0), new Ping(3)); // the dead do not speak either
        b.submit("verify", () -> "work", (r, f) -> fired.add("stage callback"));
        sim.runToQuiescence();
        assertTrue(inbox.isEmpty());
        assertTrue(fired.isEmpty(), fired::toString);
        assertEquals(2, net.messagesSent());
        assertEquals(2, net.messagesDropped());
    }

    @Test
    void messagesToNobodyOrToARealAddressAreDropped() {
        SimEnv a = host(0, new ArrayList<>());
        a.send(NodeAddress.simulated(99), new Ping(1));
        a.send(new NodeAddress("example.org", 80), new Ping(2));
        sim.runToQuiescence();
        assertEquals(2, net.messagesDropped());
        assertFalse(net.isAlive(99));
    }

    @Test
    void anObserverSeesEverySendWithItsVerticesEvenIfTheMessageIsThenLost() {
        List<String> seen = new ArrayList<>();
        net.observe((from, to, m) -> seen.add(from + ">" + to + ":" + m));
        SimEnv a = host(1, new ArrayList<>());
        host(4, new ArrayList<>());
        a.send(NodeAddress.simulated(4), new Ping(1));
        net.setLoss(1.0);
        a.send(NodeAddress.simulated(4), new Ping(2));
        a.send(new NodeAddress("example.org", 80), new Ping(3)); // not a simulated host: never sent
        sim.runToQuiescence();
        assertEquals(List.of("1>4:" + new Ping(1), "1>4:" + new Ping(2)), seen);
    }

    @Test
    void aVertexHostsOneLiveNodeButCanBeRestartedAfterAKill() {
        List<Received> inbox = new ArrayList<>();
        SimEnv a = host(0, new ArrayList<>());
        host(1, new ArrayList<>());
        assertThrows(IllegalStateException.class, () -> host(1, new ArrayList<>()));
        net.kill(1);
        host(1, inbox);
        a.send(NodeAddress.simulated(1), new Ping(1));
        sim.runToQuiescence();
        assertEquals(1, inbox.size(), "the new node receives");
    }

    @Test
    void timersAndExecuteRunOnVirtualTimeAndCanBeCancelled() {
        SimEnv a = host(0, new ArrayList<>());
        List<Long> at = new ArrayList<>();
        a.schedule(Duration.ofMillis(5), () -> at.add(a.nowNanos()));
        a.schedule(Duration.ofMillis(2), () -> at.add(a.nowNanos())).cancel();
        a.execute(() -> at.add(a.nowNanos()));
        sim.runToQuiescence();
        assertEquals(List.of(0L, 5 * MS), at);
    }

    @Test
    void stageWorkCompletesAfterTheModelledServiceTime() {
        SimEnv a = host(0, new ArrayList<>());
        net.setStageServiceTime("verify", 4 * MS);
        List<Object> results = new ArrayList<>();
        List<Long> at = new ArrayList<>();
        IOException boom = new IOException("bad signature");
        assertTrue(a.submit("verify", () -> 42, (r, f) -> {
            results.add(r);
            assertNull(f);
            at.add(a.nowNanos());
        }));
        assertTrue(a.submit("unmodelled", () -> {
            throw boom;
        }, (r, f) -> {
            assertNull(r);
            results.add(f);
            at.add(a.nowNanos());
        }));
        sim.runToQuiescence();
        assertEquals(List.of(boom, 42), results);
        assertEquals(List.of(0L, 4 * MS), at);
    }

    @Test
    void theSameSeedGivesEveryHostTheSameRandomStream() {
        assertEquals(hostDraws(11), hostDraws(11));
        assertNotEquals(hostDraws(11), hostDraws(12));
    }

    private static List<Long> hostDraws(long seed) {
        Simulation s = new Simulation(seed);
        SimNetwork n = new SimNetwork(s, LINE);
        List<Long> out = new ArrayList<>();
        for (int v = 0; v < 3; v++) {
            SimEnv env = n.start(Id.hash("n" + v), v, e -> (from, m) -> { });
            for (int i = 0; i < 4; i++) {
                out.add(env.random().nextLong());
            }
        }
        return out;
    }

    @Test
    void checkWireFormatDeliversADecodedCopy() {
        MessageCodec codec = new MessageCodec().register(1, Ping.class, (m, out) -> out.i64(m.n()), in -> new Ping(in.i64()));
        net.checkWireFormat(codec);
        List<Received> inbox = new ArrayList<>();
        SimEnv a = host(0, new ArrayList<>());
        host(1, inbox);
        Ping sent = new Ping(77);
        a.send(NodeAddress.simulated(1), sent);
        sim.runToQuiescence();
        assertEquals(sent, inbox.get(0).message());
        assertNotSame(sent, inbox.get(0).message(), "it travelled as bytes");
    }

    @Test
    void withoutAWireCheckTheObjectItselfIsDelivered() {
        List<Received> inbox = new ArrayList<>();
        SimEnv a = host(0, new ArrayList<>());
        host(1, inbox);
        Ping sent = new Ping(77);
        a.send(NodeAddress.simulated(1), sent);
        sim.runToQuiescence();
        assertSame(sent, inbox.get(0).message());
    }

    @Test
    void checkWireFormatCatchesMessagesThatDoNotSurviveTheirWireForm() {
        // The decoder reads less than the encoder wrote: a classic codec bug.
        MessageCodec lossy = new MessageCodec().register(1, Ping.class, (m, out) -> out.i64(m.n()).u8(0), in -> new Ping(in.i64()));
        net.checkWireFormat(lossy);
        SimEnv a = host(0, new ArrayList<>());
        host(1, new ArrayList<>());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> a.send(NodeAddress.simulated(1), new Ping(1)));
        assertInstanceOf(WireException.class, e.getCause());
        assertThrows(IllegalArgumentException.class, () -> a.send(NodeAddress.simulated(1), new Unregistered()),
                "a message the codec does not know cannot be sent at all");
    }
}
