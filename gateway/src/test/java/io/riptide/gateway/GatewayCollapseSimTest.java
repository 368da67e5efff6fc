package io.riptide.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.riptide.core.crypto.SigningKey;
import io.riptide.core.gateway.GatewayMessages.InsertReply;
import io.riptide.core.gateway.GatewayMessages.Outcome;
import io.riptide.core.http.CanonicalUrl;
import io.riptide.core.http.Headers;
import io.riptide.core.runtime.Env;
import io.riptide.core.runtime.sim.SimEnv;
import io.riptide.core.runtime.sim.Simulation;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.simulation.GroupLatency;
import io.riptide.dolr.simulation.SimulatedOverlay;
import io.riptide.gateway.client.GatewayClient;
import io.riptide.gateway.origin.OriginResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Request collapsing across two gateways in the simulated runtime, placed exactly: the lease on a
 * URL lives at its root, and that root can be one of the gateways themselves, which then hears its
 * own claim's answer before the claim call returns.
 */
class GatewayCollapseSimTest {
    private static final int NODES = 16;
    private static final int[] GATEWAYS = {0, 1};
    private static final int CLIENT = 2;
    private static final Duration ORIGIN_DELAY = Duration.ofMillis(300);

    private final Simulation sim = new Simulation(7);
    private final SimulatedOverlay overlay = new SimulatedOverlay(sim, new GroupLatency(2), DolrConfig.defaults(), v -> v % 2);
    private final SigningKey provider = SigningKey.fromSeed(new byte[32]);
    private final Map<String, Integer> fetches = new HashMap<>();
    private final Gateway[] gateways = new Gateway[GATEWAYS.length];
    private GatewayClient client;

    private void start() {
        for (int v = 0; v < NODES; v++) {
            int vertex = v;
            if (v < GATEWAYS.length) {
                overlay.add(v, node -> {
                    gateways[vertex] = (Gateway) Gateway.factory(provider, request -> slowOrigin(node.env(), request.url().toString()),
                            GatewayConfig.defaults()).apply(node);
                    return gateways[vertex];
                });
            } else if (v == CLIENT) {
                overlay.add(v, node -> {
                    client = new GatewayClient(node, provider.publicKey(), Duration.ofSeconds(20));
                    return client;
                });
            } else {
                overlay.add(v);
            }
            sim.runFor(Duration.ofMillis(50).toNanos());
        }
        sim.runFor(Duration.ofSeconds(30).toNanos());
    }

    private CompletableFuture<OriginResponse> slowOrigin(Env env, String url) {
        fetches.merge(url, 1, Integer::sum);
        CompletableFuture<OriginResponse> f = new CompletableFuture<>();
        env.schedule(ORIGIN_DELAY, () -> f.complete(new OriginResponse(java.net.URI.create(url), 200, "OK",
                Headers.of("Content-Type", "text/plain", "Cache-Control", "max-age=60"),
                ("body of " + url).getBytes(StandardCharsets.UTF_8), SimEnv.EPOCH_MILLIS, SimEnv.EPOCH_MILLIS, 0)));
        return f;
    }

    /** A URL whose lease (keyed by its job key) has its root on gateway {@code vertex}. */
    private String urlRootedAt(int vertex) {
        for (int i = 0; i < 10_000; i++) {
            String url = "http://origin.test/page-" + i;
            if (overlay.trueRoot(gateways[0].inserter().jobKey(CanonicalUrl.of(url), Headers.EMPTY)) == vertex) {
                return url;
            }
        }
        throw new AssertionError("no URL rooted at vertex " + vertex);
    }

    private List<InsertReply[]> ask(int gatewayIndex, String url, int times) {
        List<InsertReply[]> replies = new ArrayList<>();
        for (int i = 0; i < times; i++) {
            InsertReply[] out = new InsertReply[1];
            client.insertVia(overlay.node(GATEWAYS[gatewayIndex]).self().address(), url, Headers.EMPTY, r -> out[0] = r);
            replies.add(out);
        }
        return replies;
    }

    @Test
    void requestsAtTheLeaseRootGatewayWhileTheOtherFetchesAreAllAnsweredFromOneFetch() {
        start();
        for (int root = 0; root < GATEWAYS.length; root++) {
            int other = 1 - root;
            String url = urlRootedAt(GATEWAYS[root]);
            List<InsertReply[]> replies = ask(other, url, 5);
            sim.runFor(Duration.ofMillis(100).toNanos()); // the other gateway now holds the lease and is fetching
            replies.addAll(ask(root, url, 5));
            sim.runFor(Duration.ofSeconds(25).toNanos());
            for (InsertReply[] r : replies) {
                assertNotNull(r[0], "every requester hears back");
                assertEquals(Outcome.INSERTED, r[0].outcome(), r[0].reason());
                assertEquals(1, r[0].version());
            }
            assertEquals(1, fetches.get(url), "one origin fetch for requests through both gateways");
        }
    }
}
