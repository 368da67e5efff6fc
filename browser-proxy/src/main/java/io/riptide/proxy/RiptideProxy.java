package io.riptide.proxy;

import io.riptide.core.crypto.PublicKey;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.dolr.client.AccessNodes;
import io.riptide.dolr.client.ClientAddress;
import io.riptide.dolr.client.OverlayClient;
import io.riptide.proxy.cache.OverlayCacheConfig;
import io.riptide.proxy.cache.ProxyCache;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The browser proxy as a user runs it: the HTTP front, and behind it the {@link ProxyCache} on an
 * overlay client's loop, reading through the nearest access nodes found from the seeds and trusting
 * one or more providers' keys; copies are verified on the client's {@value ProxyCache#VERIFY_STAGE}
 * stage. With no seeds (or in pass-through mode) it is a plain proxy: every request goes to the origin.
 */
public final class RiptideProxy implements AutoCloseable {
    private final OverlayClient client;
    private final OverlayCacheLookup cache;
    private final ProxyServer server;
    /** How long a status page or a caller waits for a figure from the cache's loop. */
    private static final long INSPECT_SECONDS = 1;

    private RiptideProxy(OverlayClient client, OverlayCacheLookup cache, ProxyServer server) {
        this.client = client;
        this.cache = cache;
        this.server = server;
    }

    /** Starts the proxy; {@code seeds} empty or {@code provider} null means no overlay behind it. */
    public static RiptideProxy start(ProxyConfig config, List<NodeAddress> seeds, PublicKey provider, OverlayCacheConfig cacheConfig) {
        return start(config, seeds, provider == null ? List.of() : List.of(provider), cacheConfig, false, Clock.systemUTC());
    }

    /**
     * Starts the proxy trusting every one of {@code providers} (the first, the primary, gets the hints
     * and insert requests); {@code seeds} or {@code providers} empty means no overlay behind it.
     */
    public static RiptideProxy start(ProxyConfig config, List<NodeAddress> seeds, List<PublicKey> providers,
                                     OverlayCacheConfig cacheConfig) {
        return start(config, seeds, providers, cacheConfig, false, Clock.systemUTC());
    }

    /**
     * As above; with {@code moreSeedsLater} (the proxy keeps listening for nodes announced on the local
     * network) the overlay is set up even with no seed yet, and {@link #addSeeds} brings them in.
     */
    public static RiptideProxy start(ProxyConfig config, List<NodeAddress> seeds, List<PublicKey> providers,
                                     OverlayCacheConfig cacheConfig, boolean moreSeedsLater) {
        return start(config, seeds, providers, cacheConfig, moreSeedsLater, Clock.systemUTC());
    }

    /**
     * As above; the overlay client listens on and advertises {@code listen} (port 0 for a free one),
     * or, when it is null, the address its seeds see it from ({@link ClientAddress#toward}).
     */
    public static RiptideProxy start(ProxyConfig config, List<NodeAddress> seeds, List<PublicKey> providers,
                                     OverlayCacheConfig cacheConfig, boolean moreSeedsLater, NodeAddress listen) {
        return start(config, seeds, providers, cacheConfig, moreSeedsLater, listen, Clock.systemUTC());
    }

    /** As above, judging freshness by {@code clock} (tests move it to make copies stale). */
    static RiptideProxy start(ProxyConfig config, List<NodeAddress> seeds, List<PublicKey> providers, OverlayCacheConfig cacheConfig,
                              Clock clock) {
        return start(config, seeds, providers, cacheConfig, false, clock);
    }

    private static RiptideProxy start(ProxyConfig config, List<NodeAddress> seeds, List<PublicKey> providers,
                                      OverlayCacheConfig cacheConfig, boolean moreSeedsLater, Clock clock) {
        return start(config, seeds, providers, cacheConfig, moreSeedsLater, null, clock);
    }

    private static RiptideProxy start(ProxyConfig config, List<NodeAddress> seeds, List<PublicKey> providers,
                                      OverlayCacheConfig cacheConfig, boolean moreSeedsLater, NodeAddress listen, Clock clock) {
        if ((seeds.isEmpty() && !moreSeedsLater) || providers.isEmpty() || config.passThrough()) {
            return new RiptideProxy(null, null, ProxyServer.start(config, CacheLookup.NONE));
        }
        OverlayClient client = OverlayClient.start(SigningKey.generate(new SecureRandom()), seeds,
                OverlayClient.Options.of(cacheConfig.readDeadline()).listening(listen != null ? listen : ClientAddress.toward(seeds))
                        .withStages(List.of(OverlayCacheLookup.verifyStage(cacheConfig))).withClock(clock));
        OverlayCacheLookup cache = OverlayCacheLookup.start(client, providers, cacheConfig, clock);
        try {
            ProxyServer server = ProxyServer.start(config.toBuilder().accessNodes(() -> accessNodes(client)).build(), cache);
            return new RiptideProxy(client, cache, server);
        } catch (RuntimeException e) {
            client.close();
            throw e;
        }
    }

    public ProxyServer server() {
        return server;
    }

    /** Adds seeds found after the start; ignored without an overlay behind the proxy. */
    public void addSeeds(List<NodeAddress> more) {
        if (client != null) {
            client.addSeeds(more);
        }
    }

    /** Adds a seed found on the local network; ignored without an overlay behind the proxy. */
    public void addDiscoveredSeed(NodeAddress seed) {
        if (client != null) {
            client.addDiscoveredSeed(seed);
        }
    }

    /** Drops a seed found on the local network whose service was withdrawn or expired. */
    public void removeDiscoveredSeed(NodeAddress seed) {
        if (client != null) {
            client.removeDiscoveredSeed(seed);
        }
    }

    /** Where the overlay client listens and what it advertises; empty without an overlay. */
    public Optional<NodeAddress> clientAddress() {
        return client == null ? Optional.empty() : Optional.of(client.address());
    }

    /** Whether an overlay is behind the proxy. */
    public boolean hasOverlay() {
        return client != null;
    }

    /** Waits until an access node answered; false if none did in time (or there is no overlay). */
    public boolean awaitAttached(Duration timeout) throws InterruptedException {
        return client != null && client.awaitAttached(timeout);
    }

    /** Replicas refused by verification so far. */
    public long rejectedReplicas() {
        return cache == null ? 0 : inspect(ProxyCache::refused, -1L);
    }

    /** A figure of the proxy's cache, read on its loop; {@code unknown} if the loop does not answer in time. */
    public <T> T inspect(java.util.function.Function<ProxyCache, T> read, T unknown) {
        if (cache == null) {
            return unknown;
        }
        try {
            return cache.inspect(read).get(INSPECT_SECONDS, TimeUnit.SECONDS);
        } catch (Exception e) {
            return unknown;
        }
    }

    /** The access nodes in use, nearest first (the one reads and reports go through); empty without an overlay. */
    public List<NodeHandle> accessNodes() {
        if (client == null) {
            return List.of();
        }
        try {
            return client.accessNodes().get(INSPECT_SECONDS, TimeUnit.SECONDS).stream().map(AccessNodes.Access::node).toList();
        } catch (Exception e) {
            return List.of();
        }
    }

    /** The access nodes in use, for the status page. */
    private static List<String> accessNodes(OverlayClient client) {
        try {
            return client.accessNodes().get(INSPECT_SECONDS, TimeUnit.SECONDS).stream()
                    .map(a -> a.node() + String.format(" (%.2f ms)", a.rttNanos() / 1e6)).toList();
        } catch (Exception e) {
            return List.of("unavailable: " + e.getMessage());
        }
    }

    @Override
    public void close() {
        server.close();
        if (client != null) {
            client.close();
        }
        if (cache != null) {
            cache.close(); // after the loops that use its memory tier are stopped
        }
    }
}
