package io.riptide.proxy.front;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;

/** The responses the proxy writes itself: errors with a readable body, and its own pages. */
final class Responses {
    private Responses() {
    }

    /** A plain-text response explaining {@code message} to a person. */
    static FullHttpResponse text(ByteBufAllocator alloc, HttpResponseStatus status, String message, String via) {
        FullHttpResponse r = page(alloc, status, "text/plain; charset=utf-8", message + "\n");
        r.headers().set(HttpHeaderNames.VIA, "1.1 " + via);
        r.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-store");
        return r;
    }

    /** A response carrying {@code body} as {@code contentType}. */
    static FullHttpResponse page(ByteBufAllocator alloc, HttpResponseStatus status, String contentType, String body) {
        ByteBuf content = ByteBufUtil.writeUtf8(alloc, body);
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, content);
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        r.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, content.readableBytes());
        return r;
    }
}
