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
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers one admin connection's requests, one at a time: reading pauses while a report is being
 * collected, so a client cannot queue up work.
 */
final class AdminHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    private static final Logger LOG = LoggerFactory.getLogger(AdminHandler.class);
    private static final String TEXT = "text/plain; charset=utf-8";

    private final StatusReports reports;

    AdminHandler(StatusReports reports) {
        this.reports = reports;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        if (request.decoderResult().isFailure()) {
            respond(ctx, false, false, text(HttpResponseStatus.BAD_REQUEST, "malformed request: "
                    + request.decoderResult().cause().getMessage()));
            return;
        }
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        HttpMethod method = request.method();
        boolean head = HttpMethod.HEAD.equals(method);
        if (!HttpMethod.GET.equals(method) && !head) {
            FullHttpResponse r = text(HttpResponseStatus.METHOD_NOT_ALLOWED, method + " is not supported here; use GET");
            r.headers().set(HttpHeaderNames.ALLOW, "GET, HEAD");
            respond(ctx, keepAlive, head, r);
            return;
        }
        String path = new QueryStringDecoder(request.uri()).path();
        Function<StatusReport, FullHttpResponse> page = switch (path) {
            case "/", "/status" -> r -> ok(HtmlStatusPage.CONTENT_TYPE, HtmlStatusPage.render(r));
            case "/status.json" -> r -> ok(JsonStatus.CONTENT_TYPE, JsonStatus.render(r));
            case "/metrics" -> r -> ok(PrometheusText.CONTENT_TYPE, PrometheusText.render(r.metrics()));
            default -> null;
        };
        if (page == null) {
            respond(ctx, keepAlive, head, text(HttpResponseStatus.NOT_FOUND,
                    "no page at " + path + "; this admin server has /status, /status.json and /metrics"));
            return;
        }
        ctx.channel().config().setAutoRead(false);
        reports.collect().handle((report, failure) -> {
            FullHttpResponse response;
            if (failure == null) {
                response = page.apply(report);
            } else {
                Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
                LOG.debug("status report failed", cause);
                response = text(HttpResponseStatus.SERVICE_UNAVAILABLE, "status unavailable: " + cause);
            }
            ctx.executor().execute(() -> {
                respond(ctx, keepAlive, head, response);
                ctx.channel().config().setAutoRead(true);
            });
            return null;
        });
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
