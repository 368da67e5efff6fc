package io.riptide.simulator.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.crypto.SigningKey;
import io.riptide.core.http.Headers;
import io.riptide.core.id.Id;
import io.riptide.core.object.CachedCopy;
import io.riptide.core.object.ObjectCertificate;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.object.StoredResponse;
import io.riptide.core.object.WebObject;
import io.riptide.core.runtime.sim.Simulation;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.simulation.GroupLatency;
import io.riptide.dolr.simulation.SimulatedOverlay;
import io.riptide.simulator.agents.ClientResult;
import io.riptide.simulator.agents.OriginDocument;
import io.riptide.simulator.agents.ServedBody;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** Each invariant check catches what it is there to catch, and passes what it should pass. */
class CheckersTest {
    private static final String URL = "http://news.example/front.html";
    private static final OriginDocument DOC = new OriginDocument(URL, 2048, 5, Duration.ofSeconds(10));
    private static final SigningKey PROVIDER = SigningKey.fromSeed(new byte[32]);
    private static final Id GUID = ObjectNames.objectGuid(PROVIDER.publicKey(), URL, "");

    @Test
    void servedBytesMustBeAVersionAndNeverGoBackFromTheOverlay() {
        ServedBytes served = new ServedBytes(Map.of(URL, DOC), () -> 0);
        Consumer<ServedBody> proxy = served.watcher(3);
        proxy.accept(new ServedBody(URL, ClientResult.Source.REPLICA, DOC.body(7), 2));
        proxy.accept(new ServedBody(URL, ClientResult.Source.REPLICA, DOC.body(8), 3));
        // The origin's own answer may be older than an overlay copy seen before (RFC 9111 allows it) ...
        proxy.accept(new ServedBody(URL, ClientResult.Source.ORIGIN_STALE, DOC.body(6), -1));
        assertEquals(0, served.verified().violations() + served.noGoingBack().violations());
        // ... an overlay copy may not, by content or by certified version.
        proxy.accept(new ServedBody(URL, ClientResult.Source.REPLICA, DOC.body(7), 4));
        proxy.accept(new ServedBody(URL, ClientResult.Source.REPLICA, DOC.body(9), 1));
        assertEquals(2, served.noGoingBack().violations());
        // Another proxy has its own history.
        served.watcher(4).accept(new ServedBody(URL, ClientResult.Source.REPLICA, DOC.body(1), 1));
        assertEquals(2, served.noGoingBack().violations());
        byte[] corrupt = DOC.body(9);
        corrupt[100] ^= 1;
        proxy.accept(new ServedBody(URL, ClientResult.Source.REPLICA, corrupt, 9));
        proxy.accept(new ServedBody(URL, ClientResult.Source.ORIGIN_MISS, new byte[10], -1));
        assertEquals(2, served.verified().violations(), "a flipped bit, and a body of no version at all");
        assertEquals(8, served.verified().checks());
    }

    private static SimulatedOverlay overlay(long seed) {
        Simulation sim = new Simulation(seed);
        GroupLatency latency = new GroupLatency(2);
        SimulatedOverlay overlay = new SimulatedOverlay(sim, latency, DolrConfig.defaults(), latency::groupOf);
        List<Integer> vertices = new ArrayList<>();
        for (int v = 0; v < 12; v++) {
            vertices.add(v);
        }
        overlay.addAll(vertices, Duration.ofMillis(50), Duration.ofSeconds(30), () -> { });
        sim.runFor(Duration.ofSeconds(10).toNanos());
        return overlay;
    }

    private static byte[] copy(long version, long content, long signedAtMillis) {
        StoredResponse response = new StoredResponse(200, "OK", Headers.of("Cache-Control", "max-age=5"), DOC.body(content));
        ObjectCertificate cert = ObjectCertificate.sign(PROVIDER, URL, "", version, response, signedAtMillis, signedAtMillis, 5);
        return CachedCopy.of(WebObject.of(cert, response.body())).toBytes();
    }

    @Test
    void twoCertificatesOfOneVersionAreCaughtOnAnyNodes() {
        SimulatedOverlay overlay = overlay(31);
        CopiesPerVersion copies = new CopiesPerVersion(Map.of(GUID, URL));
        overlay.node(1).storeReplica(GUID, copy(1, 10, 1_000));
        overlay.node(2).storeReplica(GUID, copy(1, 10, 1_000));
        copies.scan(overlay, 0);
        assertEquals(0, copies.invariant().violations(), "the same copy twice is one copy");
        overlay.node(3).storeReplica(GUID, copy(1, 10, 2_000));
        copies.scan(overlay, 1);
        assertEquals(1, copies.invariant().violations(), "the same body signed again");
        overlay.node(1).storeReplica(GUID, copy(2, 11, 3_000));
        overlay.node(4).storeReplica(GUID, copy(2, 12, 3_000));
        copies.scan(overlay, 2);
        assertEquals(3, copies.invariant().violations(), "node 3's copy again, and node 4's other body of version 2");
        assertTrue(copies.invariant().examples().stream().anyMatch(e -> e.contains("vertex 4") && e.contains("a different body")),
                copies.invariant().examples().toString());
        assertEquals(2, copies.versionsSeen());
    }

    @Test
    void aTreeMemberThatMissesAnUpdateIsCaughtOnceTheBoundHasPassed() {
        SimulatedOverlay overlay = overlay(32);
        int root = 0;
        int member = 7;
        overlay.node(root).storeReplica(GUID, copy(1, 10, 1_000));
        overlay.node(root).startTree(GUID, 1);
        overlay.node(member).storeReplica(GUID, copy(1, 10, 1_000));
        overlay.node(member).joinTree(GUID, overlay.node(root).self());
        overlay.simulation().runFor(Duration.ofSeconds(2).toNanos());
        UpdatesReach updates = new UpdatesReach(Map.of(GUID, URL), Duration.ofSeconds(3).toNanos());
        long s = 1_000_000_000L;
        // The member is cut off while version 2 goes down the tree.
        overlay.network().partition(v -> v == member, Duration.ofSeconds(6));
        overlay.node(root).publishUpdate(GUID, copy(2, 11, 2_000), 2);
        for (int t = 1; t <= 5; t++) {
            overlay.simulation().runFor(s);
            updates.tick(overlay, List.of(root), overlay.simulation().now(), 0);
        }
        assertTrue(updates.invariant().violations() >= 1, "behind more than the bound: " + updates.invariant().examples());
        assertEquals(1, updates.behindNow());
        // Once the cut heals, the next version reaches it (the missed one's beat line was lost with
        // it, and the tree is listed again only at its turn, once a minute).
        overlay.simulation().runFor(3 * s);
        overlay.node(root).publishUpdate(GUID, copy(3, 12, 3_000), 3);
        overlay.simulation().runFor(5 * s);
        long before = updates.invariant().violations();
        updates.tick(overlay, List.of(root), overlay.simulation().now(), 0);
        assertEquals(before, updates.invariant().violations(), "caught up: " + updates.invariant().examples());
        assertEquals(0, updates.behindNow());
    }

    @Test
    void aLeafSetStillNamingACrashedNodeIsInexact() {
        SimulatedOverlay overlay = overlay(33);
        LeafSets leafSets = new LeafSets(DolrConfig.defaults().leafSetHalf());
        leafSets.tick(overlay, 0, 0);
        assertEquals(0, leafSets.invariant().violations(), "settled");
        overlay.kill(5);
        leafSets.tick(overlay, 1, 0);
        assertTrue(leafSets.inexactNow() > 0 && leafSets.invariant().violations() == leafSets.inexactNow());
        overlay.simulation().runFor(Duration.ofSeconds(30).toNanos());
        leafSets.tick(overlay, 2, 0);
        assertEquals(0, leafSets.inexactNow(), "repaired around it");
    }
}
