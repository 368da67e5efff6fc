package io.riptide.simulator.agents;

import io.riptide.cachemanager.CacheManager;
import io.riptide.cachemanager.CacheManagerConfig;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.object.PushMode;
import io.riptide.dolr.OverlayApplication;
import io.riptide.dolr.OverlayNode;
import io.riptide.gateway.Gateway;
import io.riptide.gateway.GatewayConfig;
import java.util.function.Consumer;
import java.util.function.Function;

/** Factories for the real agents on simulated nodes, handing the started agent to the scenario. */
public final class Agents {
    private Agents() {
    }

    /** A gateway for {@code provider} fetching from {@code origin} over the node's own clock. */
    public static Function<OverlayNode, OverlayApplication> gateway(SigningKey provider, SimulatedOrigin origin,
            GatewayConfig config, PushMode pushMode, Consumer<Gateway> started) {
        return node -> {
            Gateway g = (Gateway) Gateway.factory(provider, origin.seenFrom(node.env()), config, pushMode).apply(node);
            started.accept(g);
            return g;
        };
    }

    /**
     * As {@link #gateway(SigningKey, SimulatedOrigin, GatewayConfig, PushMode, Consumer)}, for a provider key
     * that succeeds others by the rotations in {@code certificate}, which the gateway publishes.
     */
    public static Function<OverlayNode, OverlayApplication> gateway(SigningKey provider, SimulatedOrigin origin,
            GatewayConfig config, PushMode pushMode, io.riptide.core.object.KeyRecords certificate, Consumer<Gateway> started) {
        return node -> {
            Gateway g = (Gateway) Gateway.factory(provider, origin.seenFrom(node.env()), config, pushMode, certificate).apply(node);
            started.accept(g);
            return g;
        };
    }

    /** A cache manager for {@code provider}. */
    public static Function<OverlayNode, OverlayApplication> cacheManager(SigningKey provider, CacheManagerConfig config,
            Consumer<CacheManager> started) {
        return node -> {
            CacheManager m = (CacheManager) CacheManager.factory(provider.publicKey(), config).apply(node);
            started.accept(m);
            return m;
        };
    }

    /** A provider key derived from {@code seed} and {@code name}, so each run signs the same way. */
    public static SigningKey provider(long seed, String name) {
        try {
            return SigningKey.fromSeed(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(("provider\n" + seed + "\n" + name).getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A gateway configuration that never starts monitors of its own: the system without push. */
    public static GatewayConfig withoutMonitors(GatewayConfig c) {
        return new GatewayConfig(c.maxJobs(), c.leaseTtl(), c.recentResults(), c.maxObjectBytes(), Integer.MAX_VALUE,
                c.staleWindow(), c.minMonitorInterval(), c.maxMonitorInterval(), 0, c.publishers(), c.pushClockSkew());
    }
}
