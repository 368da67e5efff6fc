package io.riptide.simulator.agents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.crypto.SigningKey;
import io.riptide.core.http.CanonicalUrl;
import io.riptide.core.http.Headers;
import io.riptide.core.id.Id;
import io.riptide.core.object.CachedCopy;
import io.riptide.core.object.ObjectCertificate;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.object.PushMode;
import io.riptide.core.object.RejectReason;
import io.riptide.core.object.StoredResponse;
import io.riptide.core.object.WebObject;
import io.riptide.core.runtime.sim.SimEnv;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.OverlayApplication;
import io.riptide.dolr.OverlayNode;
import io.riptide.gateway.Gateway;
import io.riptide.gateway.GatewayConfig;
import io.riptide.simulator.overlay.AgentOverlay;
import io.riptide.simulator.report.Progress;
import io.riptide.simulator.topology.TopologyParams;
import io.riptide.simulator.topology.TransitStubTopology;
import io.riptide.simulator.stages.ServiceTimes;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The simulator's proxies are the shipped proxy's cache: they verify every copy in simulation as over
 * TCP. A replica planted on the proxy's own node (the first place its reads look) that is tampered
 * with, forged or an older version is refused, counted by reason, and the user gets the origin's
 * answer; a genuine copy is a hit that costs the verify stage's modelled service time.
 */
class SimulatedProxyTest {
    private static final long SEED = 7;
    private static final String URL = "http://news.example/story.html";
    private static final int SIZE = 4096;

    private final SigningKey provider = Agents.provider(SEED, "simulated-proxy-test");
    /** The web server as the gateway fetches from it, and as users fetch from it: counted apart. */
    private final SimulatedOrigin viaGateway = new SimulatedOrigin(100e6, Duration.ofMillis(20));
    private final SimulatedOrigin direct = new SimulatedOrigin(100e6, Duration.ofMillis(20));
    private AgentOverlay world;
    private Gateway gateway;
    private int proxyVertex;

    @BeforeEach
    void overlayWithAGatewayThatHasInsertedTheStory() {
        TransitStubTopology topology = TransitStubTopology.generate(TopologyParams.forHosts(100), SEED);
        viaGateway.serve(new OriginDocument(URL, SIZE, 3600, Duration.ZERO));
        direct.serve(new OriginDocument(URL, SIZE, 3600, Duration.ZERO));
        Gateway[] started = new Gateway[1];
        Map<Integer, Function<OverlayNode, OverlayApplication>> agents = new HashMap<>();
        agents.put(0, Agents.gateway(provider, viaGateway, GatewayConfig.defaults(), PushMode.NONE, g -> started[0] = g));
        world = AgentOverlay.build(topology, SEED, DolrConfig.defaults(), 50, Duration.ofSeconds(20), agents, false,
                Progress.silent());
        gateway = started[0];
        gateway.inserter().refresh(URL, Headers.EMPTY, r -> { });
        world.run(Duration.ofSeconds(5));
        proxyVertex = topology.hostCount() - 1;
    }

    @Test
    void aGenuineCopyIsAHitThatCostsTheFrontTheAccessNodeAndTheVerification() {
        SimulatedProxy proxy = SimulatedProxies.of(world.overlay(), provider.publicKey(), direct).on(proxyVertex);
        plant(genuine(1)); // on the proxy's own node: no hops, so the read costs exactly the host's stages' service times
        ClientResult r = get(proxy);
        assertEquals(ClientResult.Source.REPLICA, r.source());
        assertEquals(0, r.hops());
        ServiceTimes t = ServiceTimes.MEASURED;
        assertEquals(t.frontNanos() + t.accessNanos() + t.verifyNanos(), r.latencyNanos(),
                "a local hit costs the front's, the access node's and the verify stage's service times");
        assertEquals(SIZE, r.bodyBytes());
        assertEquals(0, proxy.cache().refused());
    }

    @Test
    void aBurstSaturatesTheHostsCores() {
        SimulatedProxy proxy = SimulatedProxies.of(world.overlay(), provider.publicKey(), direct).on(proxyVertex);
        plant(genuine(1));
        int burst = 3000;
        List<ClientResult> answers = new ArrayList<>();
        for (int i = 0; i < burst; i++) {
            proxy.get(URL, answers::add);
        }
        world.run(Duration.ofSeconds(4));
        assertEquals(burst, answers.size());
        // The front and the access loop pace what reaches the verify stage, so its queue never fills:
        // every request is a hit, and the host's two cores set the pace.
        assertTrue(answers.stream().allMatch(r -> r.source() == ClientResult.Source.REPLICA));
        assertEquals(0, proxy.cache().overloaded());
        ServiceTimes t = ServiceTimes.MEASURED;
        long perRequest = t.frontNanos() + t.accessNanos() + t.verifyNanos();
        // Requests that arrive while a read of the object is in flight join it (collapsed forwarding),
        // and the reply they share is verified once: they cost the front, not the access node and the
        // verify stage. The host's two cores still set the pace of what is left.
        long reads = proxy.cache().figures().overlayReads();
        long shared = proxy.cache().figures().readsShared();
        assertEquals(burst, reads + shared);
        assertTrue(shared > 0, "some of the burst joined a read in flight");
        long slowest = answers.stream().mapToLong(ClientResult::latencyNanos).max().orElseThrow();
        long least = burst * t.frontNanos() + reads * (t.accessNanos() + t.verifyNanos());
        assertTrue(slowest >= least / 2, "slowest " + slowest + " ns, at least " + least + " ns of work on two cores");
        assertTrue(slowest < burst * perRequest / 2, "sharing saves work: slowest " + slowest + " ns");
    }

    @Test
    void tamperedForgedAndOlderReplicasAreRefusedCountedAndTheOriginAnswers() {
        SimulatedProxy proxy = SimulatedProxies.of(world.overlay(), provider.publicKey(), direct).on(proxyVertex);
        ClientResult throughTheOverlay = get(proxy);
        assertEquals(ClientResult.Source.REPLICA, throughTheOverlay.source(), "the gateway's genuine copy");
        assertTrue(throughTheOverlay.hops() > 0, "found through the overlay: " + throughTheOverlay);
        plant(genuine(5));
        assertEquals(ClientResult.Source.REPLICA, get(proxy).source(), "a newer genuine version, on the proxy's own node");

        List<ClientResult> refused = new ArrayList<>();
        plant(tampered(6)); // the provider's signature over another body
        refused.add(get(proxy));
        plant(forged(7)); // a well-formed copy signed by a key the proxy does not trust
        refused.add(get(proxy));
        plant(genuine(2)); // a genuine copy of a version older than the one already verified: a replay
        refused.add(get(proxy));

        for (ClientResult r : refused) {
            assertEquals(ClientResult.Source.ORIGIN_MISS, r.source(), "never served: " + r);
            assertEquals(SIZE, r.bodyBytes(), "the origin's answer instead");
        }
        assertEquals(3, proxy.cache().refused());
        assertEquals(Map.of(RejectReason.BODY_DIGEST_MISMATCH, 1L, RejectReason.UNTRUSTED_PROVIDER, 1L,
                RejectReason.STALE_VERSION, 1L), proxy.cache().refusedByReason());
        assertEquals(3, direct.fetches(URL), "each refusal sent the user to the origin");
    }

    private ClientResult get(SimulatedProxy proxy) {
        ClientResult[] out = new ClientResult[1];
        proxy.get(URL, r -> out[0] = r);
        world.run(Duration.ofSeconds(4));
        assertTrue(out[0] != null, "answered within the read deadline");
        return out[0];
    }

    private void plant(byte[] copy) {
        Id guid = ObjectNames.objectGuid(provider.publicKey(), CanonicalUrl.of(URL).value(), "");
        world.overlay().node(proxyVertex).storeReplica(guid, copy);
    }

    private byte[] genuine(long version) {
        return copy(provider, version, body("the story"), body("the story"));
    }

    private byte[] tampered(long version) {
        return copy(provider, version, body("the story"), body("a forged story"));
    }

    private byte[] forged(long version) {
        return copy(SigningKey.generate(new SecureRandom()), version, body("a forged story"), body("a forged story"));
    }

    /** A copy of the story signed by {@code signer} over {@code signed}, carrying {@code carried}. */
    private byte[] copy(SigningKey signer, long version, byte[] signed, byte[] carried) {
        String url = CanonicalUrl.of(URL).value();
        long now = SimEnv.EPOCH_MILLIS + world.simulation().now() / 1_000_000L;
        Headers headers = Headers.of("Content-Type", "text/html", "Cache-Control", "max-age=3600");
        ObjectCertificate cert = ObjectCertificate.sign(signer, url, "", version, new StoredResponse(200, "OK", headers, signed),
                now, now, 3600);
        return new CachedCopy(new WebObject(cert, new StoredResponse(200, "OK", headers, carried)), Optional.empty()).toBytes();
    }

    private static byte[] body(String text) {
        byte[] body = new byte[SIZE];
        byte[] stamp = text.getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < SIZE; i++) {
            body[i] = stamp[i % stamp.length];
        }
        return body;
    }
}
