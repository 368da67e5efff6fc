package io.riptide.core.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.resolver.AddressResolver;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Names resolved on the loop, for loops of either transport: the hosts file answers localhost and an
 * address literal needs no query (this machine has no name server to ask).
 */
class DnsResolversTest {
    @Test
    void resolvesOnLoopsOfEitherTransport() throws Exception {
        for (NettyTransport transport : NettyTransport.values()) {
            if (transport == NettyTransport.EPOLL && NettyTransport.current() != NettyTransport.EPOLL) {
                continue; // no native library here
            }
            EventLoopGroup group = transport.newGroup(1);
            try (DnsResolvers dns = new DnsResolvers()) {
                EventLoop loop = group.next();
                AddressResolver<InetSocketAddress> resolver = dns.getResolver(loop);
                InetSocketAddress local = resolver.resolve(InetSocketAddress.createUnresolved("localhost", 8080)).get(10, TimeUnit.SECONDS);
                assertTrue(local.getAddress().isLoopbackAddress(), transport + ": " + local);
                assertEquals(8080, local.getPort());
                InetSocketAddress literal = resolver.resolve(InetSocketAddress.createUnresolved("127.0.0.2", 80)).get(10, TimeUnit.SECONDS);
                assertEquals("127.0.0.2", literal.getAddress().getHostAddress(), transport.toString());
            } finally {
                group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
            }
        }
    }
}
