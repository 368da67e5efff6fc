package io.riptide.proxy.front;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.HttpHeadersFactory;
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
import io.riptide.proxy.accesslog.AccessRecord;
import io.riptide.proxy.cache.CacheStatus;
import io.riptide.proxy.cache.LookupResult;
import io.riptide.proxy.cache.ProxyRequest;
import io.riptide.proxy.revalidation.Revalidation;
import io.riptide.proxy.upstream.OriginExchange;
import io.riptide.proxy.upstream.UpstreamFailure;
import java.net.URI;
import java.time.Instant;
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
 * {@code Cache-Status} saying which. A verified copy that needs validating is revalidated (the
 * conditions and what the answer means are {@link Revalidation}'s): the origin gets a conditional
 * request, and its 304 is answered with the copy (RFC 9111 §4.3). Runs on the browser connection's
 * event loop throughout.
 */
final class ProxyExchange implements Exchange, OriginExchange.Listener {
    private static final Logger LOG = LoggerFactory.getLogger(ProxyExchange.class);
    private static final String CACHE_STATUS = "Cache-Status";
    /** Heads of cached answers are copied from fields validated once when prepared: no second check. */
    private static final HttpHeadersFactory UNCHECKED = DefaultHttpHeadersFactory.headersFactory()
            .withNameValidation(false).withValueValidation(false);

    private final FrontHandler front;
    private final FrontContext context;
    private final Channel ch;
    private final HttpRequest upstreamHead;
    private final Target target;
    private final boolean clientHttp11;
    private final boolean headRequest;
    private final long started;
    private final long startMillis = System.currentTimeMillis();
    /** The URL whose origin fetch this exchange leads (others wait for it: {@link CollapsedFetches}), or null. */
    private String leading;
    /** The leader's body as it passes, to share with those waiting; null when not shared. */
    private ByteBuf sharing;
    private long sharingLength;
    private String sharingReason;
    /** How the answer counts in the proxy's figures when {@link #serve} sends it: a hit, or a miss answered by another's fetch. */
    private Outcome servedAs = Outcome.HIT;
    /** What went out, for the access log. */
    private int sentStatus;
    private long sentBytes;
    private String sentType;
    // Most requests have no body: start small (the default would be 16 slots per request).
    private final ArrayDeque<HttpContent> early = new ArrayDeque<>(1);
    private boolean keepAlive;
    private ProxyRequest cacheRequest;
    /** What the cache said, for the hint after the origin's answer; null when the cache was bypassed. */
    private LookupResult lookup;
    /** The origin's response head, for the cache's hints (its Vary says which request fields select the variant). */
    private Headers originResponseHeaders = Headers.EMPTY;
    private Outcome outcome;
    private CacheStatus cacheStatus;
    private OriginExchange origin;
    private long bodyBytes;
    private boolean requestComplete;
    private boolean responseStarted;
    private boolean responseComplete;
    private boolean clientGone;
    /** The revalidation of a verified copy this exchange runs, or null. */
    private Revalidation revalidation;
    /** The origin's body as it passes, for the cache's private tier; null when this response is not kept. */
    private ByteBuf keeping;
    private String keepingReason;
    /** When the request went to the origin and its answer came, by the cache's clock (RFC 9111 §4.2.3). */
    private long originRequestMillis;
    private long originResponseMillis;
    /** What the origin's response head came to while revalidating: passed on ({@code PASS}), or held back and replaced. */
    private Revalidation.Verdict held = Revalidation.Verdict.PASS;

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
        if (context.config().passThrough()) {
            forward(Outcome.BYPASS, CacheStatus.forward("bypass", "pass-through"));
            return;
        }
        cacheRequest = new ProxyRequest(upstreamHead.method().name(), target.url(), headersOf(upstreamHead.headers()));
        CacheStatus bypass = context.cacheability().bypass(cacheRequest);
        if (bypass != null) {
            forward(Outcome.BYPASS, bypass);
            return;
        }
        if (!context.admission().tryEnter()) {
            forward(Outcome.BYPASS, CacheStatus.forward("bypass", "overloaded"));
            return;
        }
        CompletableFuture<LookupResult> pending;
        try {
            pending = context.cache().lookup(cacheRequest);
        } catch (RuntimeException e) {
            context.admission().exit();
            LOG.debug("cache lookup of {} threw", target.url(), e);
            looked(null, e);
            return;
        }
        pending.whenComplete((result, error) -> {
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
            if (result != null) {
                result.release();
            }
            return;
        }
        if (error != null || result == null) {
            LOG.debug("cache lookup of {} failed", target.url(), error);
            lookup = LookupResult.forward(CacheStatus.forward("miss", "lookup-error"));
        } else {
            lookup = result;
        }
        switch (lookup.kind()) {
            case SERVE -> serve(lookup.answer().status(), lookup.answer().reason(), lookup.answer().headers(),
                    lookup.answer().body(), lookup.answer().ageSeconds(), lookup.status());
            case VALIDATE -> revalidate(lookup);
            case FORWARD -> forwardMiss(lookup.status());
        }
    }

    /** A miss goes to the origin, unless a fetch of the same URL is in flight: then it waits for that one's answer. */
    private void forwardMiss(CacheStatus status) {
        String key = CollapsedFetches.key(upstreamHead.method().name(), target.url().toString(), upstreamHead.headers());
        if (key != null) {
            Collapsed waiting = new Collapsed(key, status);
            if (!context.collapsed().leadOrWait(key, waiting)) {
                waiting.armDeadline();
                return;
            }
            leading = key;
        }
        forward(Outcome.MISS, status);
    }

    /** This exchange's wait for another's fetch of the same URL, bounded by the connect timeout (as the origin queue is). */
    private final class Collapsed implements CollapsedFetches.Waiter {
        private final String key;
        private final CacheStatus status;
        private io.netty.util.concurrent.ScheduledFuture<?> deadline;
        /** Set on the exchange's loop once it was answered, went itself, or its browser left. */
        private boolean decided;

        Collapsed(String key, CacheStatus status) {
            this.key = key;
            this.status = status;
        }

        /** Called on the exchange's loop once it waits; the leader may have answered already (then this is moot). */
        void armDeadline() {
            if (!decided) {
                deadline = ch.eventLoop().schedule(this::expired, context.config().connectTimeout().toMillis(),
                        java.util.concurrent.TimeUnit.MILLISECONDS);
            }
        }

        private void expired() {
            context.collapsed().leave(key, this);
            decide(null);
        }

        @Override
        public void done(CollapsedFetches.Shared shared) {
            if (ch.eventLoop().inEventLoop()) {
                decide(shared);
            } else {
                ch.eventLoop().execute(() -> decide(shared));
            }
        }

        private void decide(CollapsedFetches.Shared shared) {
            if (decided) {
                return;
            }
            decided = true;
            if (deadline != null) {
                deadline.cancel(false);
            }
            if (clientGone) {
                return;
            }
            if (shared == null) {
                forward(Outcome.MISS, status);
                return;
            }
            servedAs = Outcome.MISS;
            serve(shared.status(), shared.reason(), shared.headers(), Unpooled.wrappedBuffer(shared.body()), -1,
                    status.withDetail("collapsed"));
        }
    }

    /** Ends this exchange's lead of its URL's fetch: those waiting get {@code shared}, or go themselves if it is null. */
    private void finishLeading(CollapsedFetches.Shared shared) {
        if (sharing != null) {
            sharing.release();
            sharing = null;
        }
        if (leading != null) {
            String key = leading;
            leading = null;
            context.collapsed().finish(key, shared);
        }
    }

    /**
     * Answers from the cache: {@code headers} as stored (hop-by-hop fields dropped), {@code body} (whose
     * reference this takes: a memory hit's is a slice of the tier's buffer, written without a copy),
     * {@code ageSeconds} as {@code Age} unless -1 (then the headers carry it, and the head is made for
     * this response alone; else it is the copy's prepared head), and {@code status}.
     */
    private void serve(int code, String reason, Headers headers, ByteBuf body, long ageSeconds, CacheStatus status) {
        int length = body.readableBytes();
        PreparedHeads.Head head = ageSeconds < 0 ? context.heads().prepare(code, reason, headers, length)
                : context.heads().head(code, reason, headers, length);
        // HEAD gets the length of the body it would have had, and no body.
        ByteBuf content = body;
        if (headRequest) {
            body.release();
            content = Unpooled.EMPTY_BUFFER;
        }
        ByteRange.Asked asked = code == 200 ? rangeAsked(headers, length) : new ByteRange.Whole();
        HttpResponseStatus line = head.line();
        if (asked instanceof ByteRange.Part p) {
            // A stored full response answers a range request with just those bytes (RFC 9111 §3.4, RFC 9110 §14).
            line = HttpResponseStatus.PARTIAL_CONTENT;
            if (!headRequest) {
                ByteBuf part = content.retainedSlice((int) p.range().first(), (int) p.range().length());
                content.release();
                content = part;
            }
        } else if (asked instanceof ByteRange.Unsatisfiable) {
            line = HttpResponseStatus.REQUESTED_RANGE_NOT_SATISFIABLE;
            content.release();
            content = Unpooled.EMPTY_BUFFER;
        }
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, line, content, UNCHECKED, UNCHECKED);
        HttpHeaders h = r.headers();
        h.add(head.headers());
        if (asked instanceof ByteRange.Part p) {
            h.set(HttpHeaderNames.CONTENT_RANGE, p.range().contentRange(length));
            h.set(HttpHeaderNames.CONTENT_LENGTH, p.range().length());
        } else if (asked instanceof ByteRange.Unsatisfiable) {
            h.set(HttpHeaderNames.CONTENT_RANGE, "bytes */" + length);
            h.set(HttpHeaderNames.CONTENT_LENGTH, 0);
        }
        if (ageSeconds >= 0) {
            h.set(HttpHeaderNames.AGE, ageSeconds);
        }
        // Added to any the copy carries from caches before it (RFC 9211: the nearest to the user comes last).
        h.add(CACHE_STATUS, context.heads().render(status));
        for (HttpContent c; (c = early.poll()) != null; ) {
            c.release();
        }
        responseStarted = true;
        responseComplete = true;
        // Counted as a hit even after a 304: the body, which is what the cache saves, came from the overlay.
        context.stats().record(servedAs, System.nanoTime() - started);
        logAccess(r.status().code(), r.content().readableBytes(), h.get(HttpHeaderNames.CONTENT_TYPE), status);
        setKeepAlive(r);
        front.respond(r, keepAlive);
        front.exchangeProgressed();
    }

    /**
     * The range the browser asked of a stored full response, if it is to be honoured: a Range field,
     * and an If-Range (if any) naming the stored copy's strong ETag or its exact Last-Modified (else
     * the whole response, RFC 9110 §13.1.5).
     */
    private ByteRange.Asked rangeAsked(Headers stored, int length) {
        String range = upstreamHead.headers().get(HttpHeaderNames.RANGE);
        if (range == null) {
            return new ByteRange.Whole();
        }
        String ifRange = upstreamHead.headers().get(HttpHeaderNames.IF_RANGE);
        if (ifRange != null) {
            String v = ifRange.strip();
            boolean matches = v.startsWith("\"") ? stored.first("ETag").map(String::strip).filter(v::equals).isPresent()
                    : stored.first("Last-Modified").map(String::strip).filter(v::equals).isPresent();
            if (!matches) {
                return new ByteRange.Whole();
            }
        }
        return ByteRange.of(range, length);
    }

    /** The lookup found a verified copy that must be validated before use: ask the origin with {@link Revalidation}'s conditions. */
    private void revalidate(LookupResult result) {
        revalidation = Revalidation.of(result.stored(), cacheRequest.headers());
        HttpHeaders h = upstreamHead.headers();
        revalidation.conditions().forEach(h::set);
        forward(Outcome.MISS, result.status());
    }

    /** A revalidation ended with the origin's head held back: the browser gets the stored copy, or a 502. */
    private void serveStored(int originStatus) {
        if (held == Revalidation.Verdict.ASK_AGAIN) {
            askAgain();
            return;
        }
        LookupResult.Stored stored = revalidation.stored();
        CacheStatus answered = cacheStatus.withFwdStatus(originStatus);
        if (held == Revalidation.Verdict.NOT_MODIFIED) {
            Headers freshened = revalidation.freshened();
            serve(stored.status(), stored.reason(), freshened, Unpooled.wrappedBuffer(stored.body()), -1, answered);
            hintCache(304, freshened);
            // The origin freshened the copy (RFC 9111 §4.3.4): kept so, the next request need not ask again.
            context.cache().keep(cacheRequest, stored.status(), stored.reason(), freshened, stored.body(),
                    originRequestMillis, now().toEpochMilli());
            return;
        }
        if (stored.staleIfError()) {
            serveStale(answered);
            return;
        }
        UpstreamFailure failure = new UpstreamFailure(502, "origin " + target.origin()
                + " answered 304 Not Modified for a version this proxy does not hold");
        cacheStatus = answered;
        held = Revalidation.Verdict.PASS;
        failed(failure);
    }

    /** The origin could not validate the copy, which allows stale-if-error: serve it stale, with its current age. */
    private void serveStale(CacheStatus status) {
        LookupResult.Stored stored = revalidation.stored();
        serve(stored.status(), stored.reason(), revalidation.staleHeaders(), Unpooled.wrappedBuffer(stored.body()), -1,
                status.withDetail("stale-if-error"));
    }

    /**
     * The origin's 304 spoke for no version the proxy or the browser holds: the request goes up once
     * more without any condition (the browser's own ones too), so the browser gets the full current
     * response. A 304 to that is answered as one about an unknown version (stale-if-error, or 502).
     */
    private void askAgain() {
        held = Revalidation.Verdict.PASS;
        HttpHeaders h = upstreamHead.headers();
        revalidation.askAgain().forEach(h::remove);
        forward(outcome, cacheStatus);
        // The browser's request ended (and had no body) before the first answer: end this one the same way.
        origin.body(LastHttpContent.EMPTY_LAST_CONTENT);
    }

    /** Now, by the clock the proxy was given (the cache's). */
    private Instant now() {
        return context.cache().clock().instant();
    }

    private void forward(Outcome outcome, CacheStatus cacheStatus) {
        this.outcome = outcome;
        this.cacheStatus = cacheStatus;
        originRequestMillis = now().toEpochMilli();
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
        stopKeeping();
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
        stopKeeping();
        finishLeading(null);
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
        CacheStatus status = cacheStatus;
        if (revalidation != null) {
            held = revalidation.judge(head.status().code(), headersOf(h), now(), requestComplete && bodyBytes == 0);
            if (held != Revalidation.Verdict.PASS) {
                // Replaced by the stored copy once the origin's (empty or error) body has been read.
                return;
            }
            status = status.withFwdStatus(head.status().code());
        }
        responseStarted = true;
        if (cacheRequest != null) {
            originResponseHeaders = headersOf(h);
            startKeeping(head);
        }
        if (leading != null && context.collapsed().shareable(cacheRequest.headers(), head.status().code(),
                originResponseHeaders, HttpUtil.getContentLength(head, -1L))) {
            sharingLength = HttpUtil.getContentLength(head, 0L);
            sharingReason = head.status().reasonPhrase();
            sharing = ch.alloc().heapBuffer((int) sharingLength);
        }
        invalidateAfterUnsafe(head.status().code(), h);
        HopByHop.addVia(h, head.protocolVersion(), context.config().via());
        h.add(CACHE_STATUS, status.render(context.config().via()));
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
        sentStatus = code;
        sentType = h.get(HttpHeaderNames.CONTENT_TYPE);
        cacheStatus = status;
        ch.write(head, ch.voidPromise());
        if (!ch.isWritable()) {
            origin.pause();
        }
    }

    @Override
    public void responseContent(HttpContent content) {
        if (held != Revalidation.Verdict.PASS) {
            content.release();
            return;
        }
        sentBytes += content.content().readableBytes();
        if (sharing != null) {
            if (sharing.readableBytes() + content.content().readableBytes() > CollapsedFetches.MAX_SHARED_BYTES) {
                sharing.release(); // longer than its Content-Length said: the front will refuse it anyway
                sharing = null;
            } else {
                sharing.writeBytes(content.content(), content.content().readerIndex(), content.content().readableBytes());
            }
        }
        if (keeping != null) {
            if (keeping.readableBytes() + content.content().readableBytes() > context.cache().maxKeptBytes()) {
                stopKeeping(); // larger than the private tier keeps
            } else {
                keeping.writeBytes(content.content(), content.content().readerIndex(), content.content().readableBytes());
            }
        }
        ch.write(content, ch.voidPromise());
        if (!ch.isWritable()) {
            origin.pause();
        }
    }

    @Override
    public void responseReadComplete() {
        if (held == Revalidation.Verdict.PASS) {
            ch.flush();
        }
    }

    @Override
    public void responseComplete(int status) {
        if (held != Revalidation.Verdict.PASS) {
            if (!clientGone) {
                serveStored(status);
            }
            return;
        }
        responseComplete = true;
        long now = System.nanoTime();
        context.stats().record(outcome, now - started);
        logAccess(sentStatus, sentBytes, sentType, cacheStatus);
        shareResponse();
        keepResponse();
        hintCache(status, originResponseHeaders);
        if (keepAlive && requestComplete) {
            ch.flush();
        } else {
            // Not keep-alive, or the origin answered before the browser finished sending: end the connection.
            front.closeAfterFlush();
        }
        front.exchangeProgressed();
    }

    /**
     * Starts collecting the origin's body for the cache's private tier if the cache would keep this
     * response (a GET's full, storable answer; {@link io.riptide.proxy.CacheLookup#mayKeep}).
     */
    private void startKeeping(HttpResponse head) {
        int code = head.status().code();
        if (headRequest || !HttpMethod.GET.equals(upstreamHead.method())
                || !context.cache().mayKeep(cacheRequest, code, originResponseHeaders, HttpUtil.getContentLength(head, -1L))) {
            return;
        }
        keeping = ch.alloc().heapBuffer((int) Math.min(HttpUtil.getContentLength(head, 0L), context.cache().maxKeptBytes()));
        keepingReason = head.status().reasonPhrase();
        originResponseMillis = now().toEpochMilli();
    }

    private void stopKeeping() {
        if (keeping != null) {
            keeping.release();
            keeping = null;
        }
    }

    /** The origin's whole body arrived: those waiting for this fetch get it, if it may be shared and came whole. */
    private void shareResponse() {
        if (leading == null) {
            return;
        }
        CollapsedFetches.Shared shared = null;
        if (sharing != null && sharing.readableBytes() == sharingLength) {
            shared = new CollapsedFetches.Shared(sentStatus, sharingReason, originResponseHeaders, ByteBufUtil.getBytes(sharing));
        }
        finishLeading(shared);
    }

    /** The origin's whole body arrived: the cache keeps the response privately. */
    private void keepResponse() {
        if (keeping == null) {
            return;
        }
        byte[] body = ByteBufUtil.getBytes(keeping);
        stopKeeping();
        try {
            context.cache().keep(cacheRequest, sentStatus, keepingReason, originResponseHeaders, body, originRequestMillis,
                    originResponseMillis);
        } catch (RuntimeException e) {
            LOG.debug("keeping {} threw", target.url(), e);
        }
    }

    /**
     * RFC 9111 §4.4: a non-error answer to an unsafe method invalidates the target URI, and the
     * Location and Content-Location URIs when they are on the same origin (another origin could
     * otherwise make this proxy drop a third party's pages).
     */
    private void invalidateAfterUnsafe(int status, HttpHeaders responseHeaders) {
        if (!UnsafeMethods.isUnsafe(upstreamHead.method()) || status < 200 || status >= 400) {
            return;
        }
        List<URI> related = new ArrayList<>(2);
        for (CharSequence name : List.of(HttpHeaderNames.LOCATION, HttpHeaderNames.CONTENT_LOCATION)) {
            String value = responseHeaders.get(name);
            if (value != null) {
                UnsafeMethods.sameOrigin(target.url(), value).ifPresent(related::add);
            }
        }
        try {
            context.cache().invalidate(upstreamHead.method().name(), target.url(), related);
        } catch (RuntimeException e) {
            LOG.debug("invalidating {} threw", target.url(), e);
        }
    }

    /** One line in the access log for this request. */
    private void logAccess(int status, long bytes, String contentType, CacheStatus cs) {
        String client = ch.remoteAddress() instanceof java.net.InetSocketAddress a ? a.getAddress().getHostAddress() : "-";
        context.config().accessLog().log(new AccessRecord(startMillis, System.currentTimeMillis() - startMillis, client,
                upstreamHead.method().name(), target.url().toString(), status, bytes, cs == null ? "-" : cs.outcome(), contentType));
    }

    /** Tells the cache how the origin answered a request it sent forward (its hints: miss, or stale after a revalidation). */
    private void hintCache(int status, Headers responseHeaders) {
        if (lookup != null) {
            try {
                context.cache().onOriginResponse(cacheRequest, lookup, status, responseHeaders);
            } catch (RuntimeException e) {
                LOG.debug("the cache's origin-response hook threw for {}", target.url(), e);
            }
        }
    }

    @Override
    public void failed(UpstreamFailure failure) {
        if (revalidation != null && revalidation.stored().staleIfError() && !responseStarted && !clientGone) {
            // No answer at all from the origin: the copy's stale-if-error covers that too (RFC 5861 §4).
            held = Revalidation.Verdict.PASS;
            serveStale(cacheStatus);
            return;
        }
        context.stats().record(failure.shed() ? Outcome.SHED : Outcome.ERROR, System.nanoTime() - started);
        responseComplete = true;
        stopKeeping();
        finishLeading(null);
        logAccess(responseStarted ? sentStatus : failure.status(), sentBytes, sentType, cacheStatus);
        if (clientGone) {
            return;
        }
        if (responseStarted) {
            // Part of the origin's response went out already: closing is the only honest signal left.
            front.closeAfterFlush();
        } else {
            FullHttpResponse r = Responses.text(ch.alloc(), HttpResponseStatus.valueOf(failure.status()),
                    failure.message(), context.config().via());
            r.headers().set(CACHE_STATUS, cacheStatus.render(context.config().via()));
            if (failure.retryAfterSeconds() > 0) {
                r.headers().setInt(HttpHeaderNames.RETRY_AFTER, failure.retryAfterSeconds());
            }
            // A request shed before its end was read but without a body ends with an empty last chunk, which the front
            // drops: the connection stays open for the retry, instead of costing the client (and this proxy, busy as it
            // is) a new connection.
            boolean over = requestComplete || failure.shed() && !HttpUtil.isTransferEncodingChunked(upstreamHead)
                    && HttpUtil.getContentLength(upstreamHead, 0L) == 0;
            front.respond(r, keepAlive && over);
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
