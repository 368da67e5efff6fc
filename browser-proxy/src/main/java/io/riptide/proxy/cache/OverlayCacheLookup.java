package io.riptide.proxy.cache;

import io.riptide.core.crypto.PublicKey;
import io.riptide.core.gateway.GatewayMessages.InsertRequest;
import io.riptide.core.hint.HintMessages.LatencyHint;
import io.riptide.core.http.CacheControl;
import io.riptide.core.http.CachedResponse;
import io.riptide.core.http.CanonicalUrl;
import io.riptide.core.http.Headers;
import io.riptide.core.http.HttpDates;
import io.riptide.core.http.ServeDecision;
import io.riptide.core.http.ServeRules;
import io.riptide.core.http.Freshness;
import io.riptide.core.id.Id;
import io.riptide.core.object.CachedCopy;
import io.riptide.core.object.Heartbeat;
import io.riptide.core.object.ObjectCertificate;
import io.riptide.core.object.ObjectFormatException;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.object.ObjectVerifier;
import io.riptide.core.object.PushMode;
import io.riptide.core.object.Verification;
import io.riptide.core.object.VersionFloor;
import io.riptide.core.stage.Stage;
import io.riptide.core.stage.StageConfig;
import io.riptide.dolr.client.ClientMessages.ClientReadReply;
import io.riptide.dolr.client.OverlayClient;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;

/**
 * The browser proxy's cache: the overlay, read through the proxy's access nodes. A cacheable request
 * becomes a GUID (the canonical URL under the trusted provider's key), a read with a small hop budget,
 * and a verification (provider, signature, body digest, GUID, version never older than seen, the
 * newest heartbeat) on a bounded stage; the copy is served only if RFC 9111 says so for this request.
 * Anything else is a miss, and a miss hint asks the nearest gateway to insert the URL.
 */
public final class OverlayCacheLookup implements CacheLookup, AutoCloseable {
    private final OverlayClient overlay;
    private final PublicKey provider;
    private final OverlayCacheConfig config;
    private final Clock clock;
    private final PushMode pushMode;
    private final ObjectVerifier verifier;
    private final ServeRules rules = new ServeRules(new Freshness());
    private final Stage verify;
    private final Map<String, Long> hinted = new LinkedHashMap<>(64, 0.75f, true);
    private final Map<String, Boolean> stale = new LinkedHashMap<>(64, 0.75f, true);
    private final LongAdder rejected = new LongAdder();
    private final LongAdder hits = new LongAdder();

    public OverlayCacheLookup(OverlayClient overlay, PublicKey provider, OverlayCacheConfig config, Clock clock) {
        this(overlay, provider, config, clock, PushMode.NONE);
    }

    /** As above, serving URLs in {@code pushMode} while their newest heartbeat or update is recent enough. */
    public OverlayCacheLookup(OverlayClient overlay, PublicKey provider, OverlayCacheConfig config, Clock clock, PushMode pushMode) {
        this.pushMode = pushMode;
        this.overlay = overlay;
        this.provider = provider;
        this.config = config;
        this.clock = clock;
        this.verifier = new ObjectVerifier(java.util.Set.of(provider), new VersionFloor(VersionFloor.DEFAULT_CAPACITY),
                config.maxBodyBytes());
        this.verify = Stage.start(StageConfig.of("verify", config.verifyQueue(), 1, Math.max(1, Runtime.getRuntime().availableProcessors())));
    }

    /** Replicas refused by verification (tampered, forged, stale versions, malformed). */
    public long rejected() {
        return rejected.sum();
    }

    @Override
    public CompletableFuture<LookupResult> lookup(ProxyRequest request) {
        CanonicalUrl url;
        try {
            url = CanonicalUrl.of(request.url().toString());
        } catch (IllegalArgumentException e) {
            return CompletableFuture.completedFuture(LookupResult.miss("fwd=uri-miss"));
        }
        if (CacheControl.ofRequest(request.headers()).noCache()) {
            return CompletableFuture.completedFuture(LookupResult.miss("fwd=request"));
        }
        Id guid = ObjectNames.objectGuid(provider, url.value(), "");
        long start = System.nanoTime();
        CompletableFuture<LookupResult> result = new CompletableFuture<>();
        overlay.read(guid, config.ttl()).whenComplete((reply, error) -> {
            if (error != null || !reply.found()) {
                String detail = error != null ? "error" : reply.failure().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
                result.complete(LookupResult.miss("fwd=miss; detail=" + detail));
                return;
            }
            boolean queued = verify.submit(() -> judge(request, url, guid, reply, System.nanoTime() - start),
                    (r, e) -> result.complete(e != null ? LookupResult.miss("fwd=miss; detail=error") : r), Runnable::run);
            if (!queued) {
                result.complete(LookupResult.miss("fwd=bypass; detail=overloaded"));
            }
        });
        return result;
    }

    private LookupResult judge(ProxyRequest request, CanonicalUrl url, Id guid, ClientReadReply reply, long elapsedNanos) {
        CachedCopy copy;
        try {
            copy = CachedCopy.fromBytes(reply.data(), config.maxBodyBytes());
        } catch (ObjectFormatException e) {
            rejected.increment();
            return LookupResult.miss("fwd=miss; detail=invalid-replica");
        }
        Verification v = verifier.verify(copy.object(), guid);
        if (!v.ok()) {
            rejected.increment();
            return LookupResult.miss("fwd=miss; detail=invalid-replica");
        }
        ObjectCertificate cert = copy.object().certificate();
        Headers headers = cert.headers();
        Instant requestTime = Instant.ofEpochMilli(cert.requestTimeMillis());
        Instant responseTime = Instant.ofEpochMilli(cert.responseTimeMillis());
        long newestSignal = cert.responseTimeMillis();
        if (copy.heartbeat().isPresent() && verifier.verifyHeartbeat(copy.heartbeat().get(), cert).ok()) {
            newestSignal = Math.max(newestSignal, copy.heartbeat().get().issuedAtMillis());
            // A heartbeat is the provider saying "still current at t": as if revalidated then (RFC 9111 §4.3.4).
            Heartbeat hb = copy.heartbeat().get();
            Instant at = Instant.ofEpochMilli(hb.issuedAtMillis());
            headers = headers.with("Date", HttpDates.format(at)).without("Age");
            requestTime = at;
            responseTime = at;
        }
        CachedResponse cached = new CachedResponse(cert.statusCode(), headers, requestTime, responseTime);
        ServeDecision d = rules.decide(cached, request.headers(), clock.instant());
        switch (d.action()) {
            case SERVE_FRESH, SERVE_STALE, SERVE_STALE_WHILE_REVALIDATE -> {
                if (d.action() != ServeDecision.Action.SERVE_FRESH) {
                    markStale(url.value()); // the origin fetch that follows a later miss reports staleness
                    hint(url.value(), true);
                }
                if (elapsedNanos > config.slowHit().toNanos()) {
                    overlay.anycast(ObjectNames.cacheManagerGuid(provider),
                            new LatencyHint(url.value(), guid, reply.hops(), elapsedNanos / 1000), config.ttl());
                }
                hits.increment();
                String status = "riptide; hit" + (d.action() == ServeDecision.Action.SERVE_FRESH ? "" : "; detail=stale");
                Headers served = headers.without("Age").with("Age", Long.toString(d.age().getSeconds())).with("Cache-Status", status);
                return LookupResult.hit(cert.statusCode(), cert.reasonPhrase(), served, copy.object().response().body());
            }
            case GATEWAY_TIMEOUT -> {
                return LookupResult.hit(504, "Gateway Timeout", Headers.of("Content-Type", "text/plain; charset=utf-8",
                        "Cache-Status", "riptide; fwd=miss; detail=only-if-cached"),
                        "The request said only-if-cached and the cached copy would need revalidating.\n".getBytes(
                                java.nio.charset.StandardCharsets.UTF_8));
            }
            default -> {
                if (pushMode.covers(url.value()) && !CacheControl.ofRequest(request.headers()).noCache()
                        && clock.millis() - newestSignal <= pushMode.bound().toMillis()) {
                    // Push mode: the gateway vouched for this version less than the bound ago.
                    hits.increment();
                    Headers served = headers.without("Age").with("Age", Long.toString(Math.max(0, d.age().getSeconds())))
                            .with("Cache-Status", "riptide; hit; detail=push");
                    return LookupResult.hit(cert.statusCode(), cert.reasonPhrase(), served, copy.object().response().body());
                }
                boolean byRequest = CacheControl.ofRequest(request.headers()).maxAge().isPresent()
                        || CacheControl.ofRequest(request.headers()).minFresh().isPresent();
                if (!byRequest) {
                    markStale(url.value());
                }
                return LookupResult.miss(byRequest ? "fwd=request" : "fwd=stale");
            }
        }
    }

    @Override
    public void onOriginResponse(ProxyRequest request, int status, long latencyNanos, boolean bypassed) {
        if (bypassed || !"GET".equals(request.method())) {
            return;
        }
        String url;
        try {
            url = CanonicalUrl.of(request.url().toString()).value();
        } catch (IllegalArgumentException e) {
            return;
        }
        boolean wasStale = Boolean.TRUE.equals(remove(stale, url));
        hint(url, wasStale);
    }

    // Proxy threads and verification threads both touch these small maps.
    private synchronized Boolean remove(Map<String, Boolean> map, String key) {
        return map.remove(key);
    }

    private synchronized void markStale(String url) {
        stale.put(url, true);
        if (stale.size() > 100_000) {
            stale.remove(stale.keySet().iterator().next());
        }
    }

    /** A miss (or stale) hint: until cache managers exist, an insert request to the nearest gateway. */
    private void hint(String url, boolean wasStale) {
        long now = System.nanoTime();
        synchronized (this) {
            Long last = hinted.get(url);
            if (last != null && now - last < config.hintInterval().toNanos()) {
                return;
            }
            hinted.put(url, now);
            if (hinted.size() > 100_000) {
                hinted.remove(hinted.keySet().iterator().next());
            }
        }
        overlay.anycast(ObjectNames.gatewayGuid(provider), new InsertRequest(0, url, Headers.EMPTY, wasStale), config.ttl());
    }

    /** Hits served from the overlay. */
    public long hits() {
        return hits.sum();
    }

    /** The access nodes in use, for the status page. */
    public List<String> accessNodes() {
        try {
            return overlay.accessNodes().get(1, java.util.concurrent.TimeUnit.SECONDS).stream()
                    .map(a -> a.node() + String.format(" (%.2f ms)", a.rttNanos() / 1e6)).toList();
        } catch (Exception e) {
            return List.of("unavailable: " + e.getMessage());
        }
    }

    @Override
    public void close() {
        verify.close();
    }
}
