package io.riptide.dolr.admin;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers one admin connection's requests in order, one report at a time, with a small bound on
 * requests waiting so a client cannot queue up work.
 */
final class AdminHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    private static final Logger LOG = LoggerFactory.getLogger(AdminHandler.class);
    private static final String TEXT = "text/plain; charset=utf-8";

    /** Requests one connection may have waiting for answers; a client that pipelines more is cut off. */
    private static final int MAX_PIPELINED = 8;

    private final StatusReports reports;
    private final java.util.Map<String, AdminAction> actions;
    /** Completes when the last request's answer has been handed to the loop; touched only on the loop. */
    private CompletableFuture<?> tail = CompletableFuture.completedFuture(null);
    private int pending;

    AdminHandler(StatusReports reports, java.util.Map<String, AdminAction> actions) {
        this.reports = reports;
        this.actions = java.util.Map.copyOf(actions);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        boolean keepAlive = !request.decoderResult().isFailure() && HttpUtil.isKeepAlive(request);
        boolean head = HttpMethod.HEAD.equals(request.method());
        Supplier<CompletableFuture<FullHttpResponse>> answer = answer(request, ctx.channel().remoteAddress());
        if (++pending > MAX_PIPELINED) {
            LOG.debug("closing admin connection {}: more than {} requests queued", ctx.channel().remoteAddress(), MAX_PIPELINED);
            ctx.close();
            return;
        }
        // Answers go out in request order: each waits for the one before it.
        tail = tail.thenCompose(ignored -> answer.get()).handle((response, failure) -> {
            FullHttpResponse r = failure == null ? response : unavailable(failure);
            try {
                ctx.executor().execute(() -> {
                    pending--;
                    respond(ctx, keepAlive, head, r);
                });
            } catch (java.util.concurrent.RejectedExecutionException e) {
                // The server is shutting down: nobody will read the answer.
                r.release();
            }
            return null;
        });
    }

    /**
     * What to answer {@code request} with, made only when its turn comes (so nothing is allocated for a
     * request that is never answered); only a report takes time. The request is not used after this returns.
     */
    private Supplier<CompletableFuture<FullHttpResponse>> answer(FullHttpRequest request, java.net.SocketAddress from) {
        if (request.decoderResult().isFailure()) {
            String body = "malformed request: " + request.decoderResult().cause().getMessage();
            return () -> CompletableFuture.completedFuture(text(HttpResponseStatus.BAD_REQUEST, body));
        }
        HttpMethod method = request.method();
        if (HttpMethod.POST.equals(method)) {
            return action(request, from);
        }
        if (!HttpMethod.GET.equals(method) && !HttpMethod.HEAD.equals(method)) {
            String body = method + " is not supported here; use GET";
            return () -> {
                FullHttpResponse r = text(HttpResponseStatus.METHOD_NOT_ALLOWED, body);
                r.headers().set(HttpHeaderNames.ALLOW, "GET, HEAD");
                return CompletableFuture.completedFuture(r);
            };
        }
        String path = new QueryStringDecoder(request.uri()).path();
        Function<StatusReport, FullHttpResponse> page = switch (path) {
            case "/", "/status" -> r -> ok(HtmlStatusPage.CONTENT_TYPE, HtmlStatusPage.render(r));
            case "/status.json" -> r -> ok(JsonStatus.CONTENT_TYPE, JsonStatus.render(r));
            case "/metrics" -> r -> ok(PrometheusText.CONTENT_TYPE, PrometheusText.render(r.metrics()));
            default -> null;
        };
        if (page == null) {
            String body = "no page at " + path + "; this admin server has /status, /status.json and /metrics";
            return () -> CompletableFuture.completedFuture(text(HttpResponseStatus.NOT_FOUND, body));
        }
        return () -> reports.collect().thenApply(page);
    }

    /** A POST: an action, if the path names one, asked from this host with the admin field. */
    private Supplier<CompletableFuture<FullHttpResponse>> action(FullHttpRequest request, java.net.SocketAddress from) {
        QueryStringDecoder query = new QueryStringDecoder(request.uri());
        AdminAction action = actions.get(query.path());
        if (action == null) {
            // As for any method the pages do not take; an agent with actions names them.
            String body = "POST is not supported at " + query.path() + "; use GET" + (actions.isEmpty() ? ""
                    : " (actions: POST to " + String.join(", ", new java.util.TreeSet<>(actions.keySet())) + ")");
            return () -> {
                FullHttpResponse r = text(HttpResponseStatus.METHOD_NOT_ALLOWED, body);
                r.headers().set(HttpHeaderNames.ALLOW, "GET, HEAD");
                return CompletableFuture.completedFuture(r);
            };
        }
        if (!(from instanceof java.net.InetSocketAddress a) || !a.getAddress().isLoopbackAddress()) {
            return () -> CompletableFuture.completedFuture(text(HttpResponseStatus.FORBIDDEN,
                    "actions are taken only from this machine (loopback); run riptide on the agent's host"));
        }
        if (!request.headers().contains(AdminAction.HEADER)) {
            return () -> CompletableFuture.completedFuture(text(HttpResponseStatus.FORBIDDEN,
                    "an action needs the " + AdminAction.HEADER + " field (riptide sends it; a web page cannot)"));
        }
        java.util.Map<String, java.util.List<String>> parameters = query.parameters();
        return () -> action.run(parameters).thenApply(done -> text(HttpResponseStatus.valueOf(done.status()), done.text()));
    }

    private static FullHttpResponse unavailable(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        LOG.debug("status report failed", cause);
        return text(HttpResponseStatus.SERVICE_UNAVAILABLE, "status unavailable: " + cause);
    }

    private static FullHttpResponse ok(String contentType, String body) {
        return response(HttpResponseStatus.OK, contentType, body);
    }

    private static FullHttpResponse text(HttpResponseStatus status, String body) {
        return response(status, TEXT, body + "\n");
    }

    private static FullHttpResponse response(HttpResponseStatus status, String contentType, String body) {
        ByteBuf content = Unpooled.copiedBuffer(body, StandardCharsets.UTF_8);
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, content);
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType)
                .set(HttpHeaderNames.CONTENT_LENGTH, content.readableBytes())
                .set(HttpHeaderNames.CACHE_CONTROL, "no-store")
                .set("X-Content-Type-Options", "nosniff");
        return r;
    }

    /** Sends {@code r}; a HEAD answer keeps its headers (the length included) but drops the body. */
    private static void respond(ChannelHandlerContext ctx, boolean keepAlive, boolean head, FullHttpResponse r) {
        if (head) {
            r.content().clear();
        }
        if (!ctx.channel().isActive()) {
            r.release();
            return;
        }
        HttpUtil.setKeepAlive(r, keepAlive);
        var written = ctx.writeAndFlush(r);
        if (!keepAlive) {
            written.addListener(ChannelFutureListener.CLOSE);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("closing admin connection {}: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }
}
