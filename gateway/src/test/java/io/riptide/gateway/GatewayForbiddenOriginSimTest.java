package io.riptide.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.riptide.core.crypto.SigningKey;
import io.riptide.core.gateway.GatewayMessages.InsertReply;
import io.riptide.core.gateway.GatewayMessages.Outcome;
import io.riptide.core.http.Headers;
import io.riptide.core.runtime.sim.Simulation;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.simulation.GroupLatency;
import io.riptide.dolr.simulation.SimulatedOverlay;
import io.riptide.gateway.client.GatewayClient;
import io.riptide.gateway.origin.FetchException;
import io.riptide.gateway.origin.FetchException.Reason;
import io.riptide.gateway.origin.OriginResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * An origin the fetcher refuses for its address is answered REJECTED, with the fetcher's reason, so
 * the requester hears that this gateway will not fetch it rather than a failure worth retrying.
 */
class GatewayForbiddenOriginSimTest {
    private static final String URL = "http://10.1.2.3/intranet";
    private static final String WHY = "not fetching " + URL + ": 10.1.2.3 is a private address; this gateway fetches public "
            + "origins only (allow-private-origins changes that)";

    @Test
    void aRefusedOriginIsRejectedWithTheFetchersReason() {
        Simulation sim = new Simulation(11);
        SimulatedOverlay overlay = new SimulatedOverlay(sim, new GroupLatency(2), DolrConfig.defaults(), v -> v % 2);
        SigningKey provider = SigningKey.fromSeed(new byte[32]);
        AtomicInteger fetches = new AtomicInteger();
        GatewayClient[] client = new GatewayClient[1];
        for (int v = 0; v < 6; v++) {
            if (v == 0) {
                overlay.add(v, node -> Gateway.factory(provider, request -> {
                    fetches.incrementAndGet();
                    return CompletableFuture.<OriginResponse>failedFuture(
                            new FetchException(Reason.FORBIDDEN_ORIGIN, request.url(), WHY));
                }, GatewayConfig.defaults()).apply(node));
            } else if (v == 1) {
                overlay.add(v, node -> {
                    client[0] = new GatewayClient(node, provider.publicKey(), Duration.ofSeconds(20));
                    return client[0];
                });
            } else {
                overlay.add(v);
            }
            sim.runFor(Duration.ofMillis(50).toNanos());
        }
        sim.runFor(Duration.ofSeconds(30).toNanos());

        InsertReply[] reply = new InsertReply[1];
        client[0].insertVia(overlay.node(0).self().address(), URL, Headers.EMPTY, r -> reply[0] = r);
        sim.runFor(Duration.ofSeconds(10).toNanos());
        assertNotNull(reply[0], "the requester hears back");
        assertEquals(Outcome.REJECTED, reply[0].outcome(), reply[0].reason());
        assertEquals(WHY, reply[0].reason());
        assertEquals(0, reply[0].version());
        assertEquals(1, fetches.get());
    }
}
