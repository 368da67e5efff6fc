package io.riptide.dolr.admin;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.timeout.ReadTimeoutHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.riptide.core.net.NettyTransport;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A small HTTP server for operators: {@code /} and {@code /status} (HTML), {@code /status.json} and
 * {@code /metrics} (Prometheus text), and an agent's {@link AdminAction}s (POST, from this host only). It runs on a thread of its own, never the node's loop, and keeps
 * every request, connection count and idle connection bounded.
 */
public final class AdminServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AdminServer.class);
    /** Longest request line and header block accepted; admin requests are tiny. */
    static final int MAX_LINE = 4096;
    static final int MAX_HEADERS = 8192;
    /** Largest request body accepted; the pages take none. */
    static final int MAX_BODY = 1024;
    /** Connections open at once; more are closed on accept. */
    static final int MAX_CONNECTIONS = 64;
    /** A connection that sends nothing for this long is closed. */
    static final int IDLE_SECONDS = 30;

    private final EventLoopGroup group;
    private final Channel channel;

    private AdminServer(EventLoopGroup group, Channel channel) {
        this.group = group;
        this.channel = channel;
    }

    /** Starts serving {@code reports} on {@code host:port} (port 0: any free port). */
    public static AdminServer start(String host, int port, StatusReports reports) {
        return start(host, port, reports, java.util.Map.of());
    }

    /** As above, also answering {@code POST} to each path of {@code actions} (see {@link AdminAction}). */
    public static AdminServer start(String host, int port, StatusReports reports, java.util.Map<String, AdminAction> actions) {
        EventLoopGroup group = NettyTransport.current().newGroup(1, new DefaultThreadFactory("riptide-admin", true));
        AtomicInteger open = new AtomicInteger();
        try {
            Channel channel = new ServerBootstrap().group(group).channel(NettyTransport.serverSocketChannelFor(group))
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            if (open.incrementAndGet() > MAX_CONNECTIONS) {
                                open.decrementAndGet();
                                ch.close();
                                return;
                            }
                            ch.closeFuture().addListener(f -> open.decrementAndGet());
                            ch.pipeline().addLast(new ReadTimeoutHandler(IDLE_SECONDS, TimeUnit.SECONDS),
                                    new HttpServerCodec(MAX_LINE, MAX_HEADERS, MAX_BODY),
                                    new HttpObjectAggregator(MAX_BODY),
                                    new AdminHandler(reports, actions));
                        }
                    })
                    .bind(host, port).syncUninterruptibly().channel();
            AdminServer server = new AdminServer(group, channel);
            LOG.info("admin server for {} listening on http://{}/", reports.title(), server.hostPort());
            return server;
        } catch (Exception e) {
            // Netty rethrows a failed bind's checked exception undeclared.
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            // NIO's BindException or epoll's native bind error, as one BindException with NIO's message.
            BindException bind = NettyTransport.bindFailure(e);
            if (bind != null) {
                throw new UncheckedIOException(new BindException("cannot listen on " + host + ":" + port
                        + " for the admin server: " + bind.getMessage()));
            }
            throw e instanceof RuntimeException r ? r : new IllegalStateException("admin server failed to start", e);
        }
    }

    /** Where it listens, with the actual port. */
    public InetSocketAddress address() {
        return (InetSocketAddress) channel.localAddress();
    }

    /** {@code host:port} of {@link #address()}, as a URL's authority. */
    public String hostPort() {
        InetSocketAddress a = address();
        String host = a.getAddress().getHostAddress();
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort();
    }

    /** Stops listening, closes open connections and the server's thread. Idempotent. */
    @Override
    public void close() {
        channel.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
}
