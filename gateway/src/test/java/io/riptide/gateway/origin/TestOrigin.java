package io.riptide.gateway.origin;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.ssl.SslContext;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** A small real HTTP(S) origin on 127.0.0.1 for tests: answers each request with a route, records what it saw. */
final class TestOrigin implements AutoCloseable {
    /** Answers one request by writing to {@code ctx}; the request is released after. */
    interface Route {
        void answer(ChannelHandlerContext ctx, FullHttpRequest request);
    }

    /** One request as the origin saw it. */
    record Seen(String method, String uri, Map<String, List<String>> headers, String connection) {
        String header(String name) {
            List<String> v = headers.get(name.toLowerCase());
            return v == null ? null : v.get(0);
        }
    }

    private final Channel server;
    private final List<Seen> seen = new CopyOnWriteArrayList<>();
    private final AtomicInteger connections = new AtomicInteger();
    private final boolean secure;

    TestOrigin(EventLoopGroup group, SslContext tls, Route route) {
        this.secure = tls != null;
        this.server = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        connections.incrementAndGet();
                        if (tls != null) {
                            ch.pipeline().addLast(tls.newHandler(ch.alloc()));
                        }
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(1 << 20),
                                new SimpleChannelInboundHandler<FullHttpRequest>() {
                                    @Override
                                    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
                                        Map<String, List<String>> h = new java.util.LinkedHashMap<>();
                                        for (var e : req.headers()) {
                                            h.computeIfAbsent(e.getKey().toLowerCase(), k -> new CopyOnWriteArrayList<>()).add(e.getValue());
                                        }
                                        seen.add(new Seen(req.method().name(), req.uri(), h, ctx.channel().id().asLongText()));
                                        route.answer(ctx, req);
                                    }

                                    @Override
                                    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                                        ctx.close();
                                    }
                                });
                    }
                })
                .bind("127.0.0.1", 0).syncUninterruptibly().channel();
    }

    int port() {
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    URI url(String path) {
        return URI.create((secure ? "https" : "http") + "://127.0.0.1:" + port() + path);
    }

    List<Seen> seen() {
        return List.copyOf(seen);
    }

    /** How many connections the origin has accepted. */
    int connections() {
        return connections.get();
    }

    /** A route answering 200 with {@code body} and a Content-Length. */
    static Route ok(String body, String... headers) {
        return (ctx, req) -> ctx.writeAndFlush(response(HttpResponseStatus.OK, body, headers));
    }

    static FullHttpResponse response(HttpResponseStatus status, String body, String... headers) {
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                Unpooled.copiedBuffer(body, StandardCharsets.UTF_8));
        for (int i = 0; i < headers.length; i += 2) {
            r.headers().add(headers[i], headers[i + 1]);
        }
        r.headers().set(HttpHeaderNames.CONTENT_LENGTH, r.content().readableBytes());
        return r;
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
    }
}
