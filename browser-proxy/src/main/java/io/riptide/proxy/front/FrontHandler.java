package io.riptide.proxy.front;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.ssl.SniHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.NetUtil;
import io.netty.util.ReferenceCountUtil;
import io.riptide.proxy.Cidr;
import io.riptide.proxy.ProxyConfig;
import io.riptide.proxy.ProxyStats.Outcome;
import io.riptide.proxy.ProxyStats.Side;
import io.riptide.proxy.framing.Framing;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One browser connection: requests are taken one at a time, in order, and each becomes an
 * {@link Exchange}. Pipelined requests wait (decoded, unanswered) until the exchange before them has
 * written its whole response, so responses go out in order without buffering any body; reading
 * from the socket stops while anything waits, so a pipelining client cannot queue without bound.
 * A client whose address is not in the configured allow-list gets 403 on its first request, before
 * anything else is looked at (no page, no origin, no lookup, no tunnel), and the connection closes.
 * A request whose framing is ambiguous ({@link Framing}: both Transfer-Encoding and Content-Length, a
 * coding other than chunked alone, a bad Content-Length) gets 400 or 501 and the connection closes,
 * since what follows it can no longer be told apart; a request that passes goes on framed the
 * proxy's way. A head that takes longer than the request-head timeout gets 408 ({@link HeadDeadline}).
 * Inside an intercepted CONNECT a front of its own ({@link Intercepted}) reads every request as one for
 * that CONNECT's https authority: no proxy pages, no nested CONNECT.
 */
final class FrontHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(FrontHandler.class);

    /** The longest TLS ClientHello read while choosing the leaf (Netty's default bound, 16 MiB, is far too generous). */
    private static final int MAX_CLIENT_HELLO = 64 * 1024;

    private final FrontContext context;
    /** The intercepted CONNECT this connection carries, or null for a plain proxy connection. */
    private final Intercepted intercepted;
    private final ArrayDeque<HttpObject> pending = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    private HeadDeadline deadline;
    private Exchange current;
    private boolean closing;
    private boolean bodyPaused;
    private boolean draining;
    private boolean drainAgain;

    FrontHandler(FrontContext context, Intercepted intercepted) {
        this.context = context;
        this.intercepted = intercepted;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.deadline = new HeadDeadline(ctx, context.config().requestHeadTimeout(), intercepted != null, this::headTimedOut);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        deadline.cancel();
        releasePending();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof HttpObject o) {
            deadline.decoded(o);
        }
        if (closing || !(msg instanceof HttpObject o)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        pending.add(o);
        drain();
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (!closing) {
            deadline.readComplete();
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof SslHandshakeCompletionEvent) {
            deadline.handshakeDone();
        }
        ctx.fireUserEventTriggered(event);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (current != null) {
            current.clientWritabilityChanged(ctx.channel().isWritable());
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        closing = true;
        deadline.cancel();
        releasePending();
        if (current != null) {
            current.clientClosed();
            current = null;
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("closing browser connection {}: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }

    /** The current exchange moved on (its response ended): take the next request. */
    void exchangeProgressed() {
        drain();
    }

    /** Stops (true) or restarts reading the browser's request body: the origin is not taking it as fast. */
    void pauseBody(boolean paused) {
        bodyPaused = paused;
        updateReading();
    }

    /** Writes a whole response; {@code keepAlive} false closes the connection once it is written. */
    void respond(FullHttpResponse response, boolean keepAlive) {
        if (!keepAlive) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            closing = true;
            releasePending();
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        } else {
            ctx.writeAndFlush(response, ctx.voidPromise());
        }
    }

    /** Closes after what was written so far is flushed: a response already started cannot be replaced by an error. */
    void closeAfterFlush() {
        closing = true;
        releasePending();
        ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
    }

    /** Takes the HTTP handlers out: a CONNECT tunnel owns the connection from here on. */
    void detachForTunnel() {
        closing = true;
        current = null;
        releasePending();
        ctx.pipeline().remove(this);
        ctx.pipeline().remove(FrontInitializer.CODEC);
    }

    /**
     * An intercepted CONNECT was answered 200: the browser's TLS is terminated here with a leaf for its
     * SNI name (or {@code host} without one), and a codec and front of its own read the requests inside,
     * each for https://{@code host}:{@code port}; with a {@code refusal}, each is answered with it (502).
     */
    void detachForInterception(String host, int port, String refusal) {
        closing = true;
        current = null;
        releasePending();
        ChannelPipeline p = ctx.pipeline();
        ProxyConfig c = context.config();
        p.remove(this);
        // After the codec, so bytes it still holds (an eager ClientHello) reach TLS as it leaves.
        p.addAfter(FrontInitializer.CODEC, FrontInitializer.TLS,
                new SniHandler(context.leaves().mapping(host), MAX_CLIENT_HELLO, c.connectTimeout().toMillis()));
        p.addAfter(FrontInitializer.TLS, FrontInitializer.INNER_CODEC, FrontInitializer.codec(c));
        p.addAfter(FrontInitializer.INNER_CODEC, FrontInitializer.FRONT, new FrontHandler(context, new Intercepted(host, port, refusal)));
        p.remove(FrontInitializer.CODEC);
        ctx.channel().config().setAutoRead(true);
    }

    ChannelHandlerContext context() {
        return ctx;
    }

    private void drain() {
        if (draining) {
            // An exchange finished synchronously while starting; the outer loop goes round again.
            drainAgain = true;
            return;
        }
        draining = true;
        try {
            do {
                drainAgain = false;
                drainOnce();
            } while (drainAgain);
        } finally {
            draining = false;
        }
        updateReading();
    }

    private void drainOnce() {
        while (!closing) {
            if (current != null && current.requestComplete() && current.responseComplete()) {
                current = null;
                bodyPaused = false;
                continue;
            }
            HttpObject next = pending.peek();
            if (next == null) {
                return;
            }
            if (current == null) {
                pending.poll();
                if (next instanceof HttpRequest request) {
                    current = start(request);
                } else {
                    // Body of a request already refused.
                    ReferenceCountUtil.release(next);
                }
            } else if (!current.requestComplete()) {
                pending.poll();
                if (next instanceof HttpContent content) {
                    current.requestContent(content);
                } else {
                    ReferenceCountUtil.release(next);
                }
            } else {
                return;
            }
        }
    }

    private void updateReading() {
        if (ctx.channel().isActive() && ctx.pipeline().context(this) != null) {
            ctx.channel().config().setAutoRead(!closing && pending.isEmpty() && !bodyPaused);
        }
    }

    private Exchange start(HttpRequest request) {
        long started = System.nanoTime();
        String via = context.config().via();
        if (!clientAllowed()) {
            ReferenceCountUtil.release(request);
            refuse();
            return null;
        }
        if (request.decoderResult().isFailure()) {
            Throwable cause = request.decoderResult().cause();
            ReferenceCountUtil.release(request);
            context.stats().record(Outcome.ERROR, System.nanoTime() - started);
            respond(Responses.text(ctx.alloc(), BadRequests.status(cause), BadRequests.message(cause), via), false);
            return null;
        }
        Framing framing = Framing.of(request);
        if (framing instanceof Framing.Faulty faulty) {
            ReferenceCountUtil.release(request);
            context.stats().framingRefused(Side.REQUEST);
            context.stats().record(Outcome.ERROR, System.nanoTime() - started);
            // Closed after the answer, always: where this request's body ends, and so where the next
            // request begins, is exactly what is in doubt (RFC 9112 §6.3).
            respond(Responses.text(ctx.alloc(), BadRequests.status(faulty), BadRequests.message(faulty), via), false);
            return null;
        }
        // Forwarded (to an origin, or not at all) with the framing the codec read it by, and no other.
        Framing.normalize(request.headers(), framing);
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        if (intercepted != null) {
            return startIntercepted(request, keepAlive, started);
        }
        if (HttpMethod.CONNECT.equals(request.method())) {
            return ConnectExchange.start(this, context, request, started);
        }
        String uri = request.uri();
        if (uri.startsWith("/")) {
            return page(request, keepAlive);
        }
        Target target;
        try {
            target = Target.parse(uri);
        } catch (IllegalArgumentException e) {
            context.stats().record(Outcome.ERROR, System.nanoTime() - started);
            respond(Responses.text(ctx.alloc(), HttpResponseStatus.BAD_REQUEST, e.getMessage(), via), false);
            return null;
        }
        if (isSelf(target)) {
            // An absolute-form request for the proxy's own pages: answer it rather than loop.
            return page(request, keepAlive);
        }
        return forward(request, target, keepAlive, started);
    }

    /**
     * A request inside an intercepted connection: for the CONNECT's authority only (never the proxy's
     * own pages, never another CONNECT), and refused with the reason when the origin did not verify.
     */
    private Exchange startIntercepted(HttpRequest request, boolean keepAlive, long started) {
        String via = context.config().via();
        if (intercepted.refusal() != null) {
            context.stats().record(Outcome.ERROR, System.nanoTime() - started);
            respond(Responses.text(ctx.alloc(), HttpResponseStatus.BAD_GATEWAY, intercepted.refusal(), via), false);
            return null;
        }
        if (HttpMethod.CONNECT.equals(request.method())) {
            context.stats().record(Outcome.ERROR, System.nanoTime() - started);
            respond(Responses.text(ctx.alloc(), HttpResponseStatus.BAD_REQUEST,
                    "CONNECT inside an intercepted connection to " + intercepted.authority() + " is not supported", via), false);
            return null;
        }
        Target target;
        try {
            target = intercepted.target(request);
        } catch (IllegalArgumentException e) {
            context.stats().record(Outcome.ERROR, System.nanoTime() - started);
            respond(Responses.text(ctx.alloc(), HttpResponseStatus.BAD_REQUEST, e.getMessage(), via), false);
            return null;
        }
        return forward(request, target, keepAlive, started);
    }

    /** The request goes the proxy's way: looked up (or bypassed), then the origin; bodies over the limit refused first. */
    private Exchange forward(HttpRequest request, Target target, boolean keepAlive, long started) {
        String via = context.config().via();
        if (HttpUtil.getContentLength(request, -1L) > context.config().maxRequestBodyBytes()) {
            context.stats().record(Outcome.ERROR, System.nanoTime() - started);
            respond(Responses.text(ctx.alloc(), HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE,
                    "the request body is larger than this proxy forwards ("
                            + context.config().maxRequestBodyBytes() + " bytes)", via), false);
            return null;
        }
        return ProxyExchange.start(this, context, request, target, keepAlive, started);
    }

    /**
     * A request's head did not arrive in time: 408, and the connection closes. While an earlier request
     * is still being answered the client may be waiting for that answer, so the head is timed anew.
     */
    private void headTimedOut() {
        if (closing || !ctx.channel().isActive()) {
            return;
        }
        if (current != null || !pending.isEmpty()) {
            deadline.restart();
            return;
        }
        context.stats().requestHeadTimedOut();
        LOG.debug("closing browser connection {}: no complete request head within {}", ctx.channel().remoteAddress(),
                context.config().requestHeadTimeout());
        respond(Responses.text(ctx.alloc(), HttpResponseStatus.REQUEST_TIMEOUT, BadRequests.lateHead(context.config()),
                context.config().via()), false);
    }

    private boolean clientAllowed() {
        // Fails closed: a connection without a client address to judge is refused.
        return ctx.channel().remoteAddress() instanceof InetSocketAddress remote && remote.getAddress() != null
                && context.config().clientAllowed(remote.getAddress());
    }

    private void refuse() {
        context.stats().clientRefused();
        LOG.debug("refusing browser connection {}: not in allow-from", ctx.channel().remoteAddress());
        respond(Responses.text(ctx.alloc(), HttpResponseStatus.FORBIDDEN, refusal(context.config()), context.config().via()), false);
    }

    /** What a refused client reads: whom the proxy serves, and who can change that. */
    static String refusal(ProxyConfig config) {
        return "this proxy serves clients in " + config.allowFrom().stream().map(Cidr::toString).collect(Collectors.joining(", "))
                + "; ask its operator to add your network with --allow-from";
    }

    private Exchange page(HttpRequest request, boolean keepAlive) {
        InetSocketAddress local = (InetSocketAddress) ctx.channel().localAddress();
        respond(LocalPages.serve(ctx.alloc(), request, local, context), keepAlive);
        return new Answered();
    }

    private boolean isSelf(Target target) {
        InetSocketAddress local = (InetSocketAddress) ctx.channel().localAddress();
        if (target.origin().port() != local.getPort()) {
            return false;
        }
        String host = target.origin().host();
        if (host.equalsIgnoreCase("localhost")) {
            return true;
        }
        // Only literal addresses are compared: a name would need a lookup on the event loop.
        InetAddress a = NetUtil.createInetAddressFromIpAddressString(host);
        return a != null && (a.isLoopbackAddress() || a.equals(local.getAddress()) || a.isAnyLocalAddress());
    }

    private void releasePending() {
        for (HttpObject o; (o = pending.poll()) != null; ) {
            ReferenceCountUtil.release(o);
        }
    }
}
