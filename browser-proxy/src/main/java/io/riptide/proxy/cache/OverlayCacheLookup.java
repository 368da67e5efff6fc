package io.riptide.proxy.cache;

import io.riptide.core.crypto.PublicKey;
import io.riptide.core.gateway.GatewayMessages.InsertRequest;
import io.riptide.core.hint.HintMessages.LatencyHint;
import io.riptide.core.hint.HintMessages.MissHint;
import io.riptide.core.hint.HintMessages.StaleHint;
import io.riptide.core.wire.WireMessage;
import io.riptide.core.http.CacheControl;
import io.riptide.core.http.CachedResponse;
import io.riptide.core.http.CanonicalUrl;
import io.riptide.core.http.Headers;
import io.riptide.core.http.HttpDates;
import io.riptide.core.http.ServeDecision;
import io.riptide.core.http.ServeRules;
import io.riptide.core.http.Freshness;
import io.riptide.core.http.VariantKey;
import io.riptide.core.http.Variants;
import io.riptide.core.id.Id;
import io.riptide.core.object.CachedCopy;
import io.riptide.core.object.Heartbeat;
import io.riptide.core.object.ObjectCertificate;
import io.riptide.core.object.ObjectFormatException;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.object.ObjectVerifier;
import io.riptide.core.object.VariantRecord;
import io.riptide.core.object.PushMode;
import io.riptide.core.object.Verification;
import io.riptide.core.object.VersionFloor;
import io.riptide.core.stage.Stage;
import io.riptide.core.stage.StageConfig;
import io.riptide.dolr.client.ClientMessages.ClientReadReply;
import io.riptide.dolr.client.OverlayClient;
import io.riptide.dolr.location.LocationMessages.FailureReason;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The browser proxy's cache: the overlay, read through the proxy's access nodes. A cacheable request
 * becomes a GUID under each trusted provider's key (the canonical URL), read in parallel with a small
 * hop budget within one deadline, the first verified copy winning,
 * and a verification (provider, signature, body digest, GUID, version never older than seen, the
 * newest heartbeat) on a bounded stage; the copy is served only if RFC 9111 says so for this request,
 * and a copy that needs validating goes back with the miss for the front to revalidate.
 * A URL whose responses vary has a signed variant record at that GUID instead: the request's variant
 * key then names a second GUID, read within the same deadline. Anything else is a miss, and a miss
 * hint asks the nearest gateway to insert the URL in the variant this request selects. Hints and
 * insert requests go to the first (primary) provider's cache managers and gateways only: a
 * secondary provider's copies are read, but the proxy never asks its services for anything.
 */
public final class OverlayCacheLookup implements CacheLookup, AutoCloseable {
    /** The Cache-Status of the 504 for only-if-cached: a "hit" that is no copy, so another provider's copy beats it. */
    private static final String ONLY_IF_CACHED = "riptide; fwd=miss; detail=only-if-cached";

    private final OverlayClient overlay;
    /** The trusted providers, primary first. */
    private final List<PublicKey> providers;
    /** The primary provider: its cache managers and gateways get the hints and insert requests. */
    private final PublicKey provider;
    private final OverlayCacheConfig config;
    private final Clock clock;
    private final PushMode pushMode;
    private final ObjectVerifier verifier;
    private final ServeRules rules = new ServeRules(new Freshness());
    private final Stage verify;
    /** When each variant (by GUID) was last hinted. */
    private final Map<Id, Long> hinted = new LinkedHashMap<>(64, 0.75f, true);
    /** Variants (by GUID) last found stale, so the hint after their origin fetch says so. */
    private final Map<Id, Boolean> stale = new LinkedHashMap<>(64, 0.75f, true);
    private final LongAdder rejected = new LongAdder();
    private final LongAdder hits = new LongAdder();

    public OverlayCacheLookup(OverlayClient overlay, PublicKey provider, OverlayCacheConfig config, Clock clock) {
        this(overlay, List.of(provider), config, clock, PushMode.NONE);
    }

    /** Trusting every one of {@code providers}; the first is the primary. */
    public OverlayCacheLookup(OverlayClient overlay, List<PublicKey> providers, OverlayCacheConfig config, Clock clock) {
        this(overlay, providers, config, clock, PushMode.NONE);
    }

    /** As above, serving URLs in {@code pushMode} while their newest heartbeat or update is recent enough. */
    public OverlayCacheLookup(OverlayClient overlay, List<PublicKey> providers, OverlayCacheConfig config, Clock clock,
                              PushMode pushMode) {
        if (providers.isEmpty() || providers.stream().distinct().count() != providers.size()) {
            throw new IllegalArgumentException("the proxy needs one or more distinct trusted providers, not " + providers);
        }
        this.pushMode = pushMode;
        this.overlay = overlay;
        this.providers = List.copyOf(providers);
        this.provider = providers.get(0);
        this.config = config;
        this.clock = clock;
        this.verifier = new ObjectVerifier(java.util.Set.copyOf(providers), new VersionFloor(VersionFloor.DEFAULT_CAPACITY),
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
        long start = System.nanoTime();
        if (providers.size() == 1) {
            return lookupUnder(provider, request, url, start);
        }
        // Every provider's GUID at once, all within the one read deadline that started now.
        List<CompletableFuture<LookupResult>> each = providers.stream().map(p -> lookupUnder(p, request, url, start)).toList();
        CompletableFuture<LookupResult> first = new CompletableFuture<>();
        java.util.concurrent.atomic.AtomicInteger left = new java.util.concurrent.atomic.AtomicInteger(each.size());
        for (CompletableFuture<LookupResult> f : each) {
            f.whenComplete((r, e) -> {
                if (r != null && foundCopy(r)) {
                    first.complete(r);
                }
                if (left.decrementAndGet() == 0) {
                    first.complete(noCopy(each));
                }
            });
        }
        return first;
    }

    /** One provider's part of a lookup: the URL's GUID under {@code key}, read and judged. */
    private CompletableFuture<LookupResult> lookupUnder(PublicKey key, ProxyRequest request, CanonicalUrl url, long start) {
        Id base = ObjectNames.objectGuid(key, url.value(), "");
        CompletableFuture<LookupResult> result = new CompletableFuture<>();
        overlay.read(base, config.ttl()).whenComplete((reply, error) ->
                onRead(key, request, url, base, VariantKey.NONE, reply, error, start, result));
        return result;
    }

    /** Whether a provider's lookup found a verified copy for the request: served, or to revalidate. */
    private static boolean foundCopy(LookupResult r) {
        return r.stored() != null || (r.hit() && !ONLY_IF_CACHED.equals(r.headers().first("Cache-Status").orElse(null)));
    }

    /**
     * No provider had a copy for the request: an only-if-cached 504 if any copy needed validating,
     * else the primary's miss, which says why.
     */
    private static LookupResult noCopy(List<CompletableFuture<LookupResult>> each) {
        for (CompletableFuture<LookupResult> f : each) {
            LookupResult r = f.getNow(null);
            if (r != null && r.hit()) {
                return r;
            }
        }
        LookupResult primary = each.get(0).getNow(null);
        return primary != null ? primary : LookupResult.miss("fwd=miss; detail=error");
    }

    /**
     * A read of {@code guid} came back: verify and judge it on the verify stage. If the URL's base GUID
     * held a variant record, the variant's own read follows, within what is left of the first's deadline.
     */
    private void onRead(PublicKey key, ProxyRequest request, CanonicalUrl url, Id guid, VariantKey expected, ClientReadReply reply,
                        Throwable error, long start, CompletableFuture<LookupResult> result) {
        if (error != null || !reply.found()) {
            String detail = error != null ? "error" : reply.failure().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
            result.complete(LookupResult.miss("fwd=miss; detail=" + detail));
            return;
        }
        boolean queued = verify.submit(() -> judge(key, request, url, guid, expected, reply, System.nanoTime() - start), (step, e) -> {
            if (e != null) {
                result.complete(LookupResult.miss("fwd=miss; detail=error"));
            } else if (step.result() != null) {
                result.complete(step.result());
            } else {
                readVariant(key, request, url, step, start, result);
            }
        }, Runnable::run);
        if (!queued) {
            result.complete(LookupResult.miss("fwd=bypass; detail=overloaded"));
        }
    }

    /** The second read of a varying URL: the variant's GUID, bounded by the lookup's one overall deadline. */
    private void readVariant(PublicKey key, ProxyRequest request, CanonicalUrl url, Step step, long start,
                             CompletableFuture<LookupResult> result) {
        long left = overlay.readDeadline().toNanos() - (System.nanoTime() - start);
        if (left <= 0) {
            result.complete(LookupResult.miss("fwd=miss; detail=timeout"));
            return;
        }
        ClientReadReply timedOut = new ClientReadReply(0, step.variantGuid(), FailureReason.TIMEOUT, 0, new byte[0]);
        overlay.read(step.variantGuid(), config.ttl())
                .completeOnTimeout(timedOut, left, TimeUnit.NANOSECONDS)
                .whenComplete((reply, error) -> onRead(key, request, url, step.variantGuid(), step.variantKey(), reply, error, start,
                        result));
    }

    /**
     * What one verified read leads to: the lookup's result, or (for a URL's variant record) the
     * variant to read next.
     */
    private record Step(LookupResult result, Id variantGuid, VariantKey variantKey) {
        static Step done(LookupResult result) {
            return new Step(result, null, null);
        }
    }

    /**
     * Judges a replica read for {@code guid}, which a response selected by {@code expected} should
     * answer (VariantKey.NONE at the base GUID).
     */
    private Step judge(PublicKey key, ProxyRequest request, CanonicalUrl url, Id guid, VariantKey expected, ClientReadReply reply,
                       long elapsedNanos) {
        if (VariantRecord.isVariantRecord(reply.data())) {
            return followRecord(key, request, url, guid, reply.data());
        }
        CachedCopy copy;
        try {
            copy = CachedCopy.fromBytes(reply.data(), config.maxBodyBytes());
        } catch (ObjectFormatException e) {
            rejected.increment();
            return Step.done(LookupResult.miss("fwd=miss; detail=invalid-replica"));
        }
        Verification v = verifier.verify(copy.object(), guid);
        if (!v.ok()) {
            rejected.increment();
            return Step.done(LookupResult.miss("fwd=miss; detail=invalid-replica"));
        }
        if (!Variants.matches(copy.object().certificate().headers(), expected, request.headers())) {
            // Genuine, but its own Vary does not select it for this request (RFC 9111 §4.1): say, the
            // origin changed its Vary after the record was signed. Never serve another request's variant.
            return Step.done(LookupResult.miss("fwd=miss; detail=variant-mismatch"));
        }
        return Step.done(judge(request, url, guid, expected, copy, reply, elapsedNanos));
    }

    /** The base GUID held a variant record: verify it and name this request's variant. */
    private Step followRecord(PublicKey key, ProxyRequest request, CanonicalUrl url, Id base, byte[] data) {
        VariantRecord record;
        try {
            record = VariantRecord.fromBytes(data);
        } catch (ObjectFormatException e) {
            rejected.increment();
            return Step.done(LookupResult.miss("fwd=miss; detail=invalid-replica"));
        }
        if (!verifier.verifyVariantRecord(record, base).ok()) {
            rejected.increment();
            return Step.done(LookupResult.miss("fwd=miss; detail=invalid-replica"));
        }
        // A record never names "*" (its constructor refuses it), so every request has a key.
        VariantKey variant = Variants.key(record.varyFields(), request.headers()).orElseThrow();
        // The record's own provider names the variant: a record vouches only for its signer's copies.
        return new Step(null, ObjectNames.objectGuid(key, url.value(), variant.toString()), variant);
    }

    private LookupResult judge(ProxyRequest request, CanonicalUrl url, Id guid, VariantKey expected, CachedCopy copy,
                               ClientReadReply reply, long elapsedNanos) {
        // Staleness is remembered under the primary's GUID, the one the hint after the origin fetch names.
        Id hinted = ObjectNames.objectGuid(provider, url.value(), expected.equals(VariantKey.NONE) ? "" : expected.toString());
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
                    markStale(hinted); // the origin fetch that follows a later miss reports staleness
                    hint(url.value(), request.headers(), Optional.of(Variants.varyFields(cert.headers())), true);
                }
                // Only the primary's cache managers hear of it, and they can move only the primary's copies.
                if (elapsedNanos > config.slowHit().toNanos() && guid.equals(hinted)) {
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
                        "Cache-Status", ONLY_IF_CACHED),
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
                // RFC 9211: "request" when only the request's directives (no-cache, max-age, min-fresh) stop
                // a copy that is fresh for everyone else; "stale" when the copy itself needs validating.
                Headers undirected = request.headers().without("Cache-Control").without("Pragma");
                boolean byRequest = rules.decide(cached, undirected, clock.instant()).action() == ServeDecision.Action.SERVE_FRESH;
                if (!byRequest) {
                    markStale(hinted);
                }
                // The front revalidates this copy with the origin and serves it on a 304.
                return LookupResult.validate(byRequest ? "fwd=request" : "fwd=stale", new LookupResult.Stored(
                        cert.statusCode(), cert.reasonPhrase(), headers.without("Age").without("Cache-Status"),
                        copy.object().response().body(), d.age(), d.staleIfErrorAllowed()));
            }
        }
    }

    @Override
    public Clock clock() {
        return clock;
    }

    @Override
    public void onOriginResponse(ProxyRequest request, int status, Headers responseHeaders, long latencyNanos, boolean bypassed) {
        if (bypassed || !"GET".equals(request.method())) {
            return;
        }
        String url;
        try {
            url = CanonicalUrl.of(request.url().toString()).value();
        } catch (IllegalArgumentException e) {
            return;
        }
        // A 304 to the browser's own conditional request often omits Vary: then which fields select the
        // variant is unknown, and the hint carries the safe allow-list instead.
        Optional<List<String>> vary = status == 304 && !responseHeaders.contains("Vary")
                ? Optional.empty() : Optional.of(Variants.varyFields(responseHeaders));
        Optional<Id> guid = variantGuid(url, request.headers(), vary);
        if (guid.isEmpty()) {
            return; // Vary: * — no shared cache may store it, so there is nothing to ask a gateway for
        }
        boolean wasStale = Boolean.TRUE.equals(remove(stale, guid.get()));
        hint(url, request.headers(), vary, wasStale);
    }

    /**
     * The GUID the gateway will store this request's variant under, when {@code vary} is known;
     * the base GUID when it is not. Empty for {@code Vary: *}.
     */
    private Optional<Id> variantGuid(String url, Headers request, Optional<List<String>> vary) {
        if (vary.isEmpty()) {
            return Optional.of(ObjectNames.objectGuid(provider, url, ""));
        }
        return Variants.key(vary.get(), request).map(k ->
                ObjectNames.objectGuid(provider, url, k.equals(VariantKey.NONE) ? "" : k.toString()));
    }

    // Proxy threads and verification threads both touch these small maps.
    private synchronized Boolean remove(Map<Id, Boolean> map, Id key) {
        return map.remove(key);
    }

    private synchronized void markStale(Id guid) {
        stale.put(guid, true);
        if (stale.size() > 100_000) {
            stale.remove(stale.keySet().iterator().next());
        }
    }

    /**
     * A miss (or stale) hint to the nearest cache manager, which asks a gateway to insert (or re-check);
     * where no cache manager runs, the access node sends the nearest gateway the insert request itself.
     * Both carry the request's variant-selecting fields (only the allow-list, normalised; a response that
     * varies on any other field is not hinted), so the gateway fetches this variant, and go
     * at most once per variant per hint interval.
     */
    private void hint(String url, Headers request, Optional<List<String>> vary, boolean wasStale) {
        if (vary.isPresent() && !Variants.unforwarded(vary.get()).isEmpty()) {
            // It varies on a field hints never carry (an API key, User-Agent, ...): no gateway stores it.
            return;
        }
        Optional<Id> variant = variantGuid(url, request, vary);
        if (variant.isEmpty()) {
            return;
        }
        Id guid = variant.get();
        long now = System.nanoTime();
        synchronized (this) {
            Long last = hinted.get(guid);
            if (last != null && now - last < config.hintInterval().toNanos()) {
                return;
            }
            hinted.put(guid, now);
            if (hinted.size() > 100_000) {
                hinted.remove(hinted.keySet().iterator().next());
            }
        }
        Headers selecting = Variants.selectingFields(request, vary);
        WireMessage toManager = wasStale ? new StaleHint(url, guid, 0, selecting) : new MissHint(url, guid, selecting);
        overlay.anycast(ObjectNames.cacheManagerGuid(provider), toManager, ObjectNames.gatewayGuid(provider),
                new InsertRequest(0, url, selecting, wasStale), config.ttl());
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
