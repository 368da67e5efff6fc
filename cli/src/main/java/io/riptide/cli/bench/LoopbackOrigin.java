package io.riptide.cli.bench;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.DateFormatter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * A fast keep-alive HTTP/1.1 origin on loopback serving {@code /obj-<bytes>} for each configured size, so that
 * what a benchmark measures is the path in between, not the origin. {@link #remote} makes one that answers as a
 * distant origin does: after a fixed delay (spent waiting, not computing) and with responses no cache may store.
 */
public final class LoopbackOrigin implements AutoCloseable {
    private final NioEventLoopGroup group;
    private final Channel server;
    private final LongAdder requests = new LongAdder();
    private final Map<String, byte[]> bodies;
    private volatile DateText date;
    /** How long each answer is held back; zero answers at once. */
    private final long delayNanos;
    private final String cacheControl;

    private LoopbackOrigin(List<Integer> sizes, int threads, Duration delay, String cacheControl) throws InterruptedException {
        this.delayNanos = delay.toNanos();
        this.cacheControl = cacheControl;
        bodies = new HashMap<>();
        Random random = new Random(42); // fixed: the bodies need only be incompressible, not secret
        for (int size : sizes) {
            byte[] body = new byte[size];
            random.nextBytes(body);
            bodies.put(path(size), body);
        }
        group = new NioEventLoopGroup(threads);
        try {
            server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new HttpServerCodec(), new Handler(bodies));
                        }
                    })
                    .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
        } catch (InterruptedException | RuntimeException e) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw e;
        }
    }

    /** Starts an origin serving one object of each size, on {@code threads} event loops. */
    public static LoopbackOrigin start(List<Integer> sizes, int threads) throws InterruptedException {
        return new LoopbackOrigin(sizes, threads, Duration.ZERO, "max-age=3600");
    }

    /**
     * An origin that stands for a distant web server: each answer goes out {@code delay} after its request came (a
     * timer, so many wait at once on one thread), marked {@code no-store}, so every request through a proxy reaches it.
     */
    public static LoopbackOrigin remote(List<Integer> sizes, int threads, Duration delay) throws InterruptedException {
        return new LoopbackOrigin(sizes, threads, delay, "no-store");
    }

    /** The path of the object of {@code size} bytes. */
    public static String path(int size) {
        return "/obj-" + size;
    }

    /** Where the origin listens. */
    public InetSocketAddress address() {
        return (InetSocketAddress) server.localAddress();
    }

    /** The origin's authority, as clients put it in Host headers and URLs. */
    public String authority() {
        return "127.0.0.1:" + address().getPort();
    }

    /** The bytes it serves as the object of {@code size} bytes (a copy), so another server can serve the very same. */
    public byte[] body(int size) {
        byte[] body = bodies.get(path(size));
        if (body == null) {
            throw new IllegalArgumentException("this origin serves no object of " + size + " bytes");
        }
        return body.clone();
    }

    /** How many requests it has answered so far. */
    public long requests() {
        return requests.sum();
    }

    /** The Date field value for now, formatted once a second. */
    private String date() {
        long second = System.currentTimeMillis() / 1000;
        DateText d = date;
        if (d == null || d.second() != second) {
            d = new DateText(second, DateFormatter.format(new Date(second * 1000)));
            date = d;
        }
        return d.text();
    }

    private record DateText(long second, String text) {
    }

    @Override
    public void close() {
        server.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }

    /** Answers each request head with its object; bodies of GETs are empty and released by the base class. */
    private final class Handler extends SimpleChannelInboundHandler<HttpObject> {
        private final Map<String, byte[]> bodies;

        Handler(Map<String, byte[]> bodies) {
            this.bodies = bodies;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
            if (!(msg instanceof HttpRequest request)) {
                return;
            }
            requests.increment();
            byte[] body = bodies.get(request.uri());
            FullHttpResponse response = body == null
                    ? new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.NOT_FOUND, Unpooled.EMPTY_BUFFER)
                    : new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, Unpooled.wrappedBuffer(body));
            // Date as RFC 9110 asks of an origin with a clock: without it Squid reckons max-age from nothing and stores nothing.
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_OCTET_STREAM)
                    .set(HttpHeaderNames.CACHE_CONTROL, cacheControl).set(HttpHeaderNames.DATE, date());
            HttpUtil.setContentLength(response, response.content().readableBytes());
            boolean keepAlive = HttpUtil.isKeepAlive(request);
            HttpUtil.setKeepAlive(response, keepAlive);
            if (delayNanos > 0) {
                // One response at a time per connection is what HTTP/1.1 clients send, so answers keep their order.
                ctx.executor().schedule(() -> send(ctx, response, keepAlive), delayNanos, TimeUnit.NANOSECONDS);
            } else {
                send(ctx, response, keepAlive);
            }
        }

        private void send(ChannelHandlerContext ctx, FullHttpResponse response, boolean keepAlive) {
            if (!ctx.channel().isActive()) {
                response.release();
                return;
            }
            if (keepAlive) {
                ctx.writeAndFlush(response);
            } else {
                ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close(); // a client that breaks off mid-request only loses its own connection
        }
    }
}
