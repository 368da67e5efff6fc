package io.riptide.proxy;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.riptide.proxy.front.FrontInitializer;
import io.riptide.proxy.upstream.UpstreamClient;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/** The browser proxy: an HTTP/1.1 forward proxy listening on one address, answering from a {@link CacheLookup} or the origin. */
public final class ProxyServer implements AutoCloseable {
    private final Channel server;
    private final ChannelGroup connections;
    private final UpstreamClient upstream;
    private final ProxyStats stats;
    private final EventLoopGroup ownBoss;
    private final EventLoopGroup ownWorkers;

    private ProxyServer(Channel server, ChannelGroup connections, UpstreamClient upstream, ProxyStats stats,
            EventLoopGroup ownBoss, EventLoopGroup ownWorkers) {
        this.server = server;
        this.connections = connections;
        this.upstream = upstream;
        this.stats = stats;
        this.ownBoss = ownBoss;
        this.ownWorkers = ownWorkers;
    }

    /** Starts a proxy on its own event loops (one acceptor, the default number of workers). */
    public static ProxyServer start(ProxyConfig config, CacheLookup cache) {
        EventLoopGroup boss = new NioEventLoopGroup(1);
        EventLoopGroup workers = new NioEventLoopGroup();
        try {
            return start(config, cache, boss, workers, true);
        } catch (RuntimeException e) {
            boss.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            workers.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            throw e;
        }
    }

    /** Starts a proxy on the caller's NIO event loops, which it leaves running when it closes. */
    public static ProxyServer start(ProxyConfig config, CacheLookup cache, EventLoopGroup boss, EventLoopGroup workers) {
        return start(config, cache, boss, workers, false);
    }

    private static ProxyServer start(ProxyConfig config, CacheLookup cache, EventLoopGroup boss, EventLoopGroup workers,
            boolean own) {
        ProxyStats stats = new ProxyStats();
        UpstreamClient upstream = new UpstreamClient(config, stats);
        ChannelGroup connections = new DefaultChannelGroup("riptide-proxy", GlobalEventExecutor.INSTANCE);
        try {
            Channel server = new ServerBootstrap()
                    .group(boss, workers)
                    .channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new FrontInitializer(config, cache, stats, upstream, connections))
                    .bind(config.host(), config.port())
                    .syncUninterruptibly()
                    .channel();
            return new ProxyServer(server, connections, upstream, stats, own ? boss : null, own ? workers : null);
        } catch (RuntimeException e) {
            upstream.close();
            throw new IllegalStateException("cannot listen on " + config.host() + ":" + config.port() + ": " + e.getMessage(), e);
        }
    }

    /** The address the proxy listens on (with the real port when the configured one was 0). */
    public InetSocketAddress address() {
        return (InetSocketAddress) server.localAddress();
    }

    /** The proxy's counters and latency. */
    public ProxyStats stats() {
        return stats;
    }

    /** Stops listening, closes every browser connection and the origin pools, and stops its own event loops. */
    @Override
    public void close() {
        server.close().syncUninterruptibly();
        connections.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        upstream.close();
        if (ownBoss != null) {
            ownBoss.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
            ownWorkers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
