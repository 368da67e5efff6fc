package io.riptide.gateway.origin;

import io.riptide.core.net.UpstreamErrorGuard;
import io.riptide.core.net.ByteCounter;
import io.riptide.core.net.IdleCloser;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.pool.ChannelPoolHandler;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.util.AttributeKey;

/**
 * Sets up and tracks the connections of one origin's pool. Each connection's pipeline has one
 * handler per concern, in order: count bytes, TLS (https only), close when idle, HTTP/1.1 codec
 * (never content-decoding: the origin's representation is stored as sent), the body-size limit,
 * then (per exchange) the response collector, and last the error guard.
 */
final class OriginConnections implements ChannelPoolHandler {
    static final String COLLECTOR_BEFORE = "guard";
    /** Set once a connection has been released to the pool, so the next acquire counts as reuse. */
    static final AttributeKey<Boolean> POOLED = AttributeKey.valueOf(OriginConnections.class, "pooled");

    private final OriginKey key;
    private final OriginFetcherConfig config;
    private final OriginTls tls;
    private final FetchCounters counters;
    private final ByteCounter traffic;
    private final UpstreamErrorGuard guard = new UpstreamErrorGuard();

    OriginConnections(OriginKey key, OriginFetcherConfig config, OriginTls tls, FetchCounters counters) {
        this.key = key;
        this.config = config;
        this.tls = tls;
        this.counters = counters;
        this.traffic = new ByteCounter(counters::bytesReceived, n -> { });
    }

    @Override
    public void channelCreated(Channel ch) {
        ChannelPipeline p = ch.pipeline();
        // Counted once connected: a connect refused at name resolution opened nothing.
        p.addLast("opened", new ChannelInboundHandlerAdapter() {
            @Override
            public void channelActive(ChannelHandlerContext ctx) {
                counters.connectionOpened();
                ctx.pipeline().remove(this);
                ctx.fireChannelActive();
            }
        });
        p.addLast("traffic", traffic);
        if (key.secure()) {
            var handler = tls.newHandler(ch.alloc(), key.host(), key.port());
            // The fetch deadline bounds the handshake; this only stops a stuck one outliving it.
            handler.setHandshakeTimeoutMillis(config.deadline().toMillis());
            p.addLast("tls", handler);
        }
        p.addLast("idle", new IdleCloser(config.idleTimeout()));
        p.addLast("http", new HttpClientCodec(config.maxInitialLineBytes(), config.maxHeaderBytes(), 8192,
                false, true));
        p.addLast("limit", new BodyLimit(config.maxBodyBytes()));
        p.addLast(COLLECTOR_BEFORE, guard);
    }

    @Override
    public void channelAcquired(Channel ch) {
        if (Boolean.TRUE.equals(ch.attr(POOLED).get())) {
            counters.connectionReused();
        }
    }

    @Override
    public void channelReleased(Channel ch) {
        ch.attr(POOLED).set(Boolean.TRUE);
    }
}
