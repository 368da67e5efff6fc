package io.riptide.gateway.origin;

import io.riptide.core.net.CheckedAddressResolverGroup;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.pool.AbstractChannelPoolMap;
import io.netty.channel.pool.ChannelHealthChecker;
import io.netty.channel.pool.ChannelPool;
import io.netty.channel.pool.FixedChannelPool;
import io.riptide.core.net.DnsResolvers;
import io.riptide.core.net.NettyTransport;
import java.net.InetSocketAddress;

/**
 * One bounded keep-alive connection pool per origin (scheme, host, port). The most recently used
 * connection is handed out first, so surplus ones go idle and are closed by their idle timeout.
 * Unless private origins are allowed, connects only to public addresses ({@link CheckedAddressResolverGroup}).
 */
final class OriginPools implements AutoCloseable {
    private final AbstractChannelPoolMap<OriginKey, FixedChannelPool> pools;
    /** Null when private origins are allowed. */
    private final CheckedAddressResolverGroup publicOnly;
    /** Names looked up without blocking a loop (the JVM's resolver would stall every fetch on it). */
    private final DnsResolvers dns = new DnsResolvers();

    /** Connects to the addresses {@code addresses} allows, or to any when it is null. */
    OriginPools(EventLoopGroup ioGroup, OriginFetcherConfig config, OriginTls tls, FetchCounters counters,
            AddressPolicy addresses) {
        this.publicOnly = addresses == null ? null : addresses.resolverGroup(dns);
        Bootstrap base = new Bootstrap()
                .group(ioGroup)
                // The caller's group, epoll or NIO: the channels must be of its kind.
                .channel(NettyTransport.socketChannelFor(ioGroup))
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, config.connectTimeout().toMillis()))
                .option(ChannelOption.TCP_NODELAY, true);
        if (publicOnly != null) {
            // Checked on the resolved address at each connect (redirect hops too), so DNS rebinding can't get around it.
            base.resolver(publicOnly);
        } else {
            base.resolver(dns);
        }
        this.pools = new AbstractChannelPoolMap<>() {
            @Override
            protected FixedChannelPool newPool(OriginKey key) {
                // Unresolved, so the name is looked up at each connect rather than pinned forever.
                Bootstrap b = base.clone().remoteAddress(InetSocketAddress.createUnresolved(key.host(), key.port()));
                // No acquire timeout here: the fetch deadline bounds every wait, and a late
                // connection is handed back by the exchange that no longer wants it.
                return new FixedChannelPool(b, new OriginConnections(key, config, tls, counters),
                        ChannelHealthChecker.ACTIVE, null, -1, config.maxConnectionsPerOrigin(),
                        config.maxWaitingPerOrigin(), true, true);
            }
        };
    }

    /** The pool of connections to {@code key}. */
    ChannelPool pool(OriginKey key) {
        return pools.get(key);
    }

    /** Closes every idle connection; connections in use close as their exchanges hand them back. */
    @Override
    public void close() {
        pools.close();
        if (publicOnly != null) {
            publicOnly.close();
        }
        dns.close();
    }
}
