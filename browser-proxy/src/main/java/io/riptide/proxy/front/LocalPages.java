package io.riptide.proxy.front;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.riptide.dolr.admin.HtmlStatusPage;
import io.riptide.dolr.admin.JsonStatus;
import io.riptide.proxy.status.MetricsPage;
import io.riptide.proxy.status.PacFile;
import io.riptide.proxy.status.ProxyReport;
import io.riptide.proxy.status.StatusPage;
import java.net.InetSocketAddress;
import java.util.List;

/** Answers requests addressed to the proxy itself: {@code /proxy.pac}, {@code /status}, {@code /status.json}, {@code /metrics}. */
final class LocalPages {
    private LocalPages() {
    }

    static FullHttpResponse serve(ByteBufAllocator alloc, HttpRequest request, InetSocketAddress local, FrontContext context) {
        String path = new QueryStringDecoder(request.uri()).path();
        FullHttpResponse r = switch (path) {
            // The PAC names the address the browser reached the proxy at, so it works however it was bound.
            case "/proxy.pac" -> Responses.page(alloc, HttpResponseStatus.OK, PacFile.CONTENT_TYPE,
                    PacFile.render(local.getAddress().getHostAddress(), local.getPort()));
            case "/status" -> Responses.page(alloc, HttpResponseStatus.OK, HtmlStatusPage.CONTENT_TYPE,
                    StatusPage.render(context.stats(), context.config(), nodes(context), context.cache().figures()));
            case "/status.json" -> Responses.page(alloc, HttpResponseStatus.OK, JsonStatus.CONTENT_TYPE,
                    JsonStatus.render(ProxyReport.of(context.stats(), context.config(), nodes(context), context.cache().figures())));
            case "/metrics" -> Responses.page(alloc, HttpResponseStatus.OK, MetricsPage.CONTENT_TYPE,
                    MetricsPage.render(context.stats(), context.config(), nodes(context), context.cache().figures()));
            default -> Responses.text(alloc, HttpResponseStatus.NOT_FOUND, "this proxy has no page at " + path
                    + "; it serves /proxy.pac, /status, /status.json and /metrics, and proxies absolute URLs",
                    context.config().via());
        };
        r.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-store");
        return r;
    }

    private static List<String> nodes(FrontContext context) {
        try {
            List<String> nodes = context.config().accessNodes().get();
            return nodes == null ? List.of() : nodes;
        } catch (RuntimeException e) {
            return List.of("(unavailable: " + e.getMessage() + ")");
        }
    }
}
