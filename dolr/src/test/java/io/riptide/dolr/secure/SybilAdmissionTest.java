package io.riptide.dolr.secure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.runtime.sim.Simulation;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.OverlayApplication;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.membership.MembershipMessages.JoinRequest;
import io.riptide.dolr.simulation.GroupLatency;
import io.riptide.dolr.simulation.SimulatedOverlay;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * An attacker with one address prefix starts many nodes whose IDs it chose just past a victim's
 * (keys are free), to take the victim's leaf set and so every key the victim is root of. In the
 * simulated runtime a host's address is its vertex read as an IPv4 address; here the 30 honest hosts
 * are each in their own /24 (vertices 256 apart) and the 12 hostile ones share one (vertices
 * 0x20000 to 0x2000b), and nodes count sources by /24.
 */
class SybilAdmissionTest {
    private static final int HONEST = 30;
    private static final int SYBILS = 12;
    private static final int HOSTILE_BASE = 0x20000;

    /** What the victim ended with. */
    private record Outcome(int hostileInState, int hostileInRightSide, int leafSetSize, long refused, int joined) {
    }

    private static Outcome attack(int idsPerSource) {
        DolrConfig config = DolrConfig.defaults()
                .withSourceLimits(SourceLimits.defaults().withIdsPerSource(idsPerSource).withPrefixes(24, 64));
        Simulation sim = new Simulation(11);
        GroupLatency latency = new GroupLatency(3);
        SimulatedOverlay overlay = new SimulatedOverlay(sim, latency, config, latency::groupOf);
        List<Integer> honest = new ArrayList<>();
        for (int k = 0; k < HONEST; k++) {
            honest.add(256 * k);
        }
        overlay.addAll(honest, Duration.ofMillis(50), Duration.ofSeconds(60), () -> { });
        sim.runFor(Duration.ofSeconds(20).toNanos());
        OverlayNode victim = overlay.node(0);
        BigInteger at = new BigInteger(1, victim.self().id().toBytes());
        for (int i = 0; i < SYBILS; i++) {
            byte[] bytes = at.add(BigInteger.valueOf(i + 1)).toByteArray();
            byte[] id = new byte[Id.BYTES];
            int n = Math.min(bytes.length, Id.BYTES);
            System.arraycopy(bytes, bytes.length - n, id, Id.BYTES - n, n);
            overlay.add(HOSTILE_BASE + i, Id.fromBytes(id), node -> OverlayApplication.NONE);
            sim.runFor(Duration.ofMillis(50).toNanos());
        }
        sim.runFor(Duration.ofSeconds(40).toNanos());
        Set<Id> hostile = new HashSet<>();
        List<NodeHandle> state = new ArrayList<>(victim.routingTable().all());
        state.addAll(victim.leafSet().members());
        for (NodeHandle h : state) {
            if (h.address().port() >= HOSTILE_BASE) {
                hostile.add(h.id());
            }
        }
        int inRight = (int) victim.leafSet().right().stream().filter(h -> h.address().port() >= HOSTILE_BASE).count();
        int joined = 0;
        for (int v : honest) {
            joined += overlay.node(v).isJoined() ? 1 : 0;
        }
        return new Outcome(hostile.size(), inRight, victim.leafSet().size(), victim.refusedOverSourceLimit(), joined);
    }

    @Test
    void oneSourceKeepsAtMostItsLimitOfPlacesInTheVictimsRoutingState() {
        Outcome capped = attack(2);
        assertTrue(capped.hostileInState() <= 2, "hostile IDs in the victim's routing state: " + capped);
        assertTrue(capped.refused() > 0, "refusals are counted: " + capped);
        // The honest nodes fill the rest of the leaf set, and all of them joined.
        assertEquals(16, capped.leafSetSize(), capped.toString());
        assertEquals(HONEST, capped.joined(), capped.toString());
    }

    @Test
    void withoutTheLimitTheSameAttackTakesTheVictimsLeafSetSide() {
        Outcome open = attack(64);
        assertEquals(8, open.hostileInRightSide(), "the control: the attack works when the limit is out of reach; " + open);
        assertEquals(0, open.refused(), open.toString());
    }

    /**
     * Joins are routed by the node a joiner asks, and every node on the path answers with table rows:
     * one source asking for many joins spends others' uplinks. The entry node starts at most
     * {@code joinsPerSource} a minute for one source (its ID limit times the retries one joiner makes
     * at the join timeout), leaves the rest unanswered and counts them; other sources are not held up,
     * and a minute later the source may join again.
     */
    @Test
    void oneSourceStartsAtMostItsShareOfJoinsAMinuteThroughOneNode() {
        DolrConfig config = DolrConfig.defaults()
                .withSourceLimits(SourceLimits.defaults().withIdsPerSource(1).withPrefixes(24, 64));
        Simulation sim = new Simulation(12);
        GroupLatency latency = new GroupLatency(3);
        SimulatedOverlay overlay = new SimulatedOverlay(sim, latency, config, latency::groupOf);
        List<Integer> honest = new ArrayList<>();
        for (int k = 0; k < 10; k++) {
            honest.add(256 * k);
        }
        overlay.addAll(honest, Duration.ofMillis(50), Duration.ofSeconds(60), () -> { });
        sim.runFor(Duration.ofSeconds(10).toNanos());
        OverlayNode entry = overlay.node(0);
        int perMinute = (int) (Duration.ofMinutes(1).toNanos() / config.joinTimeout().toNanos()); // 1 ID, 12 tries
        for (int i = 0; i < 30; i++) {
            NodeHandle sybil = new NodeHandle(Id.hash("sybil " + i), NodeAddress.simulated(HOSTILE_BASE + i));
            entry.onMessage(sybil, new JoinRequest(sybil));
        }
        assertEquals(30 - perMinute, entry.joinsRefused(), "joins over the source's share a minute");
        NodeHandle other = new NodeHandle(Id.hash("another source"), NodeAddress.simulated(256 * 40));
        entry.onMessage(other, new JoinRequest(other));
        assertEquals(30 - perMinute, entry.joinsRefused(), "another source is not held up");

        sim.runFor(Duration.ofSeconds(61).toNanos());
        NodeHandle later = new NodeHandle(Id.hash("sybil later"), NodeAddress.simulated(HOSTILE_BASE + 40));
        entry.onMessage(later, new JoinRequest(later));
        assertEquals(30 - perMinute, entry.joinsRefused(), "a minute later the source may join again");
    }
}
