package io.riptide.proxy.front;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.netty.handler.codec.http.HttpServerCodec;
import io.riptide.core.net.IdleCloser;
import io.riptide.proxy.ProxyConfig;
import io.riptide.proxy.ProxyStats;
import io.riptide.proxy.ProxyStats.Cap;
import io.riptide.proxy.CacheLookup;
import io.riptide.proxy.framing.Codecs;
import io.riptide.proxy.tls.LeafCertificates;
import io.riptide.proxy.upstream.UpstreamClient;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * Builds each browser connection's pipeline, one handler per concern: close when idle, the HTTP/1.1
 * server codec with the size limits (its failures become 414/431/400) keeping the framing fields as
 * received ({@link Codecs}), then the {@link FrontHandler}. A connection over a cap
 * ({@link ConnectionCaps}) gets only an encoder and its 503 ({@link OverCapacity}). An intercepted
 * CONNECT rebuilds the pipeline ({@link FrontHandler#detachForInterception}): TLS, then a codec and a
 * front of its own.
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
    private final ConnectionCaps caps;

    public FrontInitializer(ProxyConfig config, CacheLookup cache, ProxyStats stats, UpstreamClient upstream,
            ChannelGroup connections, LeafCertificates leaves) {
        this.context = new FrontContext(config, cache, stats, upstream, new Admission(config.maxConcurrentLookups()), leaves);
        this.connections = connections;
        this.caps = new ConnectionCaps(config.maxConnections(), config.maxConnectionsPerClient());
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        connections.add(ch);
        ProxyConfig c = context.config();
        if (!admitted(ch)) {
            return;
        }
        ch.pipeline()
                .addLast("idle", new IdleCloser(c.idleTimeout()))
                .addLast(CODEC, codec(c))
                .addLast(FRONT, new FrontHandler(context, null));
    }

    /**
     * Counts the connection against the caps, to be uncounted when it closes; one over a cap gets its
     * 503 and is not admitted. A client connecting from the address it connects to is on this host.
     */
    private boolean admitted(SocketChannel ch) {
        InetSocketAddress remote = ch.remoteAddress();
        InetAddress client = remote == null ? null : remote.getAddress();
        if (client == null) {
            // Nothing to count it by; the allow-list refuses it on its first request.
            return true;
        }
        boolean ownHost = ch.localAddress() != null && client.equals(ch.localAddress().getAddress());
        ProxyStats stats = context.stats();
        Cap over = caps.open(client, ownHost);
        if (over != null) {
            stats.connectionOverCap(over);
            ch.pipeline().addLast(new HttpResponseEncoder(), new OverCapacity(overCap(over), context.config().via()));
            return false;
        }
        stats.clientConnectionOpened();
        ch.closeFuture().addListener(f -> {
            caps.close(client, ownHost);
            stats.clientConnectionClosed();
        });
        return true;
    }

    /** What a client over a cap reads: which cap, and when to come back. */
    private String overCap(Cap cap) {
        return cap == Cap.GLOBAL
                ? "this proxy has " + caps.max() + " connections open, its limit (--max-connections); try again in "
                        + OverCapacity.RETRY_AFTER_SECONDS + " s"
                : "your address has " + caps.maxPerClient() + " connections open to this proxy, its limit per client "
                        + "(--max-connections-per-client); close some, or try again in " + OverCapacity.RETRY_AFTER_SECONDS + " s";
    }

    static HttpServerCodec codec(ProxyConfig c) {
        // Chunks of up to 16 KiB: small enough to stream, large enough to keep per-chunk work low.
        return Codecs.server(c.maxRequestLineBytes(), c.maxHeaderBytes(), 16 * 1024);
    }
}
