package io.riptide.proxy.front;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.riptide.core.net.IdleCloser;
import io.riptide.proxy.ProxyConfig;
import io.riptide.proxy.ProxyStats;
import io.riptide.proxy.CacheLookup;
import io.riptide.proxy.framing.Codecs;
import io.riptide.proxy.tls.LeafCertificates;
import io.riptide.proxy.upstream.UpstreamClient;

/**
 * Builds each browser connection's pipeline, one handler per concern: close when idle, the HTTP/1.1
 * server codec with the size limits (its failures become 414/431/400) keeping the framing fields as
 * received ({@link Codecs}), then the {@link FrontHandler}. An intercepted CONNECT rebuilds it
 * ({@link FrontHandler#detachForInterception}): TLS, then a codec and a front of its own.
 */
public final class FrontInitializer extends ChannelInitializer<SocketChannel> {
    /** The codec's name, so a CONNECT tunnel can take it out. */
    static final String CODEC = "http";
    static final String FRONT = "front";
    /** The TLS handler of an intercepted connection (SNI first, then the leaf's SslHandler). */
    static final String TLS = "tls";
    /** The codec inside an intercepted connection's TLS. */
    static final String INNER_CODEC = "https";

    private final FrontContext context;
    private final ChannelGroup connections;

    public FrontInitializer(ProxyConfig config, CacheLookup cache, ProxyStats stats, UpstreamClient upstream,
            ChannelGroup connections, LeafCertificates leaves) {
        this.context = new FrontContext(config, cache, stats, upstream, new Admission(config.maxConcurrentLookups()), leaves);
        this.connections = connections;
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        connections.add(ch);
        ProxyConfig c = context.config();
        ch.pipeline()
                .addLast("idle", new IdleCloser(c.idleTimeout()))
                .addLast(CODEC, codec(c))
                .addLast(FRONT, new FrontHandler(context, null));
    }

    static HttpServerCodec codec(ProxyConfig c) {
        // Chunks of up to 16 KiB: small enough to stream, large enough to keep per-chunk work low.
        return Codecs.server(c.maxRequestLineBytes(), c.maxHeaderBytes(), 16 * 1024);
    }
}
