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
import io.riptide.core.http.ConditionalRequest;
import io.riptide.core.http.Headers;
import io.riptide.core.http.Validators;
import io.riptide.proxy.ProxyStats.Outcome;
import io.riptide.proxy.cache.LookupResult;
import io.riptide.proxy.cache.ProxyRequest;
import io.riptide.proxy.upstream.OriginExchange;
import io.riptide.proxy.upstream.UpstreamFailure;
import java.util.ArrayDeque;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One absolute-form request: decide cacheability, look it up (within the admission bound) or
 * bypass the cache, then serve the hit or stream the origin's response back chunk by chunk with the
 * {@code Cache-Status} saying which. A verified copy that needs validating is revalidated: the
 * origin gets a conditional request, and its 304 is answered with the copy (RFC 9111 §4.3). Runs on
 * the browser connection's event loop throughout.
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
    /** The verified copy this exchange revalidates, or null. */
    private LookupResult.Stored stored;
    /** Whether the conditional request carries the copy's own validators, so a 304 can be about the copy. */
    private boolean ownValidators;
    /** What the origin's response head came to while revalidating: passed on, or held back and replaced. */
    private Held held = Held.NO;
    /** The origin's 304 head fields (hop-by-hop removed) while {@code held} is NOT_MODIFIED. */
    private Headers notModified = Headers.EMPTY;
    /** Whether the revalidation was given up for an unconditional request (done at most once). */
    private boolean unconditional;

    /** Why the origin's head is held back instead of streamed to the browser. */
    private enum Held {
        /** Not held: the origin's response goes to the browser. */
        NO,
        /** A 304 validating the stored copy: the browser gets the copy with the 304's fields. */
        NOT_MODIFIED,
        /** A 5xx, or a 304 about a version the proxy does not hold: the copy is served stale-if-error, or 502. */
        ERROR,
        /** A 304 that answers neither the copy's conditions nor the browser's: asked again, unconditionally. */
        ASK_AGAIN
    }

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
        Cacheability.Verdict verdict = Cacheability.of(upstreamHead.method(), target.originForm(), upstreamHead.headers(),
                context.config().cookiesBypass(), context.config().queryBypass());
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
        } else if (result.stored() != null) {
            revalidate(result);
        } else {
            forward(Outcome.MISS, name + "; " + result.missStatus(), false);
        }
    }

    private void serveHit(LookupResult hit) {
        serve(hit.status(), hit.reason(), hit.headers(), hit.body(), null);
    }

    /**
     * Answers from the cache: {@code headers} as stored (hop-by-hop fields dropped) and {@code body};
     * {@code cacheStatus} is added to any Cache-Status already there, or, when null, the headers'
     * own Cache-Status (else a plain hit) is kept.
     */
    private void serve(int code, String reason, Headers headers, byte[] body, String cacheStatus) {
        byte[] content = body == null ? new byte[0] : body;
        HttpResponseStatus status = reason == null ? HttpResponseStatus.valueOf(code) : new HttpResponseStatus(code, reason);
        // HEAD gets the length of the body it would have had, and no body.
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                headRequest ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(content));
        HttpHeaders h = r.headers();
        for (Headers.Field f : headers.fields()) {
            h.add(f.name(), f.value());
        }
        HopByHop.strip(h);
        h.remove(HttpHeaderNames.TRANSFER_ENCODING);
        h.setInt(HttpHeaderNames.CONTENT_LENGTH, content.length);
        HopByHop.addVia(h, HttpVersion.HTTP_1_1, context.config().via());
        if (cacheStatus != null) {
            h.add(CACHE_STATUS, cacheStatus);
        } else if (!h.contains(CACHE_STATUS)) {
            h.set(CACHE_STATUS, context.config().via() + "; hit");
        }
        for (HttpContent c; (c = early.poll()) != null; ) {
            c.release();
        }
        responseStarted = true;
        responseComplete = true;
        // Counted as a hit even after a 304: the body, which is what the cache saves, came from the overlay.
        context.stats().record(Outcome.HIT, System.nanoTime() - started);
        setKeepAlive(r);
        front.respond(r, keepAlive);
        front.exchangeProgressed();
    }

    /**
     * The lookup found a verified copy that must be validated before use: ask the origin with the
     * copy's validators merged into the browser's own conditions (RFC 9111 §4.3.1, §4.3.2). A copy
     * without validators, or a request whose conditions a 304 could not answer for the copy (Range,
     * If-Match, If-Unmodified-Since, If-Range), goes up as the browser sent it; either way an
     * origin failure may still be answered with the copy if it allows stale-if-error.
     */
    private void revalidate(LookupResult result) {
        stored = result.stored();
        HttpHeaders h = upstreamHead.headers();
        boolean unmergeable = h.contains(HttpHeaderNames.RANGE) || h.contains(HttpHeaderNames.IF_RANGE)
                || h.contains(HttpHeaderNames.IF_MATCH) || h.contains(HttpHeaderNames.IF_UNMODIFIED_SINCE);
        ConditionalRequest mine = Validators.conditionalRequest(stored.headers());
        if (!unmergeable && mine.hasValidators()) {
            List<String> clientTags = cacheRequest.headers().elements("If-None-Match");
            if (clientTags.isEmpty()) {
                // The copy's Last-Modified replaces a browser's If-Modified-Since: the 304 must speak for
                // the copy; the browser's date is then checked against the freshened copy.
                mine.ifNoneMatch().ifPresent(v -> h.set(HttpHeaderNames.IF_NONE_MATCH, v));
                mine.ifModifiedSince().ifPresent(v -> h.set(HttpHeaderNames.IF_MODIFIED_SINCE, v));
                ownValidators = true;
            } else if (mine.ifNoneMatch().isPresent() && !clientTags.contains("*")) {
                // The union of the browser's entity tags and the copy's (RFC 9111 §4.3.2). If-Modified-Since
                // stays the browser's: beside If-None-Match the origin ignores it anyway.
                List<String> union = new ArrayList<>(clientTags);
                for (String tag : mine.ifNoneMatch().get().split(",\\s*")) {
                    if (!union.contains(tag)) {
                        union.add(tag);
                    }
                }
                h.set(HttpHeaderNames.IF_NONE_MATCH, String.join(", ", union));
                ownValidators = true;
            }
            // Else the browser's If-None-Match cannot carry a Last-Modified date: its own question goes up alone.
        }
        forward(Outcome.MISS, context.config().via() + "; " + result.missStatus(), false);
    }

    /**
     * The origin answered a revalidation with {@code head}: decide whether the browser gets it, or
     * the stored copy instead (after a 304 about the copy, or an error the copy may cover).
     * A 304 reaches the browser only when it answers the browser's own conditions (RFC 9111 §4.3.2):
     * its entity tag is one the browser named, or its Last-Modified is no later than the browser's
     * If-Modified-Since. A 304 that speaks for neither the copy nor the browser's version (another
     * backend's Last-Modified, a strong tag for a weakly tagged copy) is asked again without conditions.
     */
    private Held judgeRevalidation(HttpResponse head) {
        int code = head.status().code();
        if (code == 304) {
            if (unconditional) {
                return Held.ERROR; // a 304 to a request with no conditions answers nothing
            }
            Headers answer = headersOf(head.headers());
            Instant now = now();
            boolean aboutCopy = ownValidators && Validators.selects(answer, stored.headers(), now);
            boolean browserAsked = cacheRequest.headers().contains("If-None-Match")
                    || cacheRequest.headers().contains("If-Modified-Since");
            if (aboutCopy) {
                Headers freshened = Validators.freshen(stored.headers(), answer);
                if (browserAsked && Validators.notModified(cacheRequest.headers(), freshened, now)) {
                    return Held.NO; // the browser's own copy is current too: it gets the 304
                }
                notModified = answer;
                return Held.NOT_MODIFIED;
            }
            if (!ownValidators) {
                return Held.NO; // the browser's request went up as it was sent: the 304 is its answer
            }
            if (browserAsked && Validators.notModified(cacheRequest.headers(), answer, now)) {
                return Held.NO; // about the browser's version, by its own validators
            }
            // About some version neither holds: no answer the browser (or the copy) can use.
            return requestComplete && bodyBytes == 0 ? Held.ASK_AGAIN : Held.ERROR;
        }
        // The errors stale-if-error covers (RFC 5861 §4).
        boolean error = code == 500 || code == 502 || code == 503 || code == 504;
        return error && stored.staleIfError() ? Held.ERROR : Held.NO;
    }

    /** A revalidation ended with the origin's head held back: the browser gets the stored copy, or a 502. */
    private void serveStored(int originStatus) {
        String prefix = cacheStatus;
        if (held == Held.ASK_AGAIN) {
            askAgain();
            return;
        }
        if (held == Held.NOT_MODIFIED) {
            Headers freshened = Validators.freshen(stored.headers(), notModified);
            // Just validated: its age starts again, unless the 304 came through a cache that says otherwise.
            if (!notModified.contains("Age")) {
                freshened = freshened.with("Age", "0");
            }
            serve(stored.status(), stored.reason(), freshened, stored.body(), prefix + "; fwd-status=304");
            hintCache(304, freshened);
            return;
        }
        if (stored.staleIfError()) {
            serveStale(prefix + "; fwd-status=" + originStatus);
            return;
        }
        UpstreamFailure failure = new UpstreamFailure(502, "origin " + target.origin()
                + " answered 304 Not Modified for a version this proxy does not hold");
        cacheStatus = prefix + "; fwd-status=" + originStatus;
        held = Held.NO;
        failed(failure);
    }

    /** The origin could not validate the copy, which allows stale-if-error: serve it stale, with its current age. */
    private void serveStale(String status) {
        serve(stored.status(), stored.reason(), stored.headers().with("Age", Long.toString(stored.age().getSeconds())),
                stored.body(), status + "; detail=stale-if-error");
    }

    /**
     * The origin's 304 spoke for no version the proxy or the browser holds: the request goes up once
     * more without any condition (the browser's own ones too), so the browser gets the full current
     * response. A 304 to that is answered as one about an unknown version (stale-if-error, or 502).
     */
    private void askAgain() {
        unconditional = true;
        ownValidators = false;
        held = Held.NO;
        HttpHeaders h = upstreamHead.headers();
        h.remove(HttpHeaderNames.IF_NONE_MATCH);
        h.remove(HttpHeaderNames.IF_MODIFIED_SINCE);
        forward(outcome, cacheStatus, bypassed);
        // The browser's request ended (and had no body) before the first answer: end this one the same way.
        origin.body(LastHttpContent.EMPTY_LAST_CONTENT);
    }

    /** Now, by the clock the proxy was given (the cache's). */
    private Instant now() {
        return context.cache().clock().instant();
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
        HttpHeaders h = head.headers();
        HopByHop.strip(h);
        if (stored != null) {
            held = judgeRevalidation(head);
            if (held != Held.NO) {
                // Replaced by the stored copy once the origin's (empty or error) body has been read.
                return;
            }
            cacheStatus += "; fwd-status=" + head.status().code();
        }
        responseStarted = true;
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
        if (held != Held.NO) {
            content.release();
            return;
        }
        ch.write(content, ch.voidPromise());
        if (!ch.isWritable()) {
            origin.pause();
        }
    }

    @Override
    public void responseReadComplete() {
        if (held == Held.NO) {
            ch.flush();
        }
    }

    @Override
    public void responseComplete(int status) {
        if (held != Held.NO) {
            if (!clientGone) {
                serveStored(status);
            }
            return;
        }
        responseComplete = true;
        long now = System.nanoTime();
        context.stats().record(outcome, now - started);
        hintCache(status, originResponseHeaders);
        if (keepAlive && requestComplete) {
            ch.flush();
        } else {
            // Not keep-alive, or the origin answered before the browser finished sending: end the connection.
            front.closeAfterFlush();
        }
        front.exchangeProgressed();
    }

    /** Tells the cache how the origin answered (its hints: miss, or stale after a revalidation). */
    private void hintCache(int status, Headers responseHeaders) {
        if (cacheRequest != null) {
            try {
                context.cache().onOriginResponse(cacheRequest, status, responseHeaders, System.nanoTime() - originStarted, bypassed);
            } catch (RuntimeException e) {
                LOG.debug("the cache's origin-response hook threw for {}", target.url(), e);
            }
        }
    }

    @Override
    public void failed(UpstreamFailure failure) {
        if (stored != null && stored.staleIfError() && !responseStarted && !clientGone) {
            // No answer at all from the origin: the copy's stale-if-error covers that too (RFC 5861 §4).
            held = Held.NO;
            serveStale(cacheStatus);
            return;
        }
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
