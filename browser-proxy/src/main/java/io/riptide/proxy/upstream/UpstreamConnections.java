package io.riptide.proxy.upstream;

import io.riptide.core.net.UpstreamErrorGuard;
import io.netty.channel.Channel;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.pool.ChannelPoolHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.riptide.core.net.ClientTls;
import io.netty.util.AttributeKey;
import io.riptide.core.net.IdleCloser;
import io.riptide.proxy.ProxyConfig;
import io.riptide.proxy.ProxyStats;
import io.riptide.proxy.framing.Codecs;

/**
 * Sets up the connections of one origin's pool: close when idle, TLS for an {@code https://} origin
 * (chain and host name verified, SNI sent: {@link ClientTls}), HTTP/1.1 client codec (never
 * decompressing: bodies pass through as the origin sent them; framing fields kept as received,
 * {@link Codecs}), then per exchange the
 * {@link OriginExchange}, and last the error guard.
 */
final class UpstreamConnections implements ChannelPoolHandler {
    static final String GUARD = "guard";
    /** Set once a connection has gone back to its pool, so a failure on it may be a stale keep-alive. */
    static final AttributeKey<Boolean> POOLED = AttributeKey.valueOf(UpstreamConnections.class, "pooled");

    private final ProxyConfig config;
    private final ProxyStats stats;
    private final UpstreamErrorGuard guard = new UpstreamErrorGuard();

    private final Origin origin;
    /** The verifying client context for a TLS origin; null for plain HTTP. */
    private final SslContext tls;

    UpstreamConnections(ProxyConfig config, ProxyStats stats, Origin origin, SslContext tls) {
        this.config = config;
        this.stats = stats;
        this.origin = origin;
        this.tls = tls;
        if (origin.tls() && tls == null) {
            throw new IllegalStateException("no TLS context for origin " + origin + ": interception is off");
        }
    }

    @Override
    public void channelCreated(Channel ch) {
        stats.upstreamConnectionOpened();
        ChannelPipeline p = ch.pipeline();
        p.addLast("idle", new IdleCloser(config.idleTimeout()));
        if (origin.tls()) {
            SslHandler handler = ClientTls.verifying(tls, ch.alloc(), origin.host(), origin.port());
            handler.setHandshakeTimeoutMillis(config.connectTimeout().toMillis());
            p.addLast("tls", handler);
        }
        p.addLast("http", Codecs.client(8192, config.maxHeaderBytes(), 16 * 1024));
        p.addLast(GUARD, guard);
    }

    @Override
    public void channelAcquired(Channel ch) {
    }

    @Override
    public void channelReleased(Channel ch) {
        ch.attr(POOLED).set(Boolean.TRUE);
    }
}
