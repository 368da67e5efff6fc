package io.riptide.proxy.upstream;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.pool.ChannelHealthChecker;
import io.netty.channel.pool.ChannelPool;
import io.netty.channel.pool.FixedChannelPool;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.resolver.AddressResolverGroup;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import io.riptide.core.net.ClientTls;
import io.riptide.core.net.CheckedAddressResolverGroup;
import io.riptide.core.net.DnsResolvers;
import io.riptide.core.net.ForbiddenAddressException;
import io.riptide.core.net.NettyTransport;
import io.riptide.proxy.ProxyConfig;
import io.riptide.proxy.ProxyStats;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Bounded keep-alive connection pools, one per origin (scheme, host and port) per event loop. Keying
 * by the browser connection's event loop keeps a whole exchange on one thread: no hand-offs, no
 * locks, and backpressure between the two sockets is a plain autoRead toggle. A connection to an
 * {@code https://} origin is handed out only once its TLS handshake succeeded, that is once the
 * origin's certificate verified; no request is written before.
 */
public final class UpstreamClient implements AutoCloseable {
    private record Key(EventLoop loop, Origin origin) {
    }

    /** One origin's connections on one loop, and the requests waiting for them. */
    private record Lane(FixedChannelPool pool, OriginQueue queue) {
    }

    /**
     * How long an origin that verified stays verified for new intercepted connections: a minute of
     * CONNECTs to it skip the check (each new origin connection still verifies the certificate).
     */
    private static final Duration VERIFIED_FOR = Duration.ofMinutes(1);

    private final ProxyConfig config;
    private final ProxyStats stats;
    private final ConcurrentHashMap<Key, Lane> lanes = new ConcurrentHashMap<>();
    private final OriginStage originStage = new OriginStage();
    /** The verifying TLS client context for intercepted origins; null when nothing is intercepted. */
    private final SslContext tls;
    private final Cache<Origin, Boolean> verifiedLately = Caffeine.newBuilder()
            .maximumSize(10_000).expireAfterWrite(VERIFIED_FOR).build();
    private volatile boolean closed;

    public UpstreamClient(ProxyConfig config, ProxyStats stats) {
        this.config = config;
        this.stats = stats;
        this.tls = config.interception().on() ? ClientTls.context(config.interception().originTrust()) : null;
        // Judged on the address each connect goes to, once resolved: an IP literal and a name alike.
        this.resolver = config.destinations().enforced(config.allowFrom())
                ? new CheckedAddressResolverGroup(dns, config::destinationRefusal) : dns;
    }

    ProxyConfig config() {
        return config;
    }

    ProxyStats stats() {
        return stats;
    }

    /** The pool of connections to {@code origin} whose channels run on {@code loop}. */
    ChannelPool pool(EventLoop loop, Origin origin) {
        return lane(loop, origin).pool();
    }

    /** The requests admitted to {@code origin}'s connections on {@code loop}, and those waiting for them. */
    OriginQueue queue(EventLoop loop, Origin origin) {
        return lane(loop, origin).queue();
    }

    /** The figures of every origin queue together: the proxy's {@value OriginStage#NAME} stage. */
    public OriginStage originStage() {
        return originStage;
    }

    private Lane lane(EventLoop loop, Origin origin) {
        if (closed) {
            throw new IllegalStateException("the upstream client is closed");
        }
        return lanes.computeIfAbsent(new Key(loop, origin), this::newLane);
    }

    private Lane newLane(Key key) {
        OriginAdmission a = config.originAdmission();
        // The queue admits as many at once as the pool holds connections, so the pool itself never makes anyone wait.
        return new Lane(newPool(key), new OriginQueue(key.loop(), config.upstreamConnectionsPerOrigin(), a.maxWaiting(), a.limit(config.connectTimeout()),
                System::nanoTime, originStage));
    }

    private final DnsResolvers dns = new DnsResolvers();
    /** {@link #dns}, refusing the addresses the destination policy refuses when it applies. */
    private final AddressResolverGroup<InetSocketAddress> resolver;

    private FixedChannelPool newPool(Key key) {
        Bootstrap b = new Bootstrap()
                .group(key.loop())
                // The browser connection's loop, epoll or NIO: the channel must be of its kind.
                .channel(NettyTransport.socketChannelFor(key.loop()))
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, config.connectTimeout().toMillis()))
                .option(ChannelOption.TCP_NODELAY, true)
                // Unresolved, so the name is looked up at each connect rather than pinned forever, by a DNS
                // client on the loop (the JVM's resolver would block the loop and every connection on it).
                .resolver(resolver)
                .remoteAddress(InetSocketAddress.createUnresolved(key.origin().host(), key.origin().port()));
        // Most recently used first, so surplus connections go idle and their idle closer reaps them.
        return new FixedChannelPool(b, new UpstreamConnections(config, stats, key.origin(), tls), ChannelHealthChecker.ACTIVE, null, -1,
                // Waiters are the origin queue's; the few here are acquisitions racing a release, or a retry's.
                config.upstreamConnectionsPerOrigin(), config.originAdmission().maxWaiting(), true, true);
    }

    /**
     * A connection from {@code pool} ready for a request: for a TLS origin, once its handshake
     * succeeded (a reused connection's did long ago). A handshake that fails closes the connection and
     * fails the acquisition with the handshake's cause; a refused certificate is counted.
     */
    Future<Channel> acquire(ChannelPool pool, EventLoop loop) {
        Promise<Channel> ready = loop.newPromise();
        pool.acquire().addListener((Future<Channel> f) -> {
            if (!f.isSuccess()) {
                ready.tryFailure(f.cause());
                return;
            }
            Channel c = f.getNow();
            SslHandler handler = c.pipeline().get(SslHandler.class);
            if (handler == null) {
                ready.trySuccess(c);
                return;
            }
            handler.handshakeFuture().addListener(h -> {
                if (h.isSuccess()) {
                    ready.trySuccess(c);
                    return;
                }
                if (Failures.certificateProblem(h.cause()) != null) {
                    stats.originCertificateRefused();
                }
                c.close();
                pool.release(c);
                ready.tryFailure(h.cause());
            });
        });
        return ready;
    }

    /**
     * Verifies {@code origin}'s certificate before an intercepted connection is answered: a pooled
     * connection to it (made, and so verified, if there is none) is taken and put back, where the
     * first request's miss finds it. {@code done} gets null when the origin verified (or did within
     * the last minute), else why not; it runs on {@code loop}.
     */
    public void verify(EventLoop loop, Origin origin, Consumer<UpstreamFailure> done) {
        if (verifiedLately.getIfPresent(origin) != null) {
            done.accept(null);
            return;
        }
        ChannelPool pool;
        try {
            pool = pool(loop, origin);
        } catch (IllegalStateException closedAlready) {
            done.accept(new UpstreamFailure(502, "the proxy is shutting down"));
            return;
        }
        acquire(pool, loop).addListener((Future<Channel> f) -> {
            if (!f.isSuccess()) {
                done.accept(Failures.connect(origin, f.cause(), config));
                return;
            }
            pool.release(f.getNow());
            verifiedLately.put(origin, Boolean.TRUE);
            done.accept(null);
        });
    }

    /**
     * The proxy's resolver of origin and tunnel names, non-blocking, one DNS client per loop; it fails
     * a name or address the destination policy refuses with a {@link ForbiddenAddressException}.
     */
    public AddressResolverGroup<InetSocketAddress> resolver() {
        return resolver;
    }

    /** Closes every idle connection and the DNS clients; call before the event loops shut down. */
    @Override
    public void close() {
        closed = true;
        lanes.values().forEach(l -> l.pool().closeAsync());
        lanes.clear();
        dns.close();
    }
}
