package io.riptide.proxy;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.riptide.core.net.NettyTransport;
import io.riptide.proxy.front.FrontInitializer;
import io.riptide.proxy.tls.Interception;
import io.riptide.proxy.tls.LeafCertificates;
import io.riptide.proxy.upstream.UpstreamClient;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The browser proxy: an HTTP/1.1 forward proxy listening on one address, answering from a {@link CacheLookup} or the origin. */
public final class ProxyServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ProxyServer.class);
    /** Leaf certificates kept: a browsing session touches a few hundred hosts at most. */
    private static final int MAX_LEAVES = 1024;

    private final Channel server;
    private final ChannelGroup connections;
    private final UpstreamClient upstream;
    private final ProxyStats stats;
    private final EventLoopGroup ownBoss;
    private final EventLoopGroup ownWorkers;
    private final NettyTransport transport;
    /** The leaf certificates of intercepted hosts; null when nothing is intercepted. */
    private final LeafCertificates leaves;

    private ProxyServer(Channel server, ChannelGroup connections, UpstreamClient upstream, ProxyStats stats,
            EventLoopGroup ownBoss, EventLoopGroup ownWorkers, NettyTransport transport, LeafCertificates leaves) {
        this.server = server;
        this.connections = connections;
        this.upstream = upstream;
        this.stats = stats;
        this.ownBoss = ownBoss;
        this.ownWorkers = ownWorkers;
        this.transport = transport;
        this.leaves = leaves;
    }

    /**
     * Starts a proxy on its own event loops (one acceptor, {@link ProxyConfig#loops()} workers) of the
     * process's transport ({@link NettyTransport#current()}: epoll on Linux, else NIO).
     */
    public static ProxyServer start(ProxyConfig config, CacheLookup cache) {
        EventLoopGroup boss = NettyTransport.current().newGroup(1);
        EventLoopGroup workers = NettyTransport.current().newGroup(config.loops());
        try {
            return start(config, cache, boss, workers, true);
        } catch (RuntimeException e) {
            boss.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            workers.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            throw e;
        }
    }

    /**
     * Starts a proxy on the caller's event loops (epoll or NIO, both of one kind), which it leaves
     * running when it closes.
     */
    public static ProxyServer start(ProxyConfig config, CacheLookup cache, EventLoopGroup boss, EventLoopGroup workers) {
        return start(config, cache, boss, workers, false);
    }

    private static ProxyServer start(ProxyConfig config, CacheLookup cache, EventLoopGroup boss, EventLoopGroup workers,
            boolean own) {
        ProxyStats stats = new ProxyStats();
        UpstreamClient upstream = new UpstreamClient(config, stats);
        ChannelGroup connections = new DefaultChannelGroup("riptide-proxy", GlobalEventExecutor.INSTANCE);
        Interception interception = config.interception();
        LeafCertificates leaves = interception.on() ? new LeafCertificates(interception.ca(), MAX_LEAVES, stats::leafMinted) : null;
        try {
            Channel server = new ServerBootstrap()
                    .group(boss, workers)
                    .channel(NettyTransport.serverSocketChannelFor(boss))
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new FrontInitializer(config, cache, stats, upstream, connections, leaves))
                    .bind(config.host(), config.port())
                    .syncUninterruptibly()
                    .channel();
            NettyTransport transport = NettyTransport.of(workers);
            LOG.info("browser proxy listening on {}:{} (transport: {})", config.host(),
                    ((InetSocketAddress) server.localAddress()).getPort(), transport);
            if (interception.on()) {
                LOG.info("intercepting HTTPS for {} with the CA at {}; origins verified against {}", interception.policy(),
                        interception.ca().certificateFile(), interception.trustDescription());
            }
            return new ProxyServer(server, connections, upstream, stats, own ? boss : null, own ? workers : null, transport, leaves);
        } catch (RuntimeException e) {
            upstream.close();
            if (leaves != null) {
                leaves.close();
            }
            throw new IllegalStateException("cannot listen on " + config.host() + ":" + config.port() + ": " + e.getMessage(), e);
        }
    }

    /** The address the proxy listens on (with the real port when the configured one was 0). */
    public InetSocketAddress address() {
        return (InetSocketAddress) server.localAddress();
    }

    /** The transport its connections run on: that of its worker loops. */
    public NettyTransport transport() {
        return transport;
    }

    /** The proxy's counters and latency. */
    public ProxyStats stats() {
        return stats;
    }

    /** Stops listening, closes every browser connection and the origin pools, and stops its own event loops. */
    @Override
    public void close() {
        // Bounded: a loop that can no longer run the close (it died) must fail the close, not hang it.
        boolean listenerClosed = server.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        connections.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        upstream.close();
        if (leaves != null) {
            leaves.close();
        }
        if (ownBoss != null) {
            ownBoss.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS);
            ownWorkers.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS);
        }
        if (!listenerClosed) {
            throw new IllegalStateException("the proxy's listening socket did not close within 5 s: its event loop is not running");
        }
    }
}
