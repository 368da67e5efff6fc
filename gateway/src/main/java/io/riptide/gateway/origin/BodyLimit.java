package io.riptide.gateway.origin;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;
import java.util.Queue;

/**
 * Enforces the maximum body size before anything is buffered: refuses at once a response whose
 * Content-Length is over the limit, and otherwise counts body bytes as they arrive. On refusal it
 * drops the message, raises {@link BodyTooLargeException} and closes the connection, so the rest of
 * the body is never read.
 */
final class BodyLimit extends ChannelDuplexHandler {
    private final long maxBytes;
    /** Methods of requests sent and not yet answered: a HEAD answer's Content-Length promises no body. */
    private final Queue<HttpMethod> methods = new ArrayDeque<>();
    private long received;
    private boolean refused;

    BodyLimit(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof HttpRequest request) {
            methods.add(request.method());
        }
        ctx.write(msg, promise);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (refused) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (msg instanceof HttpResponse response && response.decoderResult().isSuccess()
                && !Statuses.informational(response.status().code())) {
            received = 0;
            HttpMethod method = methods.poll();
            if (Statuses.mayHaveBody(method, response.status().code())
                    && HttpUtil.getContentLength(response, -1L) > maxBytes) {
                refuse(ctx, msg);
                return;
            }
        }
        if (msg instanceof HttpContent content) {
            received += content.content().readableBytes();
            if (received > maxBytes) {
                refuse(ctx, msg);
                return;
            }
        }
        ctx.fireChannelRead(msg);
    }

    private void refuse(ChannelHandlerContext ctx, Object msg) {
        ReferenceCountUtil.release(msg);
        refused = true;
        ctx.fireExceptionCaught(new BodyTooLargeException(maxBytes));
        ctx.close();
    }
}
