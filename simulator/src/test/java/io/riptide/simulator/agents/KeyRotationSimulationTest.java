package io.riptide.simulator.agents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.crypto.SigningKey;
import io.riptide.core.gateway.GatewayMessages.Outcome;
import io.riptide.core.http.CanonicalUrl;
import io.riptide.core.http.Headers;
import io.riptide.core.id.Id;
import io.riptide.core.object.CachedCopy;
import io.riptide.core.object.KeyRecords;
import io.riptide.core.object.KeyRevocation;
import io.riptide.core.object.KeyRotation;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.object.PushMode;
import io.riptide.core.object.RejectReason;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.OverlayApplication;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.location.LocateResult;
import io.riptide.gateway.Gateway;
import io.riptide.gateway.GatewayConfig;
import io.riptide.gateway.insert.InsertResult;
import io.riptide.gateway.keys.RevokeResult;
import io.riptide.simulator.overlay.AgentOverlay;
import io.riptide.simulator.report.Progress;
import io.riptide.simulator.topology.TopologyParams;
import io.riptide.simulator.topology.TransitStubTopology;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * A provider key rotation and revocation end to end, in the simulated runtime with fixed seeds. A story
 * signed by the old key is replicated across the overlay and read by two proxies that trust only the
 * old key (one with a memory tier). A gateway starts with a new key certified by the old one: the
 * proxies learn the new key from the key records it publishes and serve its objects. Then the old key is
 * revoked: no replica keeps the old story's body, no proxy serves it again (memory included), the new
 * key's objects are still served, and the old bytes replayed are refused by proxies and replicas.
 */
class KeyRotationSimulationTest {
    private static final String OLD_URL = "http://news.example/signed-by-the-old-key.html";
    private static final String NEW_URL = "http://news.example/signed-by-the-new-key.html";
    private static final int SIZE = 6000;

    @Test
    void seed21() {
        rotateThenRevoke(21);
    }

    @Test
    void seed22() {
        rotateThenRevoke(22);
    }

    private void rotateThenRevoke(long seed) {
        SigningKey oldKey = Agents.provider(seed, "rotation-simulation-test/old");
        SigningKey newKey = Agents.provider(seed, "rotation-simulation-test/new");
        KeyRecords certificate = new KeyRecords(List.of(KeyRotation.sign(oldKey, newKey.publicKey(), 1, 1_000)), List.of());
        SimulatedOrigin viaGateway = new SimulatedOrigin(100e6, Duration.ofMillis(20));
        SimulatedOrigin direct = new SimulatedOrigin(100e6, Duration.ofMillis(20));
        for (SimulatedOrigin o : List.of(viaGateway, direct)) {
            o.serve(new OriginDocument(OLD_URL, SIZE, 3600, Duration.ZERO));
            o.serve(new OriginDocument(NEW_URL, SIZE, 3600, Duration.ZERO));
        }
        TransitStubTopology topology = TransitStubTopology.generate(TopologyParams.forHosts(100), seed);
        Gateway[] started = new Gateway[2];
        Map<Integer, Function<OverlayNode, OverlayApplication>> agents = new HashMap<>();
        agents.put(0, Agents.gateway(oldKey, viaGateway, GatewayConfig.defaults(), PushMode.NONE, g -> started[0] = g));
        agents.put(1, Agents.gateway(newKey, viaGateway, GatewayConfig.defaults(), PushMode.NONE, certificate,
                g -> started[1] = g));
        AgentOverlay world = AgentOverlay.build(topology, seed, DolrConfig.defaults(), 50, Duration.ofSeconds(20), agents,
                false, Progress.silent());
        Gateway oldGateway = started[0];
        Gateway newGateway = started[1];

        // The old key's story, replicated: eight nodes copy it and join its tree.
        InsertResult[] inserted = new InsertResult[1];
        oldGateway.inserter().refresh(OLD_URL, Headers.EMPTY, r -> inserted[0] = r);
        world.run(Duration.ofSeconds(5));
        assertEquals(Outcome.INSERTED, inserted[0].outcome(), inserted[0].reason());
        Id oldGuid = ObjectNames.objectGuid(oldKey.publicKey(), CanonicalUrl.of(OLD_URL).value(), "");
        List<OverlayNode> holders = new ArrayList<>();
        holders.add(world.overlay().node(0));
        byte[] original = null;
        for (int vertex = 7; holders.size() < 9; vertex += 11) {
            OverlayNode node = world.overlay().node(vertex);
            LocateResult[] read = new LocateResult[1];
            node.read(oldGuid, 16, r -> read[0] = r);
            world.run(Duration.ofSeconds(2));
            assertTrue(read[0].found(), "vertex " + vertex + " found the story");
            original = read[0].data();
            assertTrue(node.storeReplica(oldGuid, original));
            node.joinTree(oldGuid, read[0].replica());
            world.run(Duration.ofMillis(500));
            holders.add(node);
        }
        world.run(Duration.ofSeconds(3));
        byte[] bodyDigest = copyOf(original).object().certificate().bodyDigest();

        // Proxies that trust the old key alone.
        SimulatedProxy plain = SimulatedProxies.of(world.overlay(), oldKey.publicKey(), direct).on(topology.hostCount() - 1);
        SimulatedProxy withMemory = SimulatedProxies.of(world.overlay(), oldKey.publicKey(), direct).withMemory(1 << 20)
                .on(topology.hostCount() - 2);
        assertEquals(ClientResult.Source.REPLICA, get(world, plain, OLD_URL).source());
        assertEquals(ClientResult.Source.REPLICA, get(world, withMemory, OLD_URL, Duration.ofSeconds(1)).source());
        assertEquals(ClientResult.Source.PROXY_MEMORY, get(world, withMemory, OLD_URL, Duration.ofMillis(100)).source());

        // Rotation: the new key's gateway inserts under the new key; the proxies learn it from the key records.
        InsertResult[] insertedNew = new InsertResult[1];
        newGateway.inserter().refresh(NEW_URL, Headers.EMPTY, r -> insertedNew[0] = r);
        world.run(Duration.ofSeconds(5));
        assertEquals(Outcome.INSERTED, insertedNew[0].outcome(), insertedNew[0].reason());
        for (SimulatedProxy proxy : List.of(plain, withMemory)) {
            proxy.cache().readKeyRecords();
        }
        world.run(Duration.ofSeconds(4));
        for (SimulatedProxy proxy : List.of(plain, withMemory)) {
            assertTrue(proxy.cache().trust().trusts(newKey.publicKey()), "the proxy learned the certified key");
            assertEquals(ClientResult.Source.REPLICA, get(world, proxy, NEW_URL).source(), "the new key's object is served");
            assertTrue(proxy.cache().trust().trusts(oldKey.publicKey()), "and the old key still works");
        }
        assertEquals(ClientResult.Source.REPLICA, get(world, plain, OLD_URL).source());

        // Revocation, signed by the old key, handed to both gateways (as `riptide revoke` on each).
        KeyRecords revocation = new KeyRecords(List.of(), List.of(KeyRevocation.sign(oldKey, oldKey.publicKey(), 2_000)));
        RevokeResult[] revoked = new RevokeResult[2];
        oldGateway.keys().revoke(revocation, r -> revoked[0] = r);
        newGateway.keys().revoke(revocation, r -> revoked[1] = r);
        // Twice the memory tier's recheck interval: a kept copy is then read through the overlay again.
        world.run(Duration.ofSeconds(10));
        for (RevokeResult r : revoked) {
            assertNotNull(r);
            assertEquals(RevokeResult.Outcome.REVOKED, r.outcome(), r.message());
        }
        assertEquals(1, oldGateway.keys().treesRevoked(), "the old story's tree, rooted at the old key's gateway");

        for (OverlayNode h : holders) {
            byte[] held = h.replicas().get(oldGuid).join();
            assertNotNull(held, h.self() + " keeps the revocation");
            assertTrue(KeyRecords.isKeyRecords(held), h.self() + " holds the revocation in place of the story");
            assertFalse(h.replicas().holdsBody(bodyDigest), h.self() + " dropped the body");
            assertTrue(h.revokedKeys().isRevoked(oldKey.publicKey()));
        }
        // No node anywhere keeps the old key's bytes for the story.
        for (int v : world.overlay().liveVertices()) {
            byte[] held = world.overlay().node(v).replicas().get(oldGuid).join();
            assertTrue(held == null || KeyRecords.isKeyRecords(held), "vertex " + v + " keeps no copy the old key signed");
        }
        Id newNameOfOldUrl = ObjectNames.objectGuid(newKey.publicKey(), CanonicalUrl.of(OLD_URL).value(), "");
        for (SimulatedProxy proxy : List.of(plain, withMemory)) {
            ClientResult r = get(world, proxy, OLD_URL);
            assertEquals(SIZE, r.bodyBytes());
            assertTrue(proxy.cache().trust().isRevoked(oldKey.publicKey()), "the proxy learned the revocation");
            assertTrue(proxy.cache().revokedLookups() >= 1, "it met the revocation in place of the story");
            if (r.source() == ClientResult.Source.REPLICA) {
                // Only a copy the new key signed may be served: the URL inserted again under the new key.
                byte[] served = nodeAt(world, r.replica().address()).replicas().get(newNameOfOldUrl).join();
                assertNotNull(served, "served from a replica of the new key's name: " + r);
                assertEquals(newKey.publicKey(), copyOf(served).object().certificate().provider());
            } else {
                assertEquals(ClientResult.Source.ORIGIN_MISS, r.source(), "never from memory: " + r);
            }
            assertEquals(ClientResult.Source.REPLICA, get(world, proxy, NEW_URL).source(), "the new key's objects are still served");
        }

        // The old bytes replayed: planted on the proxy's own node, and offered to a replica as a tree update.
        world.overlay().node(topology.hostCount() - 1).storeReplica(oldGuid, original);
        long refusedBefore = plain.cache().refused();
        ClientResult replayed = get(world, plain, OLD_URL);
        assertTrue(replayed.source() != ClientResult.Source.REPLICA || !replayed.replica().address().equals(
                world.overlay().node(topology.hostCount() - 1).self().address()), "the replay is never served: " + replayed);
        assertEquals(refusedBefore, plain.cache().refused(), "not even read: the revoked key's names are no longer looked up");
        OverlayNode replica = holders.get(1);
        assertFalse(replica.updateCheck().admits(oldGuid, original));
        assertEquals(RejectReason.REVOKED_KEY, replica.updateCheck().lastRefusal().orElseThrow().rejectReason().orElseThrow());
        plain.stop();
        withMemory.stop();
    }

    private static OverlayNode nodeAt(AgentOverlay world, io.riptide.core.runtime.NodeAddress address) {
        for (int v : world.overlay().liveVertices()) {
            if (world.overlay().node(v).self().address().equals(address)) {
                return world.overlay().node(v);
            }
        }
        throw new AssertionError("no node at " + address);
    }

    private static CachedCopy copyOf(byte[] data) {
        try {
            return CachedCopy.fromBytes(data, 1 << 20);
        } catch (io.riptide.core.object.ObjectFormatException e) {
            throw new AssertionError(e);
        }
    }

    private static ClientResult get(AgentOverlay world, SimulatedProxy proxy, String url) {
        return get(world, proxy, url, Duration.ofSeconds(4));
    }

    private static ClientResult get(AgentOverlay world, SimulatedProxy proxy, String url, Duration wait) {
        ClientResult[] out = new ClientResult[1];
        proxy.get(url, r -> out[0] = r);
        world.run(wait);
        assertNotNull(out[0], "answered within the read deadline");
        return out[0];
    }
}
