package io.riptide.simulator.agents;

import io.riptide.core.crypto.PublicKey;
import io.riptide.core.object.PushMode;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.simulation.SimulatedOverlay;
import io.riptide.proxy.cache.InsertPolicy;
import io.riptide.proxy.cache.OverlayCacheConfig;
import io.riptide.simulator.stages.HostStages;
import java.util.List;

/**
 * The browser proxies of one simulated experiment: the shipped proxy's cache on chosen nodes' hosts,
 * all trusting the same providers, reading the same origin and configured as a user's proxy is
 * (the paper's, {@link #PAPER}, or as the scenario says). Defines the hosts' stages on the network
 * ({@link HostStages}, with this configuration's verify queue), so every request any of them serves
 * costs its host's cores what parsing, reading and verifying it costs, and a full verify stage sheds.
 */
public final class SimulatedProxies {
    private final SimulatedOverlay overlay;
    private final List<PublicKey> providers;
    private final SimulatedOrigin origin;
    private final PushMode pushMode;
    private final OverlayCacheConfig config;
    private final boolean useBloom;
    /** Each proxy's memory tier (verified copies and its own fetches), in bytes; 0: none. */
    private final long memoryBytes;

    /**
     * The paper's proxy (§4.3): every storable miss hinted ({@link InsertPolicy#FIRST_MISS}), and no
     * memory tier, so every hit is an overlay read. The paper's experiments run it; the shipped
     * proxy's own defaults (second sight, a private tier) are what {@code trace-replay} measures.
     */
    public static final OverlayCacheConfig PAPER = OverlayCacheConfig.defaults().withInsertPolicy(InsertPolicy.FIRST_MISS);

    private SimulatedProxies(SimulatedOverlay overlay, List<PublicKey> providers, SimulatedOrigin origin, PushMode pushMode,
                             OverlayCacheConfig config, boolean useBloom, long memoryBytes) {
        this.memoryBytes = memoryBytes;
        this.overlay = overlay;
        this.providers = List.copyOf(providers);
        this.origin = origin;
        this.pushMode = pushMode;
        this.config = config;
        this.useBloom = useBloom;
        HostStages.define(overlay.network(), config);
    }

    /** Proxies trusting {@code provider}, going to {@code origin} on a miss, configured as the paper's ({@link #PAPER}). */
    public static SimulatedProxies of(SimulatedOverlay overlay, PublicKey provider, SimulatedOrigin origin) {
        return new SimulatedProxies(overlay, List.of(provider), origin, PushMode.NONE, PAPER, true, 0);
    }

    /** These proxies each with a memory tier of {@code bytes} (0: none) that keeps their own fetches too. */
    public SimulatedProxies withMemory(long bytes) {
        return new SimulatedProxies(overlay, providers, origin, pushMode, config, useBloom, bytes);
    }

    /** These proxies serving URLs in {@code mode} while the gateway's newest heartbeat or update is recent enough. */
    public SimulatedProxies withPushMode(PushMode mode) {
        return new SimulatedProxies(overlay, providers, origin, mode, config, useBloom, memoryBytes);
    }

    /** These proxies reading without (false) or with the access node's Bloom filters first. */
    public SimulatedProxies withBloom(boolean bloom) {
        return new SimulatedProxies(overlay, providers, origin, pushMode, config, bloom, memoryBytes);
    }

    /** These proxies configured by {@code cacheConfig}. */
    public SimulatedProxies withConfig(OverlayCacheConfig cacheConfig) {
        return new SimulatedProxies(overlay, providers, origin, pushMode, cacheConfig, useBloom, memoryBytes);
    }

    /** A proxy on the host of the node at {@code vertex}, its load reports started. */
    public SimulatedProxy on(int vertex) {
        OverlayNode node = overlay.node(vertex);
        if (node == null) {
            throw new IllegalArgumentException("no node at vertex " + vertex);
        }
        return new SimulatedProxy(node, providers, origin, pushMode, config, useBloom, memoryBytes);
    }
}
