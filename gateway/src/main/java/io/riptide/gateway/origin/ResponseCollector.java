package io.riptide.gateway.origin;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.PrematureChannelClosureException;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.riptide.core.http.Headers;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Collects one answer on a connection for one request: the head, then the body copied to the heap
 * as it arrives (every buffer released at once, so nothing is held on the connection), completing
 * {@link #result()} at the last chunk. Any decoding failure, error or early close fails the result
 * and closes the connection, which can't be trusted for another request. Added per exchange.
 */
final class ResponseCollector extends ChannelInboundHandlerAdapter {
    private final URI url;
    private final Clock clock;
    private final int maxBodyBytes;
    private final HttpMethod method;
    private final CompletableFuture<Received> result = new CompletableFuture<>();
    private long requestTimeMillis;
    private HttpResponse head;
    private ByteArrayOutputStream body;
    private boolean anythingRead;
    private ChannelHandlerContext ctx;

    ResponseCollector(URI url, HttpMethod method, Clock clock, int maxBodyBytes) {
        this.url = url;
        this.method = method;
        this.clock = clock;
        this.maxBodyBytes = maxBodyBytes;
    }

    CompletableFuture<Received> result() {
        return result;
    }

    /** Whether any part of an answer arrived: if not, a reused connection may simply have gone stale. */
    boolean anythingRead() {
        return anythingRead;
    }

    void requestSent(long millis) {
        requestTimeMillis = millis;
    }

    /** Fails the exchange (also from outside the pipeline, for a failed write) and closes the connection. */
    void fail(Throwable cause) {
        if (result.completeExceptionally(Failures.onConnection(url, cause, head != null))) {
            ctx.close();
        }
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        if (!ctx.channel().isActive()) {
            fail(Failures.truncated(url, false));
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (result.isDone()) {
                return;
            }
            anythingRead = true;
            if (msg instanceof HttpObject o && !o.decoderResult().isSuccess()) {
                Throwable cause = o.decoderResult().cause();
                fail(cause instanceof PrematureChannelClosureException
                        ? Failures.truncated(url, head != null) : Failures.malformed(url, cause));
                return;
            }
            if (msg instanceof HttpResponse response) {
                if (Statuses.informational(response.status().code())) {
                    // An interim answer (100, 103); its empty last chunk is skipped below.
                    head = null;
                } else {
                    head = response;
                    // Sized from Content-Length up front, never past the limit BodyLimit enforces.
                    long length = Statuses.mayHaveBody(method, response.status().code())
                            ? HttpUtil.getContentLength(response, 0L) : 0L;
                    body = new ByteArrayOutputStream((int) Math.min(Math.max(length, 0), maxBodyBytes));
                }
            }
            if (msg instanceof HttpContent content && head != null) {
                copy(content.content(), body);
                if (content instanceof LastHttpContent) {
                    complete();
                }
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    private static void copy(ByteBuf from, ByteArrayOutputStream to) {
        try {
            from.readBytes(to, from.readableBytes());
        } catch (IOException e) {
            // A ByteArrayOutputStream never throws.
            throw new UncheckedIOException(e);
        }
    }

    private void complete() {
        result.complete(new Received(head.status().code(), head.status().reasonPhrase(), headers(head),
                body.toByteArray(), requestTimeMillis, clock.millis(), HttpUtil.isKeepAlive(head)));
    }

    private static Headers headers(HttpResponse response) {
        List<Headers.Field> fields = new ArrayList<>(response.headers().size());
        for (Map.Entry<String, String> e : response.headers()) {
            fields.add(new Headers.Field(e.getKey(), e.getValue()));
        }
        return Headers.of(fields);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        fail(Failures.truncated(url, head != null));
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (result.isDone()) {
            ctx.fireExceptionCaught(cause);
            return;
        }
        fail(cause instanceof BodyTooLargeException ? Failures.tooLarge(url, maxBodyBytes) : cause);
    }
}
