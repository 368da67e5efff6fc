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
import io.riptide.core.object.ObjectNames;
import io.riptide.core.object.PushMode;
import io.riptide.core.object.RejectReason;
import io.riptide.core.object.Tombstone;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.OverlayApplication;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.location.LocateResult;
import io.riptide.gateway.Gateway;
import io.riptide.gateway.GatewayConfig;
import io.riptide.gateway.insert.InsertResult;
import io.riptide.gateway.insert.PurgeResult;
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
 * A takedown end to end, in the simulated runtime with fixed seeds: a story is inserted by the
 * gateway, copied to replicas across the overlay (each joining its dissemination tree) and read by two
 * proxies, one with a memory tier. The operator purges it at the gateway: no replica keeps the body,
 * no proxy serves the old bytes again (its users get the origin's answer), the gateway refuses to
 * insert it again, and the old version replayed, to a proxy or to a replica, is refused.
 */
class PurgeSimulationTest {
    private static final String URL = "http://news.example/retracted.html";
    private static final int SIZE = 6000;

    @Test
    void seed11() {
        takedown(11);
    }

    @Test
    void seed12() {
        takedown(12);
    }

    private void takedown(long seed) {
        SigningKey provider = Agents.provider(seed, "purge-simulation-test");
        SimulatedOrigin viaGateway = new SimulatedOrigin(100e6, Duration.ofMillis(20));
        SimulatedOrigin direct = new SimulatedOrigin(100e6, Duration.ofMillis(20));
        TransitStubTopology topology = TransitStubTopology.generate(TopologyParams.forHosts(100), seed);
        viaGateway.serve(new OriginDocument(URL, SIZE, 3600, Duration.ZERO));
        direct.serve(new OriginDocument(URL, SIZE, 3600, Duration.ZERO));
        Gateway[] started = new Gateway[1];
        Map<Integer, Function<OverlayNode, OverlayApplication>> agents = new HashMap<>();
        agents.put(0, Agents.gateway(provider, viaGateway, GatewayConfig.defaults(), PushMode.NONE, g -> started[0] = g));
        AgentOverlay world = AgentOverlay.build(topology, seed, DolrConfig.defaults(), 50, Duration.ofSeconds(20), agents,
                false, Progress.silent());
        Gateway gateway = started[0];
        InsertResult[] inserted = new InsertResult[1];
        gateway.inserter().refresh(URL, Headers.EMPTY, r -> inserted[0] = r);
        world.run(Duration.ofSeconds(5));
        assertEquals(Outcome.INSERTED, inserted[0].outcome(), inserted[0].reason());
        Id guid = ObjectNames.objectGuid(provider.publicKey(), CanonicalUrl.of(URL).value(), "");

        // Replicated: eight nodes copy the story from the nearest replica and join its tree.
        List<OverlayNode> holders = new ArrayList<>();
        holders.add(world.overlay().node(0));
        byte[] original = null;
        for (int vertex = 7; holders.size() < 9; vertex += 11) {
            OverlayNode node = world.overlay().node(vertex);
            LocateResult[] read = new LocateResult[1];
            node.read(guid, 16, r -> read[0] = r);
            world.run(Duration.ofSeconds(2));
            assertTrue(read[0].found(), "vertex " + vertex + " found the story");
            original = read[0].data();
            assertTrue(node.storeReplica(guid, original));
            node.joinTree(guid, read[0].replica());
            world.run(Duration.ofMillis(500));
            holders.add(node);
        }
        world.run(Duration.ofSeconds(3));
        byte[] bodyDigest = copyOf(original).object().certificate().bodyDigest();
        for (OverlayNode h : holders) {
            assertTrue(h.replicas().holdsBody(bodyDigest), "before the purge " + h.self() + " holds the body");
        }

        // Read by two proxies in other stubs, one keeping copies in memory.
        SimulatedProxy plain = SimulatedProxies.of(world.overlay(), provider.publicKey(), direct).on(topology.hostCount() - 1);
        SimulatedProxy withMemory = SimulatedProxies.of(world.overlay(), provider.publicKey(), direct).withMemory(1 << 20)
                .on(topology.hostCount() - 2);
        assertEquals(ClientResult.Source.REPLICA, get(world, plain).source());
        assertEquals(ClientResult.Source.REPLICA, get(world, withMemory, Duration.ofSeconds(1)).source());
        assertEquals(ClientResult.Source.PROXY_MEMORY, get(world, withMemory, Duration.ofMillis(100)).source(), "kept in memory");
        long directBefore = direct.fetches(URL);

        PurgeResult[] purged = new PurgeResult[1];
        gateway.purger().purge(URL, r -> purged[0] = r);
        // Twice the memory tier's recheck interval: a kept copy is then read through the overlay again.
        world.run(Duration.ofSeconds(10));
        assertNotNull(purged[0]);
        assertEquals(PurgeResult.Outcome.PURGED, purged[0].outcome(), purged[0].message());
        assertTrue(purged[0].version() > copyOf(original).object().certificate().version(), "a version above the story's");

        for (OverlayNode h : holders) {
            byte[] held = h.replicas().get(guid).join();
            assertNotNull(held, h.self() + " keeps the tombstone");
            assertTrue(Tombstone.is(held), h.self() + " holds the tombstone");
            assertFalse(h.replicas().holdsBody(bodyDigest), h.self() + " dropped the body");
        }

        for (SimulatedProxy proxy : List.of(plain, withMemory)) {
            ClientResult r = get(world, proxy);
            assertEquals(ClientResult.Source.ORIGIN_MISS, r.source(), "the purged story comes from the origin: " + r);
            assertEquals(SIZE, r.bodyBytes());
            assertEquals(1, proxy.cache().purgedLookups());
        }
        assertEquals(directBefore + 2, direct.fetches(URL));

        // The gateway will not put it back.
        InsertResult[] again = new InsertResult[1];
        long gatewayFetches = viaGateway.gatewayFetches(URL);
        gateway.inserter().refresh(URL, Headers.EMPTY, r -> again[0] = r);
        world.run(Duration.ofSeconds(2));
        assertEquals(Outcome.NOT_CACHEABLE, again[0].outcome(), again[0].reason());
        assertEquals(gatewayFetches, viaGateway.gatewayFetches(URL), "not even fetched");
        PurgeResult[] twice = new PurgeResult[1];
        gateway.purger().purge(URL, r -> twice[0] = r);
        world.run(Duration.ofSeconds(2));
        assertEquals(PurgeResult.Outcome.ALREADY_PURGED, twice[0].outcome(), twice[0].message());

        // The old version replayed: planted on the proxy's own node (the first place it reads), and
        // offered to a replica as a tree update.
        world.overlay().node(topology.hostCount() - 1).storeReplica(guid, original);
        ClientResult replayed = get(world, plain);
        assertEquals(ClientResult.Source.ORIGIN_MISS, replayed.source(), "the replay is never served");
        assertEquals(Map.of(RejectReason.STALE_VERSION, 1L), plain.cache().refusedByReason());
        OverlayNode replica = holders.get(1);
        assertFalse(replica.updateCheck().admits(guid, original));
        assertEquals(RejectReason.STALE_VERSION,
                replica.updateCheck().lastRefusal().orElseThrow().rejectReason().orElseThrow());
        plain.stop();
        withMemory.stop(); // its memory tier's buffers go back to the pool
    }

    private static CachedCopy copyOf(byte[] data) {
        try {
            return CachedCopy.fromBytes(data, 1 << 20);
        } catch (io.riptide.core.object.ObjectFormatException e) {
            throw new AssertionError(e);
        }
    }

    private static ClientResult get(AgentOverlay world, SimulatedProxy proxy) {
        return get(world, proxy, Duration.ofSeconds(4));
    }

    private static ClientResult get(AgentOverlay world, SimulatedProxy proxy, Duration wait) {
        ClientResult[] out = new ClientResult[1];
        proxy.get(URL, r -> out[0] = r);
        world.run(wait);
        assertNotNull(out[0], "answered within the read deadline");
        return out[0];
    }
}
