package io.riptide.proxy.cache;

import io.riptide.core.http.CacheControl;
import io.riptide.core.http.CachedResponse;
import io.riptide.core.http.Freshness;
import io.riptide.core.http.Headers;
import io.riptide.core.http.HttpDates;
import io.riptide.core.http.ServeDecision;
import io.riptide.core.http.ServeRules;
import io.riptide.core.object.CachedCopy;
import io.riptide.core.object.Heartbeat;
import io.riptide.core.object.ObjectCertificate;
import io.riptide.core.object.PushMode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * What RFC 9111 says a shared cache does with one verified copy for one request, at one instant: serve
 * it (fresh, or stale where allowed), revalidate it first, or, for {@code only-if-cached}, answer
 * 504. A verified heartbeat counts as a revalidation at its issue time (§4.3.4); in push mode a copy
 * the gateway vouched for within the bound is served although its own lifetime ran out. Pure: the
 * caller supplies the time.
 */
final class CopyJudge {
    private static final byte[] ONLY_IF_CACHED_BODY =
            "The request said only-if-cached and the cached copy would need revalidating.\n".getBytes(StandardCharsets.UTF_8);

    private final ServeRules rules = new ServeRules(new Freshness());
    private final PushMode pushMode;

    CopyJudge(PushMode pushMode) {
        this.pushMode = pushMode;
    }

    /**
     * The lookup's result for {@code copy} (whose heartbeat verified if {@code heartbeatValid}),
     * requested with {@code request} for canonical URL {@code url} at {@code now}; {@code found}
     * describes the copy, its {@code stale} flag set here.
     */
    LookupResult judge(CachedCopy copy, boolean heartbeatValid, String url, Headers request, Instant now,
                       LookupResult.Found found) {
        ObjectCertificate cert = copy.object().certificate();
        Headers headers = cert.headers();
        Instant requestTime = Instant.ofEpochMilli(cert.requestTimeMillis());
        Instant responseTime = Instant.ofEpochMilli(cert.responseTimeMillis());
        long newestSignal = cert.responseTimeMillis();
        if (heartbeatValid) {
            // The provider saying "still current at t": as if revalidated then (RFC 9111 §4.3.4).
            Heartbeat hb = copy.heartbeat().orElseThrow();
            newestSignal = Math.max(newestSignal, hb.issuedAtMillis());
            Instant at = Instant.ofEpochMilli(hb.issuedAtMillis());
            headers = headers.with("Date", HttpDates.format(at)).without("Age");
            requestTime = at;
            responseTime = at;
        }
        CachedResponse cached = new CachedResponse(cert.statusCode(), headers, requestTime, responseTime);
        ServeDecision d = rules.decide(cached, request, now);
        byte[] body = copy.object().response().body();
        switch (d.action()) {
            case SERVE_FRESH, SERVE_STALE, SERVE_STALE_WHILE_REVALIDATE -> {
                boolean fresh = d.action() == ServeDecision.Action.SERVE_FRESH;
                return LookupResult.serve(fresh ? CacheStatus.HIT : CacheStatus.hit("stale"),
                        answer(cert, headers, d, body), withStale(found, !fresh));
            }
            case GATEWAY_TIMEOUT -> {
                return LookupResult.serve(CacheStatus.forward("miss", "only-if-cached"), new LookupResult.Answer(504,
                        "Gateway Timeout", Headers.of("Content-Type", "text/plain; charset=utf-8"), ONLY_IF_CACHED_BODY), found);
            }
            default -> {
                if (pushMode.covers(url) && !CacheControl.ofRequest(request).noCache()
                        && now.toEpochMilli() - newestSignal <= pushMode.bound().toMillis()) {
                    // Push mode: the gateway vouched for this version less than the bound ago.
                    return LookupResult.serve(CacheStatus.hit("push"), answer(cert, headers, d, body), found);
                }
                // RFC 9211: "request" when only the request's directives (no-cache, max-age, min-fresh) stop
                // a copy that is fresh for everyone else; "stale" when the copy itself needs validating.
                Headers undirected = request.without("Cache-Control").without("Pragma");
                boolean byRequest = rules.decide(cached, undirected, now).action() == ServeDecision.Action.SERVE_FRESH;
                return LookupResult.validate(CacheStatus.forward(byRequest ? "request" : "stale"), new LookupResult.Stored(
                        cert.statusCode(), cert.reasonPhrase(), headers.without("Age").without("Cache-Status"), body, d.age(),
                        d.staleIfErrorAllowed()), withStale(found, !byRequest));
            }
        }
    }

    private static LookupResult.Answer answer(ObjectCertificate cert, Headers headers, ServeDecision d, byte[] body) {
        Headers served = headers.without("Age").with("Age", Long.toString(Math.max(0, d.age().getSeconds())));
        return new LookupResult.Answer(cert.statusCode(), cert.reasonPhrase(), served, body);
    }

    private static LookupResult.Found withStale(LookupResult.Found f, boolean stale) {
        return new LookupResult.Found(f.guid(), f.primary(), f.version(), stale, f.replica(), f.hops());
    }
}
