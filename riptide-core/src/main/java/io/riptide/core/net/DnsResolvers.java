package io.riptide.core.net;

import io.netty.channel.EventLoop;
import io.netty.resolver.AddressResolver;
import io.netty.resolver.AddressResolverGroup;
import io.netty.resolver.InetSocketAddressResolver;
import io.netty.resolver.dns.DnsNameResolver;
import io.netty.resolver.dns.DnsNameResolverBuilder;
import io.netty.resolver.dns.DnsServerAddressStreamProviders;
import io.netty.util.concurrent.EventExecutor;
import java.net.InetSocketAddress;

/**
 * Host names resolved without blocking an event loop: Netty's DNS client, one per loop, with the
 * system's name servers ({@code /etc/resolv.conf}) and hosts file, and a cache that follows the
 * answers' TTLs. The JVM's own resolver blocks the loop that asks, and with it every connection on
 * that loop, for as long as a name server takes. Each loop's client uses the datagram channel of
 * that loop's transport (epoll or NIO), so groups handed in from elsewhere work too.
 */
public final class DnsResolvers extends AddressResolverGroup<InetSocketAddress> {
    /** How long one query may take before the next server (or a failure): the common resolver default. */
    public static final long QUERY_TIMEOUT_MILLIS = 5_000;

    @Override
    protected AddressResolver<InetSocketAddress> newResolver(EventExecutor executor) {
        if (!(executor instanceof EventLoop loop)) {
            throw new IllegalStateException("DNS needs an event loop, not " + executor);
        }
        NettyTransport transport = NettyTransport.of(loop);
        DnsNameResolver names = new DnsNameResolverBuilder(loop)
                .datagramChannelType(transport.datagramChannel())
                .socketChannelType(transport.socketChannel()) // answers too large for UDP come over TCP
                .nameServerProvider(DnsServerAddressStreamProviders.platformDefault())
                .queryTimeoutMillis(QUERY_TIMEOUT_MILLIS)
                .build();
        return new InetSocketAddressResolver(loop, names); // closing it closes the DNS client
    }
}
