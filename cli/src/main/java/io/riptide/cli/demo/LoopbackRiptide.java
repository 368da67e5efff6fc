package io.riptide.cli.demo;

import io.netty.channel.EventLoopGroup;
import io.riptide.cachemanager.CacheManager;
import io.riptide.cachemanager.CacheManagerConfig;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.net.NettyTransport;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.dolr.DolrCodec;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.server.OverlayServer;
import io.riptide.dolr.server.ServerSettings;
import io.riptide.gateway.Gateway;
import io.riptide.gateway.GatewayConfig;
import io.riptide.gateway.origin.OriginFetcher;
import io.riptide.gateway.origin.OriginFetcherConfig;
import io.riptide.gateway.origin.OriginTls;
import io.riptide.proxy.ProxyConfig;
import io.riptide.proxy.RiptideProxy;
import io.riptide.proxy.cache.OverlayCacheConfig;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

/**
 * A whole small Riptide on loopback, in one process: storage nodes over real TCP, a gateway with a
 * real origin fetcher, cache managers taking the proxy's hints (the nearest one gets each hint, by
 * anycast), and the browser proxy reading through the overlay. The demo and the benchmarks run it.
 */
public final class LoopbackRiptide implements AutoCloseable {
    /** Maintenance fast enough that failures are noticed within a demo's patience. */
    public static final DolrConfig FAST = DolrConfig.defaults().withMaintenance(Duration.ofMillis(500), Duration.ofSeconds(2),
            Duration.ofSeconds(3), Duration.ofSeconds(2));

    private final SigningKey provider = SigningKey.generate(new SecureRandom());
    private final EventLoopGroup group;
    private final OriginFetcher fetcher;
    private final List<OverlayServer> nodes = new ArrayList<>();
    private final OverlayServer gateway;
    private final List<OverlayServer> cacheManagers = new ArrayList<>();
    // One holder per manager: each agent is made on its node's start, possibly on another thread.
    private final List<AtomicReference<CacheManager>> managerAgents = new ArrayList<>();
    private final Gateway[] gatewayAgent = new Gateway[1];
    private final RiptideProxy proxy;
    private final HttpClient browser;

    /** Starts {@code storageNodes} nodes, a gateway, a cache manager, and the proxy on {@code proxyPort} of 127.0.0.1 (0: any free port). */
    public LoopbackRiptide(int storageNodes, int proxyPort) throws InterruptedException {
        this(storageNodes, 1, proxyPort);
    }

    /** As {@link #LoopbackRiptide(int, int)} with {@code managers} cache managers (at least one). */
    public LoopbackRiptide(int storageNodes, int managers, int proxyPort) throws InterruptedException {
        this(storageNodes, managers, proxyPort, OverlayCacheConfig.defaults());
    }

    /**
     * A proxy that keeps none of its own fetches: each repeat goes through the overlay, so it shows (and
     * {@link #makeHit} waits for) what the overlay holds. For tests and benchmarks of the overlay path.
     */
    public static final OverlayCacheConfig OVERLAY_ONLY = OverlayCacheConfig.defaults().withKeepOwnFetches(false);

    /** As above, the proxy's cache configured by {@code proxyCache}. */
    public LoopbackRiptide(int storageNodes, int managers, int proxyPort, OverlayCacheConfig proxyCache) throws InterruptedException {
        this(storageNodes, managers, proxyPort, OriginTls.systemDefault(), UnaryOperator.identity(), proxyCache);
    }

    /**
     * As above, the gateway verifying https origins with {@code originTls}, the proxy's configuration
     * passed through {@code proxyOptions} (HTTPS interception, say) and its cache configured by {@code proxyCache}.
     */
    public LoopbackRiptide(int storageNodes, int managers, int proxyPort, OriginTls originTls,
            UnaryOperator<ProxyConfig.Builder> proxyOptions, OverlayCacheConfig proxyCache) throws InterruptedException {
        if (managers < 1) {
            throw new IllegalArgumentException("at least one cache manager, not " + managers);
        }
        group = NettyTransport.current().newGroup(Math.min(4, 2 * Runtime.getRuntime().availableProcessors()));
        // The demo's origins are on loopback, which a real gateway refuses (anyone in the overlay could make
        // it fetch the gateway host's own services): this one gateway, on one machine, allows them.
        fetcher = new OriginFetcher(group, OriginFetcherConfig.defaults().withRate(10_000, 10_000).withPrivateOrigins(true),
                originTls, Clock.systemUTC());
        SecureRandom random = new SecureRandom();
        try {
            OverlayServer first = OverlayServer.start(settings(random, null), group);
            nodes.add(first);
            if (!first.awaitJoined(Duration.ofSeconds(10))) {
                throw new IllegalStateException("the first node did not start");
            }
            for (int i = 1; i < storageNodes; i++) {
                nodes.add(OverlayServer.start(settings(random, first.address()), group));
            }
            gateway = OverlayServer.start(settings(random, first.address()).withApplication(n -> {
                gatewayAgent[0] = (Gateway) Gateway.factory(provider, fetcher::fetch, GatewayConfig.defaults()).apply(n);
                return gatewayAgent[0];
            }, DolrCodec.create()), group);
            for (int i = 0; i < managers; i++) {
                AtomicReference<CacheManager> agent = new AtomicReference<>();
                managerAgents.add(agent);
                cacheManagers.add(OverlayServer.start(settings(random, first.address()).withApplication(n -> {
                    agent.set((CacheManager) CacheManager.factory(provider.publicKey(), CacheManagerConfig.defaults()).apply(n));
                    return agent.get();
                }, DolrCodec.create()), group));
            }
            for (OverlayServer s : all()) {
                if (!s.awaitJoined(Duration.ofSeconds(20))) {
                    throw new IllegalStateException("node " + s.address() + " did not join");
                }
            }
            Thread.sleep(1500); // leaf sets settle and the gateway's service pointers land
            proxy = RiptideProxy.start(proxyOptions.apply(ProxyConfig.builder().host("127.0.0.1").port(proxyPort)).build(),
                    List.of(first.address()), provider.publicKey(), proxyCache);
            proxy.awaitAttached(Duration.ofSeconds(10));
        } catch (RuntimeException | InterruptedException e) {
            close();
            throw e;
        }
        browser = HttpClient.newBuilder().proxy(ProxySelector.of(proxyAddress())).connectTimeout(Duration.ofSeconds(5)).build();
    }

    private static ServerSettings settings(SecureRandom random, NodeAddress join) {
        return ServerSettings.of(SigningKey.generate(random), new NodeAddress("127.0.0.1", 0)).joining(join).withDolr(FAST);
    }

    /** Every overlay node: storage nodes and the gateway. */
    public List<OverlayServer> all() {
        List<OverlayServer> all = new ArrayList<>(nodes);
        if (gateway != null) {
            all.add(gateway);
        }
        all.addAll(cacheManagers);
        return all;
    }

    public List<OverlayServer> storageNodes() {
        return nodes;
    }

    public OverlayServer gateway() {
        return gateway;
    }

    /** The gateway agent (use it on the gateway node's loop, e.g. through {@code gateway().call}). */
    public Gateway gatewayAgent() {
        return gatewayAgent[0];
    }

    /** The first cache manager's agent (use it on its node's loop, e.g. through {@code cacheManager().call}). */
    public CacheManager cacheManagerAgent() {
        return agentOf(cacheManager());
    }

    /** The first cache manager's node. */
    public OverlayServer cacheManager() {
        return cacheManagers.get(0);
    }

    /** Every cache manager's node, in the order they started. */
    public List<OverlayServer> cacheManagers() {
        return List.copyOf(cacheManagers);
    }

    /** The agent running on cache manager node {@code node}. */
    public CacheManager agentOf(OverlayServer node) {
        int i = cacheManagers.indexOf(node);
        if (i < 0) {
            throw new IllegalArgumentException(node.self() + " runs no cache manager here");
        }
        return managerAgents.get(i).get();
    }

    public SigningKey provider() {
        return provider;
    }

    public RiptideProxy proxy() {
        return proxy;
    }

    public InetSocketAddress proxyAddress() {
        return proxy.server().address();
    }

    /** Fetches {@code url} through the proxy as a browser would; returns the response. */
    public HttpResponse<byte[]> fetch(URI url) throws Exception {
        return browser.send(HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(20)).GET().build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    /**
     * Fetches {@code url} through the proxy until it is served from the overlay (the misses make the
     * gateway insert it); returns false if that did not happen within {@code timeout}. Needs a proxy
     * that does not keep its own fetches ({@link #OVERLAY_ONLY}): a private hit is not the overlay's.
     */
    public boolean makeHit(URI url, Duration timeout) throws Exception {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            String status = fetch(url).headers().firstValue("Cache-Status").orElse("");
            if (status.contains("hit") && !status.contains("detail=private")) {
                return true;
            }
            Thread.sleep(100);
        }
        return false;
    }

    @Override
    public void close() {
        if (proxy != null) {
            proxy.close();
        }
        for (OverlayServer s : all()) {
            s.close();
        }
        fetcher.close();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
}
