package io.riptide.proxy.front;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.riptide.core.http.Headers;
import io.riptide.proxy.ProxyStats.Outcome;
import io.riptide.proxy.cache.LookupResult;
import io.riptide.proxy.cache.ProxyRequest;
import io.riptide.proxy.upstream.OriginExchange;
import io.riptide.proxy.upstream.UpstreamFailure;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One absolute-form request: decide cacheability, look it up (within the admission bound) or
 * bypass the cache, then serve the hit or stream the origin's response back chunk by chunk with the
 * {@code Cache-Status} saying which. Runs on the browser connection's event loop throughout.
 */
final class ProxyExchange implements Exchange, OriginExchange.Listener {
    private static final Logger LOG = LoggerFactory.getLogger(ProxyExchange.class);
    private static final String CACHE_STATUS = "Cache-Status";

    private final FrontHandler front;
    private final FrontContext context;
    private final Channel ch;
    private final HttpRequest upstreamHead;
    private final Target target;
    private final boolean clientHttp11;
    private final boolean headRequest;
    private final long started;
    private final ArrayDeque<HttpContent> early = new ArrayDeque<>();
    private boolean keepAlive;
    private ProxyRequest cacheRequest;
    /** The origin's response head, for the cache's hints (its Vary says which request fields select the variant). */
    private Headers originResponseHeaders = Headers.EMPTY;
    private Outcome outcome;
    private String cacheStatus;
    private boolean bypassed;
    private OriginExchange origin;
    private long originStarted;
    private long bodyBytes;
    private boolean requestComplete;
    private boolean responseStarted;
    private boolean responseComplete;
    private boolean clientGone;

    private ProxyExchange(FrontHandler front, FrontContext context, HttpRequest request, Target target,
            boolean keepAlive, long started) {
        this.front = front;
        this.context = context;
        this.ch = front.context().channel();
        this.target = target;
        this.keepAlive = keepAlive;
        this.started = started;
        this.clientHttp11 = request.protocolVersion().equals(HttpVersion.HTTP_1_1);
        this.headRequest = HttpMethod.HEAD.equals(request.method());
        // The browser's request object becomes the origin's: no copy of the headers per request.
        HttpHeaders h = request.headers();
        HopByHop.stripRequest(h);
        HopByHop.addVia(h, request.protocolVersion(), context.config().via());
        h.set(HttpHeaderNames.HOST, target.hostHeader());
        request.setUri(target.originForm());
        request.setProtocolVersion(HttpVersion.HTTP_1_1);
        this.upstreamHead = request;
    }

    static Exchange start(FrontHandler front, FrontContext context, HttpRequest request, Target target,
            boolean keepAlive, long started) {
        ProxyExchange x = new ProxyExchange(front, context, request, target, keepAlive, started);
        x.route();
        return x;
    }

    private void route() {
        String name = context.config().via();
        if (context.config().passThrough()) {
            forward(Outcome.BYPASS, name + "; fwd=bypass; detail=pass-through", true);
            return;
        }
        cacheRequest = new ProxyRequest(upstreamHead.method().name(), target.url(), headersOf(upstreamHead.headers()));
        Cacheability.Verdict verdict = Cacheability.of(upstreamHead.method(), upstreamHead.headers(),
                context.config().cookiesBypass());
        if (!verdict.cacheable()) {
            forward(Outcome.BYPASS, name + "; fwd=bypass; detail=" + verdict.detail(), true);
            return;
        }
        if (!context.admission().tryEnter()) {
            forward(Outcome.BYPASS, name + "; fwd=bypass; detail=overloaded", true);
            return;
        }
        CompletableFuture<LookupResult> lookup;
        try {
            lookup = context.cache().lookup(cacheRequest);
        } catch (RuntimeException e) {
            context.admission().exit();
            LOG.debug("cache lookup of {} threw", target.url(), e);
            forward(Outcome.MISS, name + "; fwd=miss; detail=lookup-error", false);
            return;
        }
        lookup.whenComplete((result, error) -> {
            context.admission().exit();
            if (ch.eventLoop().inEventLoop()) {
                looked(result, error);
            } else {
                ch.eventLoop().execute(() -> looked(result, error));
            }
        });
    }

    private void looked(LookupResult result, Throwable error) {
        if (clientGone) {
            return;
        }
        String name = context.config().via();
        if (error != null || result == null) {
            LOG.debug("cache lookup of {} failed", target.url(), error);
            forward(Outcome.MISS, name + "; fwd=miss; detail=lookup-error", false);
        } else if (result.hit()) {
            serveHit(result);
        } else {
            forward(Outcome.MISS, name + "; " + result.missStatus(), false);
        }
    }

    private void serveHit(LookupResult hit) {
        byte[] body = hit.body() == null ? new byte[0] : hit.body();
        HttpResponseStatus status = hit.reason() == null ? HttpResponseStatus.valueOf(hit.status())
                : new HttpResponseStatus(hit.status(), hit.reason());
        // HEAD gets the length of the body it would have had, and no body.
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                headRequest ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(body));
        HttpHeaders h = r.headers();
        for (Headers.Field f : hit.headers().fields()) {
            h.add(f.name(), f.value());
        }
        HopByHop.strip(h);
        h.remove(HttpHeaderNames.TRANSFER_ENCODING);
        h.setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        HopByHop.addVia(h, HttpVersion.HTTP_1_1, context.config().via());
        if (!h.contains(CACHE_STATUS)) {
            h.set(CACHE_STATUS, context.config().via() + "; hit");
        }
        for (HttpContent c; (c = early.poll()) != null; ) {
            c.release();
        }
        responseStarted = true;
        responseComplete = true;
        context.stats().record(Outcome.HIT, System.nanoTime() - started);
        setKeepAlive(r);
        front.respond(r, keepAlive);
        front.exchangeProgressed();
    }

    private void forward(Outcome outcome, String cacheStatus, boolean bypassed) {
        this.outcome = outcome;
        this.cacheStatus = cacheStatus;
        this.bypassed = bypassed;
        this.originStarted = System.nanoTime();
        origin = new OriginExchange(context.upstream(), ch.eventLoop(), target.origin(), upstreamHead, this);
        origin.start();
        for (HttpContent c; (c = early.poll()) != null; ) {
            origin.body(c);
        }
    }

    @Override
    public void requestContent(HttpContent content) {
        if (content.decoderResult().isFailure()) {
            String why = BadRequests.message(content.decoderResult().cause());
            content.release();
            requestComplete = true;
            refuse(HttpResponseStatus.BAD_REQUEST, "the request body is malformed: " + why);
            return;
        }
        bodyBytes += content.content().readableBytes();
        requestComplete |= content instanceof LastHttpContent;
        if (bodyBytes > context.config().maxRequestBodyBytes()) {
            content.release();
            requestComplete = true;
            refuse(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE,
                    "the request body is larger than this proxy forwards (" + context.config().maxRequestBodyBytes() + " bytes)");
            return;
        }
        if (responseComplete) {
            content.release();
        } else if (origin != null) {
            origin.body(content);
        } else {
            early.add(content);
        }
    }

    /** The request itself is bad after its head went up: drop the origin side and tell the browser, then close. */
    private void refuse(HttpResponseStatus status, String message) {
        if (origin != null) {
            origin.abort();
        }
        context.stats().record(Outcome.ERROR, System.nanoTime() - started);
        if (responseStarted || responseComplete) {
            responseComplete = true;
            front.closeAfterFlush();
        } else {
            responseComplete = true;
            front.respond(Responses.text(ch.alloc(), status, message, context.config().via()), false);
        }
    }

    @Override
    public boolean requestComplete() {
        return requestComplete;
    }

    @Override
    public boolean responseComplete() {
        return responseComplete;
    }

    @Override
    public void clientWritabilityChanged(boolean writable) {
        if (origin != null && writable) {
            origin.resume();
        }
    }

    @Override
    public void clientClosed() {
        clientGone = true;
        if (origin != null) {
            origin.abort();
        }
        for (HttpContent c; (c = early.poll()) != null; ) {
            c.release();
        }
    }

    @Override
    public void responseHead(HttpResponse head) {
        responseStarted = true;
        HttpHeaders h = head.headers();
        HopByHop.strip(h);
        if (cacheRequest != null) {
            originResponseHeaders = headersOf(h);
        }
        HopByHop.addVia(h, head.protocolVersion(), context.config().via());
        h.add(CACHE_STATUS, cacheStatus);
        int code = head.status().code();
        boolean mayHaveBody = !headRequest && code != 204 && code != 304 && code >= 200;
        if (mayHaveBody && !HttpUtil.isContentLengthSet(head) && !HttpUtil.isTransferEncodingChunked(head)) {
            // The origin delimits the body by closing; the browser gets it chunked, or closed too.
            if (clientHttp11) {
                HttpUtil.setTransferEncodingChunked(head, true);
            } else {
                keepAlive = false;
            }
        }
        head.setProtocolVersion(HttpVersion.HTTP_1_1);
        setKeepAlive(head);
        ch.write(head, ch.voidPromise());
        if (!ch.isWritable()) {
            origin.pause();
        }
    }

    @Override
    public void responseContent(HttpContent content) {
        ch.write(content, ch.voidPromise());
        if (!ch.isWritable()) {
            origin.pause();
        }
    }

    @Override
    public void responseReadComplete() {
        ch.flush();
    }

    @Override
    public void responseComplete(int status) {
        responseComplete = true;
        long now = System.nanoTime();
        context.stats().record(outcome, now - started);
        if (cacheRequest != null) {
            try {
                context.cache().onOriginResponse(cacheRequest, status, originResponseHeaders, now - originStarted, bypassed);
            } catch (RuntimeException e) {
                LOG.debug("the cache's origin-response hook threw for {}", target.url(), e);
            }
        }
        if (keepAlive && requestComplete) {
            ch.flush();
        } else {
            // Not keep-alive, or the origin answered before the browser finished sending: end the connection.
            front.closeAfterFlush();
        }
        front.exchangeProgressed();
    }

    @Override
    public void failed(UpstreamFailure failure) {
        context.stats().record(Outcome.ERROR, System.nanoTime() - started);
        responseComplete = true;
        if (clientGone) {
            return;
        }
        if (responseStarted) {
            // Part of the origin's response went out already: closing is the only honest signal left.
            front.closeAfterFlush();
        } else {
            FullHttpResponse r = Responses.text(ch.alloc(), HttpResponseStatus.valueOf(failure.status()),
                    failure.message(), context.config().via());
            r.headers().set(CACHE_STATUS, cacheStatus);
            front.respond(r, keepAlive && requestComplete);
        }
        front.exchangeProgressed();
    }

    @Override
    public void requestBodyWritable(boolean writable) {
        front.pauseBody(!writable);
    }

    private void setKeepAlive(HttpResponse r) {
        if (!keepAlive) {
            r.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        } else if (!clientHttp11) {
            r.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        }
    }

    private static Headers headersOf(HttpHeaders h) {
        List<Headers.Field> fields = new ArrayList<>(h.size());
        for (Map.Entry<String, String> e : h) {
            fields.add(new Headers.Field(e.getKey(), e.getValue()));
        }
        return Headers.of(fields);
    }
}
