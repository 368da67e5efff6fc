package io.riptide.dolr.membership;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.runtime.sim.SimNetwork;
import io.riptide.core.runtime.sim.Simulation;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.membership.MembershipMessages.LeafSetGossip;
import io.riptide.dolr.membership.MembershipMessages.Ping;
import io.riptide.dolr.membership.MembershipMessages.Pong;
import io.riptide.dolr.routing.LeafSet;
import io.riptide.dolr.routing.PeerTable;
import io.riptide.dolr.routing.RoutingTable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A node that gossips its leaf set to one that would not keep it (it knows a full side of nodes
 * nearer to the sender) has a wrong view, as a node whose join a false root answered has; the
 * receiver answers with the side of its leaf set that faces the sender (all nearer to the sender than
 * itself), at most once a heartbeat.
 */
class LeafSetCorrectionTest {
    private static final long MS = 1_000_000;

    private final Simulation sim = new Simulation(3);
    private final SimNetwork net = new SimNetwork(sim, (from, to) -> 5 * MS);
    private final Map<Id, List<LeafSetGossip>> gossipReceived = new HashMap<>();
    private final LeafSet leafSet = new LeafSet(id("80"), 4);
    private Membership membership;
    private int nextVertex = 1;

    private static Id id(String prefix) {
        return Id.fromHex(prefix + "0".repeat(40 - prefix.length()));
    }

    /** A host that answers pings and records the leaf sets it is sent. */
    private NodeHandle host(String prefix) {
        Id id = id(prefix);
        return net.start(id, nextVertex++, e -> (from, m) -> {
            if (m instanceof Ping ping) {
                e.send(from.address(), new Pong(ping.nonce()));
            } else if (m instanceof LeafSetGossip g) {
                gossipReceived.computeIfAbsent(id, k -> new ArrayList<>()).add(g);
            }
        }).self();
    }

    @BeforeEach
    void aNodeWithAFullLeafSet() {
        PeerTable peers = new PeerTable(100);
        net.start(leafSet.self(), 0, env -> {
            Prober prober = new Prober(env, peers, Duration.ofSeconds(1), 8, 64, () -> true);
            membership = new Membership(env, DolrConfig.defaults(), new RoutingTable(leafSet.self(), 3), leafSet, peers,
                    prober, null, new MembershipListener() { }, List::of);
            return (from, m) -> {
                if (m instanceof Pong pong) {
                    prober.onPong(from, pong);
                }
            };
        });
        for (String p : List.of("81", "82", "83", "84", "7f", "7e", "7d", "7c")) {
            leafSet.add(host(p));
        }
    }

    @Test
    void aSenderThatBelongsInNeitherSideIsToldTheLeafSetOnceAHeartbeat() {
        NodeHandle stranger = host("90"); // beyond 84: four nodes nearer on that side
        membership.onLeafSetGossip(stranger, new LeafSetGossip(List.of()));
        membership.onLeafSetGossip(stranger, new LeafSetGossip(List.of()));
        sim.runFor(100 * MS);

        List<LeafSetGossip> told = gossipReceived.get(stranger.id());
        assertEquals(1, told.size(), "one answer within a heartbeat");
        assertEquals(leafSet.right(), told.get(0).leafSet(), "the side of this node's leaf set that faces the sender: 81 to 84");
        assertEquals(1, membership.correctionsSent());

        sim.runFor(DolrConfig.defaults().heartbeatInterval().toNanos());
        membership.onLeafSetGossip(stranger, new LeafSetGossip(List.of()));
        sim.runFor(100 * MS);
        assertEquals(2, gossipReceived.get(stranger.id()).size(), "again a heartbeat later, while it still gossips here");
    }

    @Test
    void aMemberOrANodeThatBelongsInASideGetsNoCorrection() {
        NodeHandle member = leafSet.members().get(0);
        membership.onLeafSetGossip(member, new LeafSetGossip(List.of()));
        NodeHandle nearer = host("805"); // between 80 and 81: the leaf set takes it
        membership.onLeafSetGossip(nearer, new LeafSetGossip(List.of()));
        sim.runFor(100 * MS);

        assertEquals(null, gossipReceived.get(member.id()));
        assertEquals(null, gossipReceived.get(nearer.id()));
        assertEquals(0, membership.correctionsSent());
    }
}
