package io.riptide.dolr.simulation;

import static io.riptide.dolr.simulation.OverlayFixture.locate;
import static io.riptide.dolr.simulation.OverlayFixture.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.wire.WireMessage;
import io.riptide.dolr.location.LocationMessages.ReplicaList;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.OverlayApplication;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.location.LocateResult;
import io.riptide.dolr.location.LocationMessages.FailureReason;
import io.riptide.dolr.location.LocationMessages.WhereIs;
import io.riptide.dolr.placement.PlaceResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The overlay's protocols end to end in the simulated runtime: exact, with fixed seeds. */
class OverlayProtocolTest {
    private static final int NODES = 200;
    private static final int GROUPS = 8;

    private static Id randomId(SplittableRandom r) {
        byte[] b = new byte[Id.BYTES];
        r.nextBytes(b);
        return Id.fromBytes(b);
    }

    @Test
    void everyNodeJoinsAndEveryLeafSetIsExact() {
        SimulatedOverlay overlay = OverlayFixture.settled(1, NODES, GROUPS);
        for (int v : overlay.liveVertices()) {
            OverlayNode node = overlay.node(v);
            assertTrue(node.isJoined(), "node " + v + " joined");
            List<Id> truth = overlay.trueLeafSet(node.self().id(), node.config().leafSetHalf());
            assertEquals(truth.size(), node.leafSet().size(), "leaf set size of " + v);
            for (Id id : truth) {
                assertTrue(node.leafSet().contains(id), "node " + v + " has leaf " + id.shortHex());
            }
        }
    }

    @Test
    void routedMessagesReachTheTrueRootInAboutLog16NHops() {
        Map<Long, Integer> deliveredAt = new HashMap<>();
        Map<Long, Integer> hopsTaken = new HashMap<>();
        SimulatedOverlay overlay = OverlayFixture.settled(2, NODES, GROUPS, DolrConfig.defaults(), v -> new OverlayApplication() {
            @Override
            public void deliver(Id key, WireMessage payload, NodeHandle origin, int hops) {
                long id = key.hi();
                deliveredAt.put(id, v);
                hopsTaken.put(id, hops);
            }
        });
        SplittableRandom r = new SplittableRandom(7);
        List<Integer> live = overlay.liveVertices();
        Map<Long, Integer> expected = new HashMap<>();
        for (int i = 0; i < 300; i++) {
            Id key = randomId(r);
            expected.put(key.hi(), overlay.trueRoot(key));
            overlay.node(live.get(r.nextInt(live.size()))).route(key, new WhereIs());
        }
        run(overlay, Duration.ofSeconds(5));
        assertEquals(expected, deliveredAt);
        double meanHops = hopsTaken.values().stream().mapToInt(Integer::intValue).average().orElseThrow();
        assertTrue(meanHops <= Math.log(NODES) / Math.log(16) + 0.5, "mean hops " + meanHops);
    }

    @Test
    void publishedObjectsAreLocatedFromEveryWhereAndTheReplicaAnswers() {
        SimulatedOverlay overlay = OverlayFixture.settled(3, NODES, GROUPS);
        SplittableRandom r = new SplittableRandom(3);
        List<Integer> live = overlay.liveVertices();
        Map<Id, Integer> holders = new HashMap<>();
        for (int i = 0; i < 40; i++) {
            Id guid = Id.hash("object-" + i);
            int holder = live.get(r.nextInt(live.size()));
            holders.put(guid, holder);
            assertTrue(overlay.node(holder).storeReplica(guid, new byte[] {1}));
        }
        run(overlay, Duration.ofSeconds(25));
        List<LocateResult> results = new ArrayList<>();
        for (Map.Entry<Id, Integer> e : holders.entrySet()) {
            for (int k = 0; k < 10; k++) {
                overlay.node(live.get(r.nextInt(live.size()))).locate(e.getKey(), 16, k % 2 == 0, results::add);
            }
        }
        run(overlay, Duration.ofSeconds(5));
        assertEquals(400, results.size());
        for (LocateResult result : results) {
            assertTrue(result.found(), "located " + result);
            assertEquals((int) holders.get(result.guid()), result.replica().address().port());
        }
    }

    @Test
    void aLocateForAnUnpublishedObjectFailsFastAtTheRoot() {
        SimulatedOverlay overlay = OverlayFixture.settled(4, NODES, GROUPS);
        LocateResult result = locate(overlay, 5, Id.hash("nobody has this"), 16, true);
        assertNotNull(result);
        assertEquals(FailureReason.NOT_FOUND, result.failure());
        assertTrue(result.elapsedNanos() < Duration.ofMillis(500).toNanos(), "failed in " + result.elapsedNanos() / 1e6 + " ms");
    }

    @Test
    void aSpentHopBudgetFailsFastInsteadOfWaitingForTheDeadline() {
        SimulatedOverlay overlay = OverlayFixture.settled(5, NODES, GROUPS);
        Id guid = Id.hash("far away");
        int holder = overlay.trueRoot(guid);
        overlay.node(holder).storeReplica(guid, new byte[] {1});
        run(overlay, Duration.ofSeconds(5));
        int requester = -1;
        for (int v : overlay.liveVertices()) {
            if (overlay.node(v).nextHop(guid) != null && overlay.node(v).nextHop(guid).address().port() != holder
                    && overlay.node(v).pointers().lookup(guid, overlay.simulation().now()).isEmpty()
                    && v % GROUPS != holder % GROUPS) {
                requester = v;
                break;
            }
        }
        assertTrue(requester >= 0);
        LocateResult result = locate(overlay, requester, guid, 1, false);
        assertEquals(FailureReason.TTL_EXPIRED, result.failure());
        assertTrue(result.elapsedNanos() < overlay.node(requester).config().locateDeadline().toNanos() / 4);
        assertTrue(locate(overlay, requester, guid, 16, false).found());
    }

    @Test
    void unpublishingWithdrawsThePointers() {
        SimulatedOverlay overlay = OverlayFixture.settled(6, NODES, GROUPS);
        Id guid = Id.hash("short-lived");
        overlay.node(10).storeReplica(guid, new byte[] {1});
        run(overlay, Duration.ofSeconds(2));
        assertTrue(locate(overlay, 77, guid, 16, false).found());
        overlay.node(10).dropReplica(guid);
        run(overlay, Duration.ofSeconds(2));
        LocateResult after = locate(overlay, 77, guid, 16, false);
        assertFalse(after.found());
        assertEquals(FailureReason.NOT_FOUND, after.failure());
    }

    @Test
    void bloomFiltersFindAReplicaInTheRequestersGroupInAHopOrTwo() {
        SimulatedOverlay overlay = OverlayFixture.settled(7, NODES, GROUPS);
        int holder = 16; // group 0
        Id guid = Id.hash("local object");
        overlay.node(holder).storeReplica(guid, new byte[] {1});
        run(overlay, overlay.node(holder).config().bloomRefresh().multipliedBy(3));
        int found = 0;
        int viaBloomInTwo = 0;
        for (int v = 0; v < NODES; v += GROUPS) {
            if (v == holder) {
                continue;
            }
            LocateResult r = locate(overlay, v, guid, 16, true);
            if (r.found()) {
                found++;
                if (r.hops() <= 2) {
                    viaBloomInTwo++;
                }
            }
        }
        int requesters = NODES / GROUPS - 1;
        assertEquals(requesters, found);
        assertTrue(viaBloomInTwo >= requesters * 0.8, viaBloomInTwo + " of " + requesters + " within two hops");
    }

    @Test
    void anycastReachesTheNearestProviderOfAService() {
        SimulatedOverlay overlay = OverlayFixture.settled(8, NODES, GROUPS);
        Id service = Id.hash("riptide:test-service");
        int[] providers = {0, 3, 5}; // groups 0, 3 and 5
        for (int p : providers) {
            overlay.node(p).storeReplica(service, new byte[0]);
        }
        run(overlay, overlay.node(0).config().bloomRefresh().multipliedBy(3));
        int nearest = 0;
        int clients = 0;
        for (int v = 0; v < NODES; v += 3) {
            if (v % GROUPS != 0 && v % GROUPS != 3 && v % GROUPS != 5) {
                continue;
            }
            LocateResult[] out = new LocateResult[1];
            overlay.node(v).anycast(service, new WhereIs(), 16, r -> out[0] = r);
            run(overlay, Duration.ofSeconds(4));
            clients++;
            assertTrue(out[0].found());
            if (out[0].replica().address().port() % GROUPS == v % GROUPS) {
                nearest++;
            }
        }
        assertTrue(nearest >= clients * 0.9, nearest + " of " + clients + " reached the provider in their own group");
    }

    @Test
    void placeClimbsKHopsTowardTheRootAndTheNewReplicaServes() {
        SimulatedOverlay overlay = OverlayFixture.settled(9, NODES, GROUPS);
        Id guid = Id.hash("placed object");
        int origin = overlay.trueRoot(guid) == 42 ? 43 : 42;
        overlay.node(overlay.trueRoot(guid)).storeReplica(guid, new byte[] {9, 9});
        run(overlay, Duration.ofSeconds(2));
        // The node one hop up from the origin, toward the root.
        NodeHandle up = overlay.node(origin).nextHop(guid);
        PlaceResult[] out = new PlaceResult[1];
        overlay.node(origin).place(guid, 1, r -> out[0] = r);
        run(overlay, Duration.ofSeconds(5));
        assertNotNull(out[0]);
        assertTrue(out[0].ok(), out[0].reason());
        assertEquals(up.id(), out[0].where().id());
        assertEquals(1, out[0].hops());
        OverlayNode placedAt = overlay.node(up.address().port());
        assertTrue(placedAt.replicas().contains(guid));
        assertEquals(List.of((byte) 9, (byte) 9), List.of(placedAt.replicas().get(guid).join()[0], placedAt.replicas().get(guid).join()[1]));
        LocateResult fromOrigin = locate(overlay, origin, guid, 16, false);
        assertEquals(up.id(), fromOrigin.replica().id(), "the origin's subtree is now served by the placed replica");
    }

    @Test
    void afterATenthOfTheNodesFailRoutingIsRepairedAndSurvivingObjectsAreFound() {
        SimulatedOverlay overlay = OverlayFixture.settled(10, NODES, GROUPS);
        SplittableRandom r = new SplittableRandom(10);
        List<Integer> live = overlay.liveVertices();
        Map<Id, Integer> holders = new HashMap<>();
        for (int i = 0; i < 30; i++) {
            Id guid = Id.hash("durable-" + i);
            int holder = live.get(r.nextInt(live.size()));
            holders.put(guid, holder);
            overlay.node(holder).storeReplica(guid, new byte[] {1});
        }
        run(overlay, Duration.ofSeconds(5));
        Set<Integer> dead = new HashSet<>();
        while (dead.size() < NODES / 10) {
            int v = live.get(r.nextInt(live.size()));
            if (!holders.containsValue(v)) {
                dead.add(v);
            }
        }
        dead.forEach(overlay::kill);
        run(overlay, Duration.ofSeconds(30));
        for (int v : overlay.liveVertices()) {
            OverlayNode node = overlay.node(v);
            for (NodeHandle h : node.leafSet().members()) {
                assertFalse(dead.contains(h.address().port()), "node " + v + " still has failed leaf " + h);
            }
            List<Id> truth = overlay.trueLeafSet(node.self().id(), node.config().leafSetHalf());
            assertTrue(truth.stream().allMatch(id -> node.leafSet().contains(id)), "leaf set of " + v + " repaired");
            for (NodeHandle h : node.routingTable().all()) {
                assertFalse(dead.contains(h.address().port()), "node " + v + " still routes via failed " + h);
            }
        }
        List<Integer> survivors = overlay.liveVertices();
        List<LocateResult> results = new ArrayList<>();
        for (Id guid : holders.keySet()) {
            for (int k = 0; k < 5; k++) {
                overlay.node(survivors.get(r.nextInt(survivors.size()))).locate(guid, 16, true, results::add);
            }
        }
        run(overlay, Duration.ofSeconds(5));
        assertEquals(150, results.size());
        assertTrue(results.stream().allMatch(LocateResult::found));
    }

    @Test
    void locatesIssuedAsAFifthOfTheNodesFailAreHedgedThroughAnotherFirstHopAndAnswered() {
        SimulatedOverlay overlay = OverlayFixture.settled(17, NODES, GROUPS);
        SplittableRandom r = new SplittableRandom(17);
        List<Integer> live = overlay.liveVertices();
        List<Id> guids = new ArrayList<>();
        Set<Integer> holders = new HashSet<>();
        for (int i = 0; i < 40; i++) {
            Id guid = Id.hash("hedged-" + i);
            int holder = live.get(r.nextInt(live.size()));
            holders.add(holder);
            guids.add(guid);
            overlay.node(holder).storeReplica(guid, new byte[] {1});
        }
        run(overlay, Duration.ofSeconds(5));
        Set<Integer> dead = new HashSet<>();
        while (dead.size() < NODES / 5) {
            int v = live.get(r.nextInt(live.size()));
            if (!holders.contains(v)) {
                dead.add(v);
            }
        }
        dead.forEach(overlay::kill);
        // At once, before failure detection: routes still run through the dead, each costing a hop timeout.
        List<Integer> survivors = overlay.liveVertices();
        List<LocateResult> results = new ArrayList<>();
        for (int k = 0; k < 400; k++) {
            overlay.node(survivors.get(r.nextInt(survivors.size()))).locate(guids.get(r.nextInt(guids.size())), 16, false, results::add);
            run(overlay, Duration.ofMillis(10));
        }
        run(overlay, Duration.ofSeconds(5));

        long hedged = 0;
        long hedgeWins = 0;
        for (int v : survivors) {
            hedged += overlay.node(v).locateStats().hedged();
            hedgeWins += overlay.node(v).locateStats().hedgeWins();
        }
        assertEquals(400, results.size());
        assertEquals(List.of(), results.stream().filter(res -> !res.found()).toList(), "every surviving object found");
        assertTrue(hedgeWins > 0, "some locates were answered by their hedge (" + hedged + " hedged)");
    }

    @Test
    void aReadBringsBackTheReplicasBytesFromAnywhere() {
        SimulatedOverlay overlay = OverlayFixture.settled(12, NODES, GROUPS);
        Id guid = Id.hash("readable");
        byte[] data = "the object's bytes".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        overlay.node(17).storeReplica(guid, data);
        run(overlay, Duration.ofSeconds(2));
        LocateResult[] out = new LocateResult[1];
        overlay.node(150).read(guid, 16, r -> out[0] = r);
        run(overlay, Duration.ofSeconds(4));
        assertTrue(out[0].found());
        assertEquals(17, out[0].replica().address().port());
        assertTrue(java.util.Arrays.equals(data, out[0].data()));
        LocateResult[] missing = new LocateResult[1];
        overlay.node(150).read(Id.hash("absent"), 16, r -> missing[0] = r);
        run(overlay, Duration.ofSeconds(4));
        assertEquals(FailureReason.NOT_FOUND, missing[0].failure());
    }

    @Test
    void theRootListsEveryReplicaAndEachCanBeReadWhereItIs() {
        SimulatedOverlay overlay = OverlayFixture.settled(15, NODES, GROUPS);
        Id guid = Id.hash("held thrice");
        List<Integer> holders = List.of(17, 60, 123);
        for (int h : holders) {
            assertTrue(overlay.node(h).storeReplica(guid, new byte[] {(byte) h}));
        }
        run(overlay, Duration.ofSeconds(2));
        List<Optional<List<NodeHandle>>> listed = new ArrayList<>();
        List<Optional<List<NodeHandle>>> none = new ArrayList<>();
        overlay.node(150).listReplicas(guid, listed::add);
        overlay.node(150).listReplicas(Id.hash("held nowhere"), none::add);
        run(overlay, Duration.ofSeconds(4));
        List<NodeHandle> replicas = listed.get(0).orElseThrow();
        assertEquals(Set.copyOf(holders), replicas.stream().map(h -> h.address().port())
                .collect(java.util.stream.Collectors.toSet()), "every holder");
        assertEquals(holders.size(), replicas.size(), "each once");
        assertEquals(List.of(Optional.of(List.of())), none, "the root answers, with no replica");

        Map<Integer, byte[]> read = new HashMap<>();
        for (NodeHandle h : replicas) {
            overlay.node(150).readAt(h, guid, 16, r -> read.put(r.replica().address().port(), r.data()));
        }
        run(overlay, Duration.ofSeconds(4));
        for (int h : holders) {
            assertTrue(read.containsKey(h), "read at " + h);
            assertEquals(h, read.get(h)[0], "the bytes held at " + h);
        }
    }

    @Test
    void aReplicaListForAnotherGuidIsNoAnswer() {
        SimulatedOverlay overlay = OverlayFixture.settled(23, 60, 3);
        List<Optional<List<NodeHandle>>> listed = new ArrayList<>();
        overlay.node(7).listReplicas(Id.hash("asked about"), listed::add);
        // Request IDs count up from 1: a node guessing them answers about another object first.
        NodeHandle liar = overlay.node(8).self();
        for (long id = 1; id <= 4; id++) {
            overlay.node(7).onMessage(liar, new ReplicaList(id, Id.hash("something else"), List.of(liar)));
        }
        run(overlay, Duration.ofSeconds(4));
        assertEquals(List.of(Optional.empty()), listed, "a list about another GUID is refused, not taken as the answer");
    }

    @Test
    void onceTheRootConfirmsAPublishEveryNodeFindsTheReplicaAtOnce() {
        SimulatedOverlay overlay = OverlayFixture.settled(14, NODES, GROUPS);
        Id guid = Id.hash("just inserted");
        List<LocateResult> results = new ArrayList<>();
        Boolean[] rooted = new Boolean[1];
        assertTrue(overlay.node(33).storeReplica(guid, new byte[] {7}, ok -> {
            rooted[0] = ok;
            // Asked in the same instant the confirmation arrives: no pointer may still be in flight.
            for (int v : overlay.liveVertices()) {
                overlay.node(v).locate(guid, 16, false, results::add);
            }
        }));
        run(overlay, Duration.ofSeconds(5));
        assertEquals(Boolean.TRUE, rooted[0]);
        assertEquals(NODES, results.size());
        assertTrue(results.stream().allMatch(LocateResult::found), "every locate found the replica");
    }

    @Test
    void aLeaseIsHeldByOneClaimantUntilReleasedOrExpired() {
        SimulatedOverlay overlay = OverlayFixture.settled(13, NODES, GROUPS);
        Id key = Id.hash("fetching http://example.org/");
        List<io.riptide.dolr.lease.LeaseResult> results = new ArrayList<>();
        overlay.node(3).claim(key, Duration.ofSeconds(10), results::add);
        run(overlay, Duration.ofSeconds(1));
        overlay.node(99).claim(key, Duration.ofSeconds(10), results::add);
        run(overlay, Duration.ofSeconds(1));
        assertTrue(results.get(0).granted() && results.get(0).answered());
        assertFalse(results.get(1).granted());
        assertEquals(overlay.node(3).self(), results.get(1).holder());
        overlay.node(3).release(key);
        run(overlay, Duration.ofSeconds(1));
        overlay.node(99).claim(key, Duration.ofSeconds(2), results::add);
        run(overlay, Duration.ofSeconds(1));
        assertTrue(results.get(2).granted(), "free again after release");
        run(overlay, Duration.ofSeconds(3));
        overlay.node(3).claim(key, Duration.ofSeconds(2), results::add);
        run(overlay, Duration.ofSeconds(1));
        assertTrue(results.get(3).granted(), "free again after expiry");
    }

    @Test
    void theSameSeedGivesTheSameRunEventForEvent() {
        SimulatedOverlay a = OverlayFixture.settled(11, 80, 4);
        SimulatedOverlay b = OverlayFixture.settled(11, 80, 4);
        assertEquals(a.simulation().eventsRun(), b.simulation().eventsRun());
        assertEquals(a.network().messagesSent(), b.network().messagesSent());
        for (int v : a.liveVertices()) {
            assertEquals(a.node(v).self(), b.node(v).self());
            assertEquals(a.node(v).routingTable().all(), b.node(v).routingTable().all());
        }
    }
}
