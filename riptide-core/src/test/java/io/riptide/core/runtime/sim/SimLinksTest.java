package io.riptide.core.runtime.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.wire.Frames;
import io.riptide.core.wire.MessageCodec;
import io.riptide.core.wire.WireMessage;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The network model's queueing, loss and partitions, against hand-computed cases. */
class SimLinksTest {
    private static final long MS = 1_000_000;
    /** One millisecond per vertex of distance. */
    private static final LatencyModel LINE = (from, to) -> Math.abs(from - to) * MS;
    private static final long SLOW_LINK = 1_500_000; // the paper's stub-to-transit link, in bits per second

    record Blob(byte[] data) implements WireMessage {
    }

    /** Vertices below 3 are one stub, the rest another; between them a 1.5 Mb/s uplink each way (links 0 and 1). */
    private static final LinkModel TWO_STUBS = new LinkModel() {
        @Override
        public int linkCount() {
            return 2;
        }

        @Override
        public long bitsPerSecond(int link) {
            return SLOW_LINK;
        }

        @Override
        public int path(int from, int to, int[] out) {
            if ((from < 3) == (to < 3)) {
                return 0;
            }
            out[0] = from < 3 ? 0 : 1;
            return 1;
        }

        @Override
        public int maxPathLength() {
            return 1;
        }
    };

    private final MessageCodec codec = new MessageCodec().register(1, Blob.class, (m, out) -> out.bytes(m.data()),
            in -> new Blob(in.bytes(1 << 20)));
    private final Simulation sim = new Simulation(3);
    private final SimNetwork net = new SimNetwork(sim, LINE);

    private SimEnv host(int vertex, List<Long> arrivals) {
        return net.start(Id.hash("node" + vertex), vertex, env -> (from, m) -> arrivals.add(env.nowNanos()));
    }

    private long frameBytes(WireMessage m) {
        ByteBuf frame = Frames.encode(codec, m, UnpooledByteBufAllocator.DEFAULT);
        try {
            return frame.readableBytes();
        } finally {
            frame.release();
        }
    }

    private static long transmit(long bytes, long bps) {
        return bytes * 8 * 1_000_000_000L / bps;
    }

    @Test
    void aMessageAcrossASaturatedSlowLinkWaitsItsTurn() {
        net.setLinks(TWO_STUBS, codec);
        List<Long> arrivals = new ArrayList<>();
        List<Long> back = new ArrayList<>();
        SimEnv a = host(1, back);
        SimEnv b = host(4, arrivals);
        Blob blob = new Blob(new byte[18_000]);
        long tx = transmit(frameBytes(blob), SLOW_LINK); // about 96 ms per message on 1.5 Mb/s
        a.send(NodeAddress.simulated(4), blob);
        a.send(NodeAddress.simulated(4), blob);
        b.send(NodeAddress.simulated(1), blob); // the other direction has its own queue
        sim.runToQuiescence();
        assertEquals(List.of(tx + 3 * MS, 2 * tx + 3 * MS), arrivals, "the second waits for the first to cross");
        assertEquals(List.of(tx + 3 * MS), back);
        assertEquals(2 * frameBytes(blob), net.linkBytes(0));
        assertEquals(tx + 2 * tx + tx, net.queueingNanos(), "each message: its wait plus its own crossing");
        assertEquals(2 * tx, net.maxQueueingNanos());
    }

    @Test
    void aFullLinkBufferDropsWhatWouldWaitLongerAndTakesMessagesAgainOnceItDrains() {
        net.setLinks(TWO_STUBS, codec);
        net.setLinkBuffer(java.time.Duration.ofMillis(500));
        List<Long> arrivals = new ArrayList<>();
        SimEnv a = host(1, new ArrayList<>());
        host(4, arrivals);
        Blob blob = new Blob(new byte[18_000]);
        long tx = transmit(frameBytes(blob), SLOW_LINK);
        int burst = 20;
        for (int i = 0; i < burst; i++) {
            a.send(NodeAddress.simulated(4), blob);
        }
        // The k-th message of the burst would wait k transmissions: those waiting at most 500 ms get in.
        int fit = (int) (500 * MS / tx) + 1;
        assertEquals(burst - fit, net.messagesOverflowed());
        assertEquals(burst - fit, net.messagesDropped());
        sim.runToQuiescence();
        assertEquals(fit, arrivals.size());
        assertEquals(fit * tx + 3 * MS, arrivals.get(fit - 1), "those let in still wait their turn");

        a.send(NodeAddress.simulated(4), blob);
        sim.runToQuiescence();
        assertEquals(fit + 1, arrivals.size(), "a drained link takes messages again");
        assertEquals(burst - fit, net.messagesOverflowed());
    }

    @Test
    void aSmallMessageSharesTheLinkWithABigOneFromAnotherHostInsteadOfWaitingBehindIt() {
        net.setLinks(TWO_STUBS, codec);
        List<Long> arrivals = new ArrayList<>();
        SimEnv a = host(1, new ArrayList<>());
        SimEnv c = host(2, new ArrayList<>());
        host(4, arrivals);
        Blob big = new Blob(new byte[900_000]); // about 4.8 s on 1.5 Mb/s: longer than the buffer
        Blob small = new Blob(new byte[100]);
        long bigTx = transmit(frameBytes(big), SLOW_LINK);
        long smallTx = transmit(frameBytes(small), SLOW_LINK);
        a.send(NodeAddress.simulated(4), big);
        sim.runFor(1000 * MS);
        c.send(NodeAddress.simulated(4), small); // a heartbeat from another host in the stub
        a.send(NodeAddress.simulated(4), small); // behind the body on its own connection: 3.8 s to wait
        sim.runToQuiescence();
        assertEquals(1, net.messagesOverflowed(), "a connection's queue is bounded by the buffer; its body is not");
        assertEquals(2, arrivals.size());
        // The heartbeat gets half the link while it crosses: twice its own time (within rounding).
        long heartbeat = arrivals.get(0) - 1000 * MS - 2 * MS;
        assertTrue(Math.abs(heartbeat - 2 * smallTx) <= 2, "heartbeat took " + heartbeat + " ns for " + smallTx);
        // The body lost the heartbeat's share of the link and no more.
        assertTrue(Math.abs(arrivals.get(1) - (bigTx + smallTx + 3 * MS)) <= 2, "body at " + arrivals.get(1));
    }

    @Test
    void messagesWithinAStubDoNotQueue() {
        net.setLinks(TWO_STUBS, codec);
        List<Long> arrivals = new ArrayList<>();
        SimEnv a = host(0, new ArrayList<>());
        host(2, arrivals);
        a.send(NodeAddress.simulated(2), new Blob(new byte[100_000]));
        a.send(NodeAddress.simulated(2), new Blob(new byte[100_000]));
        sim.runToQuiescence();
        assertEquals(List.of(2 * MS, 2 * MS), arrivals);
    }

    @Test
    void anAccessLinkQueuesEverythingSentToItsHost() {
        net.setLinks(TWO_STUBS, codec);
        long tenMbit = 10_000_000;
        net.setAccessLink(2, tenMbit);
        List<Long> arrivals = new ArrayList<>();
        SimEnv a = host(0, new ArrayList<>());
        SimEnv c = host(1, new ArrayList<>());
        host(2, arrivals);
        Blob blob = new Blob(new byte[16_000]);
        long tx = transmit(frameBytes(blob), tenMbit);
        a.send(NodeAddress.simulated(2), blob);
        c.send(NodeAddress.simulated(2), blob); // another sender, the same line into the origin
        sim.runToQuiescence();
        // The two senders share the line, half its rate each, so both are through after two
        // transmissions' time; then 0's travels 2 ms and 1's 1 ms.
        assertEquals(List.of(2 * tx + MS, 2 * tx + 2 * MS), arrivals.stream().sorted().toList());
        assertEquals(2 * frameBytes(blob), net.accessLinkBytes(2));
    }

    @Test
    void aPartitionDropsMessagesAcrossItIncludingThoseInFlightAndHealing() {
        List<Long> far = new ArrayList<>();
        List<Long> near = new ArrayList<>();
        SimEnv a = host(1, new ArrayList<>());
        host(2, near);
        host(9, far);
        a.send(NodeAddress.simulated(9), new Blob(new byte[1])); // 8 ms on its way
        sim.runFor(4 * MS);
        net.partition(v -> v < 3);
        a.send(NodeAddress.simulated(9), new Blob(new byte[1]));
        a.send(NodeAddress.simulated(2), new Blob(new byte[1]));
        sim.runFor(20 * MS);
        assertTrue(far.isEmpty(), "nothing crosses the partition, not even what was in flight");
        assertEquals(1, near.size(), "each side still talks within itself");
        assertEquals(2, net.messagesLost());
        net.heal();
        a.send(NodeAddress.simulated(9), new Blob(new byte[1]));
        sim.runFor(20 * MS);
        assertEquals(1, far.size(), "healed");
    }

    @Test
    void lossDropsTheGivenShareDeterministically() {
        List<Long> arrivals = new ArrayList<>();
        SimEnv a = host(1, new ArrayList<>());
        host(2, arrivals);
        net.setLoss(0.25);
        for (int i = 0; i < 4000; i++) {
            a.send(NodeAddress.simulated(2), new Blob(new byte[1]));
        }
        sim.runToQuiescence();
        assertEquals(4000 - net.messagesLost(), arrivals.size());
        assertTrue(Math.abs(net.messagesLost() - 1000) < 100, "about a quarter lost: " + net.messagesLost());
        assertThrows(IllegalArgumentException.class, () -> net.setLoss(1.5));
    }
}
