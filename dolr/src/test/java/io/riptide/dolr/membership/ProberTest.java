package io.riptide.dolr.membership;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.runtime.sim.SimEnv;
import io.riptide.core.runtime.sim.SimNetwork;
import io.riptide.core.runtime.sim.Simulation;
import io.riptide.dolr.membership.MembershipMessages.Ping;
import io.riptide.dolr.membership.MembershipMessages.Pong;
import io.riptide.dolr.routing.PeerTable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** RTT probes in the simulated runtime: measurement, timeouts, shared answers and the queue bound. */
class ProberTest {
    private static final long MS = 1_000_000;
    private static final long LATENCY = 5 * MS;
    private static final Duration TIMEOUT = Duration.ofMillis(100);
    private static final int PROBER_VERTEX = 0;

    private final Simulation sim = new Simulation(42);
    private final SimNetwork net = new SimNetwork(sim, (from, to) -> from == to ? 0 : LATENCY);
    private final PeerTable peers = new PeerTable(100);
    // Pings each responder received, by vertex.
    private final Map<Integer, Integer> pingsReceived = new HashMap<>();
    private Prober prober;

    // Peers whose answers came after their probe had given up.
    private final List<NodeHandle> lateAnswers = new ArrayList<>();

    private Prober start(int maxInFlight, int maxQueue) {
        net.start(Id.hash("prober"), PROBER_VERTEX, env -> {
            prober = new Prober(env, peers, TIMEOUT, maxInFlight, maxQueue, () -> true, lateAnswers::add);
            return (from, m) -> {
                if (m instanceof Pong pong) {
                    prober.onPong(from, pong);
                }
            };
        });
        return prober;
    }

    /** A host that answers every ping with a pong. */
    private NodeHandle responder(int vertex) {
        SimEnv env = net.start(Id.hash("responder-" + vertex), vertex, e -> (from, m) -> {
            if (m instanceof Ping ping) {
                pingsReceived.merge(vertex, 1, Integer::sum);
                e.send(from.address(), new Pong(ping.nonce()));
            }
        });
        return env.self();
    }

    /** A host that answers every ping after {@code delay}, as a peer behind a queued uplink would. */
    private NodeHandle slowResponder(int vertex, Duration delay) {
        SimEnv env = net.start(Id.hash("responder-" + vertex), vertex, e -> (from, m) -> {
            if (m instanceof Ping ping) {
                e.schedule(delay, () -> e.send(from.address(), new Pong(ping.nonce())));
            }
        });
        return env.self();
    }

    @Test
    void aHandleIsProvedOnlyByAnAnswerFromItsIdAtItsAddress() {
        Prober p = start(4, 4);
        // A node at vertex 2 gossips its own ID under vertex 1's address, then answers the ping it
        // guesses was sent there itself, over its own link: the same ID, another address.
        NodeHandle honest = responder(1);
        SimEnv liar = net.start(Id.hash("liar"), 2, e -> (from, m) -> { });
        NodeHandle claimed = new NodeHandle(liar.self().id(), honest.address());
        List<Long> results = new ArrayList<>();
        p.probe(claimed, results::add);
        sim.runFor(MS);
        liar.send(NodeAddress.simulated(PROBER_VERTEX), new Pong(1));
        sim.runFor(TIMEOUT.toNanos() * 2);

        assertEquals(List.of(-1L), results, "neither the honest node's answer (another ID) nor the liar's (another address) counts");
        assertEquals(2, p.answersRefused());
    }

    @Test
    void measuresTheRoundTripAsTwiceTheOneWayLatency() {
        Prober p = start(4, 4);
        NodeHandle target = responder(1);
        List<Long> results = new ArrayList<>();

        p.probe(target, results::add);
        assertTrue(p.isProbing(target.id()));
        sim.runToQuiescence();

        assertEquals(List.of(2 * LATENCY), results);
        assertEquals(2 * LATENCY, peers.rtt(target.id()), "the sample reaches the peer table");
        assertFalse(p.isProbing(target.id()));
        assertEquals(1, p.probesSent());
    }

    @Test
    void aDeadTargetReportsMinusOneOnceTheTimeoutPasses() {
        Prober p = start(4, 4);
        NodeHandle target = responder(1);
        net.kill(1);
        List<Long> results = new ArrayList<>();

        p.probe(target, results::add);
        sim.runFor(TIMEOUT.toNanos() - 1);
        assertEquals(List.of(), results, "still waiting just before the timeout");
        sim.runFor(1);

        assertEquals(List.of(-1L), results);
        assertEquals(-1, peers.rtt(target.id()), "no sample recorded");
        assertFalse(p.isProbing(target.id()));
    }

    @Test
    void twoRequestsForOneTargetShareOnePing() {
        Prober p = start(4, 4);
        NodeHandle target = responder(1);
        List<Long> first = new ArrayList<>();
        List<Long> second = new ArrayList<>();

        p.probe(target, first::add);
        p.probe(target, second::add);
        sim.runToQuiescence();

        assertEquals(List.of(2 * LATENCY), first);
        assertEquals(List.of(2 * LATENCY), second);
        assertEquals(1, p.probesSent());
        assertEquals(Map.of(1, 1), pingsReceived);
    }

    @Test
    void pastTheInFlightAndQueueBoundsNewTargetsAreDroppedAndCounted() {
        Prober p = start(1, 1);
        NodeHandle sent = responder(1);
        NodeHandle queued = responder(2);
        NodeHandle dropped = responder(3);
        List<String> results = new ArrayList<>();

        p.probe(sent, rtt -> results.add("sent " + rtt));
        p.probe(queued, rtt -> results.add("queued " + rtt));
        p.probe(dropped, rtt -> results.add("dropped " + rtt));
        p.probe(queued, rtt -> results.add("queued again " + rtt)); // joins the queued probe: not dropped

        assertEquals(1, p.probesDropped());
        assertFalse(p.isProbing(dropped.id()));
        sim.runToQuiescence();

        // The queued probe goes out when the first answer frees the slot, so it answers a round trip later.
        assertEquals(List.of("sent " + 2 * LATENCY, "queued " + 2 * LATENCY, "queued again " + 2 * LATENCY), results);
        assertEquals(2, p.probesSent());
        assertEquals(Map.of(1, 1, 2, 1), pingsReceived);
        assertEquals(1, p.probesDropped());
    }

    @Test
    void aPongFromAnotherNodeWithTheRightNonceIsIgnored() {
        Prober p = start(4, 4);
        NodeHandle target = responder(1);
        net.kill(1);
        List<Long> results = new ArrayList<>();

        p.probe(target, results::add);
        // The first nonce a fresh prober uses is 1; a bystander claims it.
        p.onPong(new NodeHandle(Id.hash("bystander"), NodeAddress.simulated(9)), new Pong(1));
        assertEquals(List.of(), results);
        sim.runToQuiescence();

        assertEquals(List.of(-1L), results);
    }

    @Test
    void anAnswerAfterTheTimeoutIsStillASampleAndProofOfLife() {
        Prober p = start(4, 4);
        NodeHandle target = slowResponder(1, TIMEOUT.multipliedBy(3));
        List<Long> results = new ArrayList<>();

        p.probe(target, results::add);
        sim.runFor(TIMEOUT.toNanos());
        assertEquals(List.of(-1L), results, "the probe gave up");
        peers.markDead(target, sim.now() + Duration.ofMinutes(1).toNanos());
        sim.runToQuiescence();

        assertEquals(List.of(target), lateAnswers);
        assertEquals(1, p.lateAnswers());
        assertEquals(TIMEOUT.multipliedBy(3).toNanos() + 2 * LATENCY, peers.rtt(target.id()));
        assertFalse(peers.isDead(target.id(), sim.now()), "the answer proves it lives");
    }

    @Test
    void slowRecentRoundTripsStretchTheTimeoutUpToALimit() {
        Prober p = start(4, 4);
        NodeHandle target = responder(1);
        NodeHandle far = responder(2);
        assertEquals(TIMEOUT, p.timeoutFor(target), "nothing slow seen yet");

        peers.rttSample(far, TIMEOUT.multipliedBy(2).toNanos(), sim.now());
        assertEquals(TIMEOUT.multipliedBy(4), p.timeoutFor(target), "twice the slowest recent round trip");

        peers.rttSample(far, TIMEOUT.multipliedBy(100).toNanos(), sim.now());
        assertEquals(TIMEOUT.multipliedBy(Prober.MAX_STRETCH), p.timeoutFor(target), "but never past the limit");

        sim.runFor(Duration.ofMinutes(10).toNanos());
        assertEquals(TIMEOUT, p.timeoutFor(target), "slow samples are forgotten");
    }

    @Test
    void aProbeSentWhileRoundTripsAreSlowWaitsForTheSlowAnswer() {
        Prober p = start(4, 4);
        NodeHandle target = slowResponder(1, TIMEOUT.multipliedBy(2));
        peers.rttSample(responder(2), TIMEOUT.multipliedBy(2).toNanos(), sim.now());
        List<Long> results = new ArrayList<>();

        p.probe(target, results::add);
        sim.runToQuiescence();

        assertEquals(List.of(TIMEOUT.multipliedBy(2).toNanos() + 2 * LATENCY), results);
        assertEquals(0, p.lateAnswers());
    }
}
