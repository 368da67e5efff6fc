package io.riptide.dolr.membership;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.runtime.sim.SimNetwork;
import io.riptide.core.runtime.sim.Simulation;
import io.riptide.core.wire.MessageCodec;
import io.riptide.core.wire.WireException;
import io.riptide.dolr.DolrCodec;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.membership.MembershipMessages.Ping;
import io.riptide.dolr.membership.MembershipMessages.Pong;
import io.riptide.dolr.membership.MembershipMessages.RowReply;
import io.riptide.dolr.routing.LeafSet;
import io.riptide.dolr.routing.PeerTable;
import io.riptide.dolr.routing.RoutingTable;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Proximity maintenance's answers: the sender's RTTs travel with the entries, and the asker probes
 * only entries that could change its table, bounding the unmeasured ones by the triangle inequality.
 */
class RowReplyTest {
    private static final long MS = 1_000_000;

    private final MessageCodec codec = DolrCodec.create();
    private final Simulation sim = new Simulation(7);
    // Hosts on a line: the one-way latency is the distance between their positions, in ms.
    private final Map<Integer, Long> position = new HashMap<>();
    private final SimNetwork net = new SimNetwork(sim, (from, to) -> Math.abs(position.get(from) - position.get(to)) * MS);
    private final Map<Id, Integer> pingsReceived = new HashMap<>();
    private int nextVertex;

    private static Id id(String prefix) {
        return Id.fromHex(prefix + "0".repeat(40 - prefix.length()));
    }

    /** A host at {@code positionMs} that answers pings. */
    private NodeHandle host(String prefix, long positionMs) {
        int vertex = nextVertex++;
        position.put(vertex, positionMs);
        Id id = id(prefix);
        return net.start(id, vertex, e -> (from, m) -> {
            if (m instanceof Ping ping) {
                pingsReceived.merge(id, 1, Integer::sum);
                e.send(from.address(), new Pong(ping.nonce()));
            }
        }).self();
    }

    @Test
    void entriesAndTheirRttsRoundTripAndAMismatchIsRefused() throws WireException {
        List<NodeHandle> entries = List.of(new NodeHandle(id("3a"), NodeAddress.simulated(1)), new NodeHandle(id("5b"), NodeAddress.simulated(2)));
        RowReply reply = new RowReply(0, entries, List.of(12_000, -1));
        ByteBuf buf = Unpooled.buffer();
        try {
            codec.encodeBody(reply, buf);
            RowReply back = (RowReply) codec.decodeBody(buf);
            assertEquals(reply, back);
            assertEquals(12 * MS, back.rttNanos(0));
            assertEquals(-1, back.rttNanos(1), "not measured by the sender");
        } finally {
            buf.release();
        }
        assertThrows(IllegalArgumentException.class, () -> new RowReply(0, entries, List.of(5)));
    }

    @Test
    void anEntryThatCannotBeatItsSlotIsNotProbed() {
        Id self = id("80");
        RoutingTable table = new RoutingTable(self, 3);
        LeafSet leafSet = new LeafSet(self, 4);
        PeerTable peers = new PeerTable(100);
        Membership[] membership = new Membership[1];
        position.put(0, 0L);
        nextVertex = 1;
        net.start(self, 0, env -> {
            Prober prober = new Prober(env, peers, java.time.Duration.ofSeconds(1), 8, 64, () -> true);
            membership[0] = new Membership(env, DolrConfig.defaults(), table, leafSet, peers, prober, null,
                    new MembershipListener() { }, List::of);
            return (from, m) -> {
                if (m instanceof Pong pong) {
                    prober.onPong(from, pong);
                }
            };
        });
        // A full leaf set of IDs next to this node's, so none of the entries below belongs in it.
        for (String p : List.of("81", "82", "83", "84", "7f", "7e", "7d", "7c")) {
            leafSet.add(host(p, 1));
        }
        // Slot (0, 3) holds three candidates within 6 ms.
        table.offer(host("3a", 1), 2 * MS);
        table.offer(host("3b", 2), 4 * MS);
        table.offer(host("3c", 3), 6 * MS);
        NodeHandle sender = host("c0", 50);
        peers.rttSample(sender, 100 * MS, sim.now());

        NodeHandle farForItsSlot = host("3d", 55); // 10 ms from the sender, so at least 90 ms from here
        NodeHandle emptySlot = host("5a", 60);
        NodeHandle unmeasuredBySender = host("3e", 45);
        NodeHandle nearDespiteTheSender = host("3f", 1); // 98 ms from the sender: could be 2 ms from here
        membership[0].onRowReply(sender, new RowReply(0,
                List.of(farForItsSlot, emptySlot, unmeasuredBySender, nearDespiteTheSender),
                List.of(10_000, 20_000, -1, 98_000)));
        sim.runFor(2_000 * MS);

        assertEquals(null, pingsReceived.get(farForItsSlot.id()), "could not beat the slot's 6 ms");
        assertEquals(1, pingsReceived.get(emptySlot.id()));
        assertEquals(1, pingsReceived.get(unmeasuredBySender.id()));
        assertEquals(1, pingsReceived.get(nearDespiteTheSender.id()));
        assertEquals(1, membership[0].candidatesSkipped());
        assertTrue(table.slot(0, 3).stream().anyMatch(h -> h.id().equals(nearDespiteTheSender.id())),
                "the near one probed and kept: " + table.slot(0, 3));
    }

    @Test
    void theTriangleBoundIsTheDifferenceOfTheTwoLegs() {
        assertEquals(90, Membership.triangleLowerBound(100, 10));
        assertEquals(90, Membership.triangleLowerBound(10, 100));
        assertEquals(-1, Membership.triangleLowerBound(-1, 10), "unknown leg: no bound");
        assertEquals(-1, Membership.triangleLowerBound(10, -1));
    }
}
