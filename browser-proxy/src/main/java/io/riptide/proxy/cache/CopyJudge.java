package io.riptide.proxy.cache;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.riptide.core.http.CacheControl;
import io.riptide.core.http.CachedResponse;
import io.riptide.core.http.Freshness;
import io.riptide.core.http.Headers;
import io.riptide.core.http.ServeDecision;
import io.riptide.core.http.ServeRules;
import io.riptide.core.object.PushMode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * What RFC 9111 says a shared cache does with one verified copy for one request, at one instant: serve
 * it (fresh, or stale where allowed), revalidate it first, or, for {@code only-if-cached}, answer
 * 504. A verified heartbeat counts as a revalidation at its issue time (§4.3.4, applied in
 * {@link VerifiedCopy}); in push mode a copy
 * the gateway vouched for within the bound is served although its own lifetime ran out. Pure: the
 * caller supplies the time.
 */
final class CopyJudge {
    private static final byte[] ONLY_IF_CACHED_BODY =
            "The request said only-if-cached and the cached copy would need revalidating.\n".getBytes(StandardCharsets.UTF_8);

    private final Freshness freshness = new Freshness();
    private final ServeRules rules = new ServeRules(freshness);
    private final PushMode pushMode;

    CopyJudge(PushMode pushMode) {
        this.pushMode = pushMode;
    }

    /**
     * The lookup's result for {@code copy}, whose body is {@code body}, requested with {@code request}
     * for canonical URL {@code url} at {@code now}; {@code found} describes the copy, its {@code stale}
     * flag set here. Takes over the caller's reference to {@code body}: an answer to serve carries it,
     * and any other result has copied what it needs and released it.
     */
    LookupResult judge(VerifiedCopy copy, ByteBuf body, String url, Headers request, Instant now, LookupResult.Found found) {
        Headers headers = copy.headers();
        CachedResponse cached = new CachedResponse(copy.status(), headers, Instant.ofEpochMilli(copy.requestTimeMillis()),
                Instant.ofEpochMilli(copy.responseTimeMillis()));
        ServeDecision d = rules.decide(cached, request, now);
        switch (d.action()) {
            case SERVE_FRESH, SERVE_STALE, SERVE_STALE_WHILE_REVALIDATE -> {
                boolean fresh = d.action() == ServeDecision.Action.SERVE_FRESH;
                return LookupResult.serve(fresh ? CacheStatus.HIT : CacheStatus.hit("stale"),
                        answer(copy, d, body), withStale(found, !fresh));
            }
            case GATEWAY_TIMEOUT -> {
                body.release();
                return LookupResult.serve(CacheStatus.forward("miss", "only-if-cached"), new LookupResult.Answer(504,
                        "Gateway Timeout", Headers.of("Content-Type", "text/plain; charset=utf-8"), ONLY_IF_CACHED_BODY), found);
            }
            default -> {
                if (pushMode.covers(url) && !CacheControl.ofRequest(request).noCache()
                        && now.toEpochMilli() - copy.newestSignalMillis() <= pushMode.bound().toMillis()) {
                    // Push mode: the gateway vouched for this version less than the bound ago.
                    return LookupResult.serve(CacheStatus.hit("push"), answer(copy, d, body), found);
                }
                // RFC 9211: "request" when only the request's directives (no-cache, max-age, min-fresh) stop
                // a copy that is fresh for everyone else; "stale" when the copy itself needs validating.
                Headers undirected = request.without("Cache-Control").without("Pragma");
                boolean byRequest = rules.decide(cached, undirected, now).action() == ServeDecision.Action.SERVE_FRESH;
                byte[] bytes = ByteBufUtil.getBytes(body);
                body.release();
                return LookupResult.validate(CacheStatus.forward(byRequest ? "request" : "stale"), new LookupResult.Stored(
                        copy.status(), copy.reason(), headers.without("Age").without("Cache-Status"), bytes, d.age(),
                        d.staleIfErrorAllowed()), withStale(found, !byRequest));
            }
        }
    }

    /**
     * When {@code copy} is fresh for a request with no directives of its own (no Cache-Control, no
     * Pragma): what {@link #judge} would decide for such a request, worked out once, so a memory hit
     * costs two comparisons instead of parsing the stored header fields again.
     */
    FreshWindow window(VerifiedCopy copy) {
        Instant responseTime = Instant.ofEpochMilli(copy.responseTimeMillis());
        CachedResponse cached = new CachedResponse(copy.status(), copy.headers(), Instant.ofEpochMilli(copy.requestTimeMillis()),
                responseTime);
        long initialAge = freshness.currentAge(cached, responseTime).toMillis();
        if (CacheControl.ofResponse(copy.headers()).noCache()) {
            return new FreshWindow(Long.MIN_VALUE, initialAge, copy.responseTimeMillis()); // validated before every use
        }
        long lifetime = freshness.lifetime(cached).duration().toMillis();
        long until = initialAge >= lifetime ? Long.MIN_VALUE : copy.responseTimeMillis() + lifetime - initialAge;
        return new FreshWindow(until, initialAge, copy.responseTimeMillis());
    }

    /**
     * A copy's freshness for requests without directives: fresh before {@code freshUntilMillis}, its
     * current age (RFC 9111 §4.2.3) its age on arrival plus the time since.
     */
    record FreshWindow(long freshUntilMillis, long initialAgeMillis, long responseTimeMillis) {
        boolean freshAt(long nowMillis) {
            return nowMillis < freshUntilMillis;
        }

        long ageSecondsAt(long nowMillis) {
            return (initialAgeMillis + Math.max(0, nowMillis - responseTimeMillis)) / 1000;
        }
    }

    private static LookupResult.Answer answer(VerifiedCopy copy, ServeDecision d, ByteBuf body) {
        Headers served = copy.headers().without("Age").with("Age", Long.toString(Math.max(0, d.age().getSeconds())));
        return new LookupResult.Answer(copy.status(), copy.reason(), served, body);
    }

    private static LookupResult.Found withStale(LookupResult.Found f, boolean stale) {
        return new LookupResult.Found(f.guid(), f.primary(), f.version(), stale, f.replica(), f.hops());
    }
}
