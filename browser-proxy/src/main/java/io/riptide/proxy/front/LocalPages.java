package io.riptide.proxy.front;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.riptide.core.stage.StageMetrics;
import io.riptide.dolr.admin.HtmlStatusPage;
import io.riptide.dolr.admin.JsonStatus;
import io.riptide.dolr.admin.PrometheusText;
import io.riptide.dolr.admin.StatusReport;
import io.riptide.proxy.status.MetricsPage;
import io.riptide.proxy.status.PacFile;
import io.riptide.proxy.status.ProxyReport;
import java.net.InetSocketAddress;
import java.util.ArrayList;
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
                    HtmlStatusPage.render(report(context)));
            case "/status.json" -> Responses.page(alloc, HttpResponseStatus.OK, JsonStatus.CONTENT_TYPE,
                    JsonStatus.render(report(context)));
            case "/metrics" -> Responses.page(alloc, HttpResponseStatus.OK, MetricsPage.CONTENT_TYPE,
                    PrometheusText.render(report(context).metrics()));
            default -> Responses.text(alloc, HttpResponseStatus.NOT_FOUND, "this proxy has no page at " + path
                    + "; it serves /proxy.pac, /status, /status.json and /metrics, and proxies absolute URLs",
                    context.config().via());
        };
        r.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-store");
        return r;
    }

    /** Everything the pages show, read now. */
    private static StatusReport report(FrontContext context) {
        return ProxyReport.of(context.stats(), context.config(), nodes(context), context.cache().figures(), stages(context));
    }

    /** The proxy's stages in the order a request meets them: the lookup bound, the cache's stages, the origin queue. */
    static List<StageMetrics> stages(FrontContext context) {
        List<StageMetrics> out = new ArrayList<>();
        out.add(context.admission().metrics());
        out.addAll(context.cache().stages());
        out.add(context.upstream().originStage().metrics());
        return out;
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
