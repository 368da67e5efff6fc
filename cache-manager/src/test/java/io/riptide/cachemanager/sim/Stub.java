package io.riptide.cachemanager.sim;

import io.riptide.cachemanager.CacheManager;
import io.riptide.cachemanager.CacheManagerConfig;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.http.Headers;
import io.riptide.core.id.Id;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.runtime.sim.SimEnv;
import io.riptide.core.runtime.sim.Simulation;
import io.riptide.core.wire.WireMessage;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.OverlayApplication;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.simulation.GroupLatency;
import io.riptide.dolr.location.LocateResult;
import io.riptide.dolr.simulation.SimulatedOverlay;
import io.riptide.gateway.Gateway;
import io.riptide.gateway.GatewayConfig;
import io.riptide.gateway.origin.OriginResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * A settled simulated overlay of several stubs with one provider's agents on chosen vertices: a
 * real gateway whose origin is a model answering at once (counting fetches), cache managers, and
 * plain nodes that play proxies sending hints.
 */
public final class Stub {
    public final Simulation sim;
    public final GroupLatency latency;
    public final SimulatedOverlay overlay;
    public final SigningKey provider;
    public final Id managerService;
    private final Map<Integer, CacheManager> managers = new HashMap<>();
    private int originFetches;
    private final List<Headers> originRequests = new ArrayList<>();
    private boolean originVaries;
    private Gateway gateway;

    /**
     * {@code nodes} nodes in {@code groups} groups; a gateway at {@code gatewayVertex} and a cache
     * manager on each of {@code managerVertices}.
     */
    public Stub(long seed, int nodes, int groups, int gatewayVertex, CacheManagerConfig config, int... managerVertices) {
        this(seed, nodes, groups, gatewayVertex, false, config, managerVertices);
    }

    /**
     * As above; if {@code varyOnAcceptEncoding}, the origin answers "gzip:" bodies to requests that
     * accept gzip and plain ones to the rest, with {@code Vary: Accept-Encoding} on both.
     */
    public Stub(long seed, int nodes, int groups, int gatewayVertex, boolean varyOnAcceptEncoding, CacheManagerConfig config,
                int... managerVertices) {
        this.originVaries = varyOnAcceptEncoding;
        this.sim = new Simulation(seed);
        this.latency = new GroupLatency(groups);
        this.overlay = new SimulatedOverlay(sim, latency, DolrConfig.defaults(), latency::groupOf);
        overlay.checkWireFormat();
        byte[] seedBytes = new byte[32];
        seedBytes[0] = (byte) seed;
        this.provider = SigningKey.fromSeed(seedBytes);
        this.managerService = ObjectNames.cacheManagerGuid(provider.publicKey());
        GatewayConfig gatewayConfig = GatewayConfig.defaults();
        for (int v = 0; v < nodes; v++) {
            if (v == gatewayVertex) {
                Function<OverlayNode, OverlayApplication> gatewayFactory = Gateway.factory(provider, request -> {
                    originFetches++;
                    originRequests.add(request.headers());
                    boolean gzip = originVaries && request.headers().elements("Accept-Encoding").contains("gzip");
                    Headers head = Headers.of("Content-Type", "text/plain", "Cache-Control", "max-age=60");
                    if (originVaries) {
                        head = head.with("Vary", "Accept-Encoding");
                    }
                    return CompletableFuture.completedFuture(new OriginResponse(request.url(), 200, "OK", head,
                            ((gzip ? "gzip:" : "") + "body of " + request.url()).getBytes(StandardCharsets.UTF_8),
                            SimEnv.EPOCH_MILLIS, SimEnv.EPOCH_MILLIS, 0));
                }, gatewayConfig);
                overlay.add(v, node -> {
                    gateway = (Gateway) gatewayFactory.apply(node);
                    return gateway;
                });
            } else if (contains(managerVertices, v)) {
                addManager(v, config);
            } else {
                overlay.add(v);
            }
            sim.runFor(Duration.ofMillis(50).toNanos());
        }
        run(Duration.ofSeconds(40));
    }

    private static boolean contains(int[] values, int v) {
        for (int x : values) {
            if (x == v) {
                return true;
            }
        }
        return false;
    }

    /** Starts a cache manager at {@code vertex} now (it joins the running overlay). */
    public CacheManager addManager(int vertex, CacheManagerConfig config) {
        Function<OverlayNode, OverlayApplication> factory = CacheManager.factory(provider.publicKey(), config);
        CacheManager[] holder = new CacheManager[1];
        overlay.add(vertex, node -> {
            holder[0] = (CacheManager) factory.apply(node);
            return holder[0];
        });
        managers.put(vertex, holder[0]);
        return holder[0];
    }

    public Gateway gateway() {
        return gateway;
    }

    public CacheManager manager(int vertex) {
        return managers.get(vertex);
    }

    public OverlayNode node(int vertex) {
        return overlay.node(vertex);
    }

    public int originFetches() {
        return originFetches;
    }

    /** From now on the origin model varies on Accept-Encoding, or stops varying. */
    public void originVaries(boolean varies) {
        originVaries = varies;
    }

    /** The request headers of every origin fetch so far, in order. */
    public List<Headers> originRequests() {
        return List.copyOf(originRequests);
    }

    /** Sends {@code hint} from {@code vertex} to the nearest cache manager; the array gets who took it (or the failure). */
    public LocateResult[] hint(int vertex, WireMessage hint) {
        LocateResult[] out = new LocateResult[1];
        node(vertex).anycast(managerService, hint, node(vertex).config().defaultTtl(), r -> out[0] = r);
        return out;
    }

    /** Reads {@code guid} from {@code vertex} and runs until the answer is in. */
    public LocateResult read(int vertex, Id guid) {
        LocateResult[] out = new LocateResult[1];
        node(vertex).read(guid, node(vertex).config().defaultTtl(), r -> out[0] = r);
        run(node(vertex).config().locateDeadline().plusSeconds(1));
        return out[0];
    }

    /** The group (stub) of the node that answered, or -1. */
    public int groupOf(LocateResult r) {
        return r == null || !r.found() ? -1 : latency.groupOf(overlay.vertexOf(r.replica().id()));
    }

    public void run(Duration d) {
        sim.runFor(d.toNanos());
    }
}
