package io.riptide.proxy.upstream;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.pool.ChannelHealthChecker;
import io.netty.channel.pool.ChannelPool;
import io.netty.channel.pool.FixedChannelPool;
import io.netty.resolver.AddressResolverGroup;
import io.riptide.core.net.DnsResolvers;
import io.riptide.core.net.NettyTransport;
import io.riptide.proxy.ProxyConfig;
import io.riptide.proxy.ProxyStats;
import java.net.InetSocketAddress;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Bounded keep-alive connection pools, one per origin per event loop. Keying by the browser
 * connection's event loop keeps a whole exchange on one thread: no hand-offs, no locks, and
 * backpressure between the two sockets is a plain autoRead toggle.
 */
public final class UpstreamClient implements AutoCloseable {
    private record Key(EventLoop loop, Origin origin) {
    }

    /** Requests that may wait for a connection to one origin on one loop; more get a 502. */
    private static final int MAX_WAITING = 1024;

    private final ProxyConfig config;
    private final ProxyStats stats;
    private final ConcurrentHashMap<Key, FixedChannelPool> pools = new ConcurrentHashMap<>();
    private volatile boolean closed;

    public UpstreamClient(ProxyConfig config, ProxyStats stats) {
        this.config = config;
        this.stats = stats;
    }

    ProxyConfig config() {
        return config;
    }

    /** The pool of connections to {@code origin} whose channels run on {@code loop}. */
    ChannelPool pool(EventLoop loop, Origin origin) {
        if (closed) {
            throw new IllegalStateException("the upstream client is closed");
        }
        return pools.computeIfAbsent(new Key(loop, origin), this::newPool);
    }

    private final DnsResolvers dns = new DnsResolvers();

    private FixedChannelPool newPool(Key key) {
        Bootstrap b = new Bootstrap()
                .group(key.loop())
                // The browser connection's loop, epoll or NIO: the channel must be of its kind.
                .channel(NettyTransport.socketChannelFor(key.loop()))
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, config.connectTimeout().toMillis()))
                .option(ChannelOption.TCP_NODELAY, true)
                // Unresolved, so the name is looked up at each connect rather than pinned forever, by a DNS
                // client on the loop (the JVM's resolver would block the loop and every connection on it).
                .resolver(dns)
                .remoteAddress(InetSocketAddress.createUnresolved(key.origin().host(), key.origin().port()));
        // Most recently used first, so surplus connections go idle and their idle closer reaps them.
        return new FixedChannelPool(b, new UpstreamConnections(config, stats), ChannelHealthChecker.ACTIVE, null, -1,
                config.upstreamConnectionsPerOrigin(), MAX_WAITING, true, true);
    }

    /** The proxy's resolver of origin and tunnel names, non-blocking, one DNS client per loop. */
    public AddressResolverGroup<InetSocketAddress> resolver() {
        return dns;
    }

    /** Closes every idle connection and the DNS clients; call before the event loops shut down. */
    @Override
    public void close() {
        closed = true;
        pools.values().forEach(p -> p.closeAsync());
        pools.clear();
        dns.close();
    }
}
