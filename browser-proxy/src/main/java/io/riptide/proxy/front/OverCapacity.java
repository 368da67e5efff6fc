package io.riptide.proxy.front;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A browser connection over a connection cap: answered at once with 503, {@code Retry-After} and one
 * line saying which cap, then closed, without waiting for (or reading) a request. What the client
 * sent meanwhile is read and dropped for a moment after the answer, as nginx's lingering close does:
 * closing a socket with unread bytes resets it, and the reset can destroy the answer before the
 * client reads it.
 */
final class OverCapacity extends ChannelInboundHandlerAdapter {
    /** Seconds a refused client is told to wait. */
    static final int RETRY_AFTER_SECONDS = 10;
    /** How long a refused connection lingers, reading and dropping, before it is closed. */
    private static final long LINGER_MILLIS = 2_000;

    private final String message;
    private final String via;
    private ScheduledFuture<?> closer;

    OverCapacity(String message, String via) {
        this.message = message;
        this.via = via;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        FullHttpResponse r = Responses.text(ctx.alloc(), HttpResponseStatus.SERVICE_UNAVAILABLE, message, via);
        r.headers().setInt(HttpHeaderNames.RETRY_AFTER, RETRY_AFTER_SECONDS);
        r.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        ctx.writeAndFlush(r).addListener((ChannelFutureListener) f -> {
            if (f.isSuccess() && f.channel() instanceof SocketChannel s) {
                s.shutdownOutput();
            }
        });
        closer = ctx.executor().schedule(() -> {
            ctx.close();
        }, LINGER_MILLIS, TimeUnit.MILLISECONDS);
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ReferenceCountUtil.release(msg);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (closer != null) {
            closer.cancel(false);
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }
}
