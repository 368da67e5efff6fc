package io.riptide.proxy.front;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.riptide.core.net.IdleCloser;
import io.riptide.proxy.ProxyConfig;
import io.riptide.proxy.ProxyStats;
import io.riptide.proxy.CacheLookup;
import io.riptide.proxy.upstream.UpstreamClient;

/**
 * Builds each browser connection's pipeline, one handler per concern: close when idle, the HTTP/1.1
 * server codec with the size limits (its failures become 414/431/400), then the {@link FrontHandler}.
 */
public final class FrontInitializer extends ChannelInitializer<SocketChannel> {
    /** The codec's name, so a CONNECT tunnel can take it out. */
    static final String CODEC = "http";
    static final String FRONT = "front";

    private final FrontContext context;
    private final ChannelGroup connections;

    public FrontInitializer(ProxyConfig config, CacheLookup cache, ProxyStats stats, UpstreamClient upstream,
            ChannelGroup connections) {
        this.context = new FrontContext(config, cache, stats, upstream, new Admission(config.maxConcurrentLookups()));
        this.connections = connections;
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        connections.add(ch);
        ProxyConfig c = context.config();
        ch.pipeline()
                .addLast("idle", new IdleCloser(c.idleTimeout()))
                // Chunks of up to 16 KiB: small enough to stream, large enough to keep per-chunk work low.
                .addLast(CODEC, new HttpServerCodec(c.maxRequestLineBytes(), c.maxHeaderBytes(), 16 * 1024))
                .addLast(FRONT, new FrontHandler(context));
    }
}
