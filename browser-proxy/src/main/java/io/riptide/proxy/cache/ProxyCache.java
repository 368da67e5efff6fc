package io.riptide.proxy.cache;

import io.netty.buffer.Unpooled;
import io.riptide.core.crypto.PublicKey;
import io.riptide.core.gateway.GatewayMessages.InsertReply;
import io.riptide.core.gateway.GatewayMessages.InsertRequest;
import io.riptide.core.gateway.GatewayMessages.Outcome;
import io.riptide.core.hint.HintMessages.SightingAnswer;
import io.riptide.core.hint.HintMessages.SightingAsk;
import io.riptide.core.http.CanonicalUrl;
import io.riptide.core.http.Headers;
import io.riptide.core.http.StorageDecision;
import io.riptide.core.http.Storability;
import io.riptide.core.http.VariantKey;
import io.riptide.core.http.Variants;
import io.riptide.core.id.Id;
import io.riptide.core.object.KeyRecords;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.object.ProviderTrust;
import io.riptide.core.object.PushMode;
import io.riptide.core.object.RejectReason;
import io.riptide.core.runtime.Cancellable;
import io.riptide.core.runtime.Env;
import io.riptide.core.throttle.Throttle;
import io.riptide.dolr.client.ObjectRead;
import io.riptide.dolr.client.OverlayAccess;
import io.riptide.dolr.location.LocationMessages.FailureReason;
import io.riptide.proxy.hints.Hints;
import io.riptide.proxy.hints.LoadReports;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The browser proxy's cache: the overlay, read as a shared HTTP cache (paper §4.2). A cacheable
 * request's canonical URL becomes a GUID under each trusted provider's key; the reads go in parallel
 * ({@link ProviderFanOut}) with a small hop budget within one deadline; each copy is verified on the
 * {@value #VERIFY_STAGE} stage ({@link ReplicaCheck}: provider, signature, body digest, GUID, version
 * floor, heartbeat), a variant record sending the lookup on to the request's variant; and RFC 9111
 * decides for this request ({@link CopyJudge}). What the managers hear ({@link Hints},
 * {@link LoadReports}) goes to the first, primary, provider's services only.
 *
 * <p>Protocol code: it sees the runtime seam ({@link Env}: time, timers, the verify stage) and the
 * overlay through {@link OverlayAccess}, and nothing else, so the real proxy (on its overlay client's
 * loop) and the simulator's proxies (on their nodes' loops) run this very class. Every method runs on
 * that loop; callbacks come back on it.
 */
public final class ProxyCache {
    /** The stage copies are verified on: Ed25519 and SHA-256 are too slow for the loop. */
    public static final String VERIFY_STAGE = "verify";
    /**
     * How often a real proxy reads its providers' key records: a minute bounds how long a rotation takes
     * to be trusted and a revocation to reach a proxy that reads none of the revoked key's objects, for
     * one small read per key per minute.
     */
    public static final Duration KEY_RECORDS_EVERY = Duration.ofMinutes(1);
    /** Hops an insert request may take to the nearest gateway, which is often in another stub. */
    static final int GATEWAY_TTL = 32;

    private final Env env;
    private final OverlayAccess overlay;
    /** The trusted providers, primary first. */
    private final List<PublicKey> providers;
    private final PublicKey primary;
    private final OverlayCacheConfig config;
    private final ReplicaCheck check;
    private final CopyJudge judge;
    private final Hints hints;
    private final LoadReports load;
    /** The proxy's own memory tier, or null: the simulator's proxies, and {@code --memory-mb 0}. */
    private final MemoryCopies memory;
    private final MemoryHits memoryHits;
    private final Invalidations invalidations = new Invalidations();
    private final Storability storability = new Storability();
    /** Variants this proxy fetched itself within the sight window ({@link InsertPolicy#SECOND_SIGHT}). */
    private final Throttle<Id> sightings = Throttle.oncePer(OverlayCacheConfig.SIGHT_WINDOW, Hints.MAX_REMEMBERED);
    /** Variants whose sighting the stub's manager heard when asked and answered "first": no seen hint after the fetch. */
    private final Throttle<Id> toldManager = Throttle.oncePer(Duration.ofMinutes(1), Hints.MAX_REMEMBERED);
    /** Whether the last sighting asked of the stub's manager was answered (a stub without one: the hints' old way). */
    private boolean managerAnswered;
    private long firstSightings;
    private long sightingsUnanswered;
    private long repeatSightings;
    private final java.util.concurrent.atomic.LongAdder kept = new java.util.concurrent.atomic.LongAdder();
    private final Map<RejectReason, Long> refused = new EnumMap<>(RejectReason.class);
    private final SharedReads reads;
    /** Replies being verified, by identity (one shared read's waiters hold the same reply), and who waits. */
    private final Map<ObjectRead, List<java.util.function.BiConsumer<ReplicaCheck.Verified, Throwable>>> verifying =
            new java.util.IdentityHashMap<>();
    /** What the gateway answered the misses sent to it ({@link InsertPolicy#THROUGH_GATEWAY}); UNREACHABLE when none did. */
    private final Map<Outcome, Long> gatewayOutcomes = new EnumMap<>(Outcome.class);
    private long gatewayReadsFailed;
    /** Gateway answers that carried the copy, so the proxy did not read it back. */
    private long gatewayCopies;
    private long lookups;
    private long hits;
    private long overloaded;
    private long refreshes;
    // Lookups that met a verified tombstone: the object was purged, the user went to the origin.
    private long purged;
    // Lookups that met a provider key's revocation (or a copy signed by a revoked key) and went to the origin.
    private long revokedLookups;
    // Trusted keys (configured, certified by rotation) minus revoked ones: what the check and the reads use.
    private final ProviderTrust trust;

    /**
     * A cache reading {@code overlay} on {@code env}'s loop, trusting {@code providers} (the first is the
     * primary), serving URLs in {@code pushMode} while their newest heartbeat or update is recent enough.
     */
    public ProxyCache(Env env, OverlayAccess overlay, List<PublicKey> providers, OverlayCacheConfig config, PushMode pushMode) {
        this(env, overlay, providers, config, pushMode, null);
    }

    /**
     * As above, keeping the copies it verifies in {@code memory} (null: none) and answering from there
     * first through {@link #memoryHits()}; the cache does not close it.
     */
    public ProxyCache(Env env, OverlayAccess overlay, List<PublicKey> providers, OverlayCacheConfig config, PushMode pushMode,
                      MemoryCopies memory) {
        if (providers.isEmpty() || providers.stream().distinct().count() != providers.size()) {
            throw new IllegalArgumentException("the proxy needs one or more distinct trusted providers, not " + providers);
        }
        this.env = env;
        this.overlay = overlay;
        this.providers = List.copyOf(providers);
        this.primary = providers.get(0);
        this.config = config;
        this.trust = ProviderTrust.of(java.util.Set.copyOf(this.providers));
        this.check = new ReplicaCheck(trust, config.maxBodyBytes());
        this.judge = new CopyJudge(pushMode);
        this.hints = new Hints(env, overlay, primary, config.ttl(), config.hintInterval());
        this.load = new LoadReports(env, overlay, ObjectNames.cacheManagerGuid(primary), config.loadReportEvery(),
                config.maxLoadReports(), LoadReports.MAX_TALLIED, config.ttl());
        this.reads = new SharedReads(env, overlay, config.ttl(), config.readDeadline());
        this.memory = memory;
        this.memoryHits = memory == null ? null : new MemoryHits(env, this.providers, trust::isRevoked, memory, judge,
                config.memoryRecheck(),
                invalidations, request -> env.execute(() -> refresh(request)),
                (request, stored) -> env.execute(() -> sightedAgain(request, stored)));
    }

    /** The memory tier's answers, usable from any thread; null when there is no memory tier. */
    public MemoryHits memoryHits() {
        return memoryHits;
    }

    /** Starts the periodic load reports. */
    public void start() {
        load.start();
    }

    /**
     * Reads each trusted provider key's key records ({@link ObjectNames#keyRecordsGuid}) now and every
     * {@code every}: rotations a gateway published there make the keys they certify trusted (their names
     * are read too from then on), revocations end a key. Revocations also arrive without this, in place of
     * the replicas a revoked key signed.
     */
    public void watchKeyRecords(Duration every) {
        readKeyRecords();
        env.periodic(every, this::readKeyRecords);
    }

    /** One read of every trusted key's key records (see {@link #watchKeyRecords}). */
    public void readKeyRecords() {
        java.util.Set<PublicKey> keys = new java.util.LinkedHashSet<>(providers);
        keys.addAll(trust.trusted());
        for (PublicKey key : keys) {
            readWithin(ObjectNames.keyRecordsGuid(key), config.readDeadline().toNanos(), reply -> {
                if (reply.found() && KeyRecords.isKeyRecords(reply.data())) {
                    env.submit(VERIFY_STAGE, () -> check.learn(reply.data()), (learned, error) -> { });
                }
            });
        }
    }

    /** What this cache trusts now: configured keys, keys they certified, revoked keys (shared with its check). */
    public ProviderTrust trust() {
        return trust;
    }

    /** Lookups that met a revocation, or a copy signed by a revoked key, and went to the origin. */
    public long revokedLookups() {
        return revokedLookups;
    }

    // The keys whose names a lookup reads: the configured ones not revoked, primary first, then certified successors.
    private List<PublicKey> readKeys() {
        List<PublicKey> keys = new ArrayList<>(providers.size() + 1);
        for (PublicKey key : providers) {
            if (!trust.isRevoked(key)) {
                keys.add(key);
            }
        }
        for (PublicKey key : trust.trusted()) {
            if (!keys.contains(key)) {
                keys.add(key);
            }
        }
        return keys;
    }

    /** Stops the periodic load reports (a simulated proxy that is done; a real one stops with its loop). */
    public void stop() {
        load.stop();
    }

    /**
     * Looks {@code request} up. {@code done} runs once, on the loop, within the read deadline (plus
     * verification): an answer to serve, a copy to revalidate, or a miss that says why.
     */
    public void lookup(ProxyRequest request, Consumer<LookupResult> done) {
        lookups++;
        lookup(request, false, done);
    }

    /**
     * A background read for the memory tier ({@link MemoryHits}): what it verifies renews or replaces
     * the kept copy; nobody waits for it, and it is neither counted as a lookup nor hinted.
     */
    private void refresh(ProxyRequest request) {
        refreshes++;
        lookup(request, true, LookupResult::release);
    }

    private void lookup(ProxyRequest request, boolean refresh, Consumer<LookupResult> done) {
        CanonicalUrl url;
        try {
            url = CanonicalUrl.of(request.url().toString());
        } catch (IllegalArgumentException e) {
            done.accept(LookupResult.forward(CacheStatus.forward("uri-miss")));
            return;
        }
        long start = env.nowNanos();
        List<PublicKey> keys = readKeys();
        if (keys.isEmpty()) {
            // Every key this proxy trusted is revoked and none certified a successor: nothing is served.
            revokedLookups++;
            done.accept(LookupResult.forward(CacheStatus.forward("miss", "revoked-key")));
            return;
        }
        ProviderFanOut.first(keys, (key, each) -> read(key, request, url, ObjectNames.objectGuid(key, url.value(), ""),
                VariantKey.NONE, config.readDeadline().toNanos(), start, each), result -> {
                    if (refresh) {
                        done.accept(result);
                        return;
                    }
                    LookupResult answer = orFromMemory(request, result);
                    if (asksOnward(request, answer)) {
                        if (config.insertPolicy() == InsertPolicy.THROUGH_GATEWAY) {
                            throughGateway(request, url, answer, done);
                        } else {
                            askStub(request, url, answer, done);
                        }
                        return;
                    }
                    looked(request, url, answer, env.nowNanos() - start);
                    done.accept(answer);
                });
    }

    /**
     * Whether a lookup's result is a miss that the policy asks about before the origin is fetched (the
     * stub's manager under {@link InsertPolicy#SECOND_SIGHT_THROUGH_GATEWAY}, the gateway under
     * {@link InsertPolicy#THROUGH_GATEWAY}): a GET nothing answered; copies to revalidate and bypasses
     * go their own way.
     */
    private boolean asksOnward(ProxyRequest request, LookupResult result) {
        return config.insertPolicy().asksBeforeFetching() && "GET".equals(request.method())
                && result.kind() == LookupResult.Kind.FORWARD && "miss".equals(result.status().fwd());
    }

    /**
     * Asks the stub's cache manager whether the variant was seen there within the sight window
     * ({@link InsertPolicy#SECOND_SIGHT_THROUGH_GATEWAY}): a first sighting goes back to the caller, which fetches
     * it itself and keeps it privately; a later one goes {@link #throughGateway}, so the insert
     * that the second sighting earns is the very fetch that answers it. No answer in time: the
     * caller fetches it, and the seen hint after the origin's answer tells the manager.
     */
    private void askStub(ProxyRequest request, CanonicalUrl url, LookupResult missed, Consumer<LookupResult> done) {
        Headers selecting = Variants.selectingFields(request.headers(), Optional.empty());
        Id sighted = hints.target(url.value(), request.headers(), Optional.empty()).orElseThrow();
        overlay.ask(ObjectNames.cacheManagerGuid(primary), new SightingAsk(0, url.value(),
                ObjectNames.objectGuid(primary, url.value(), ""), selecting), config.ttl(), InsertPolicy.MANAGER_WAIT, answer -> {
                    SightingAnswer told = answer.filter(SightingAnswer.class::isInstance).map(SightingAnswer.class::cast)
                            .orElse(null);
                    managerAnswered = told != null;
                    if (told == null) {
                        sightingsUnanswered++;
                        done.accept(missed);
                    } else if (told.first()) {
                        firstSightings++;
                        toldManager.admit(sighted, env.nowNanos());
                        done.accept(missed);
                    } else {
                        repeatSightings++;
                        throughGateway(request, url, missed, done);
                    }
                });
    }

    /**
     * Has the primary provider's nearest gateway fetch and insert {@code url} for this request, and
     * serves the copy the gateway sends back in its reply ({@link #carried}), or reads the new copy
     * through the overlay when the reply carries none (a copy too large, one the gateway no longer
     * holds). The answer carries {@code Cache-Status: fwd=miss; detail=gateway} (it went forward; the
     * origin was fetched once, by the gateway). If the gateway cannot help, {@code missed} goes back
     * to the caller, which fetches the URL itself.
     */
    private void throughGateway(ProxyRequest request, CanonicalUrl url, LookupResult missed, Consumer<LookupResult> done) {
        Headers selecting = Variants.selectingFields(request.headers(), Optional.empty());
        overlay.ask(ObjectNames.gatewayGuid(primary), new InsertRequest(0, url.value(), selecting, false, true), GATEWAY_TTL,
                InsertPolicy.GATEWAY_WAIT, answer -> {
                    InsertReply reply = answer.filter(InsertReply.class::isInstance).map(InsertReply.class::cast).orElse(null);
                    Outcome outcome = reply == null ? Outcome.UNREACHABLE : reply.outcome();
                    gatewayOutcomes.merge(outcome, 1L, Long::sum);
                    if (outcome != Outcome.INSERTED && outcome != Outcome.UNCHANGED) {
                        done.accept(missed);
                        return;
                    }
                    long start = env.nowNanos();
                    Consumer<LookupResult> answered = copy -> {
                        if (copy.served() && copy.status().hit()) {
                            missed.release();
                            done.accept(copy.withStatus(CacheStatus.forward("miss", "gateway")));
                        } else {
                            gatewayReadsFailed++;
                            copy.release();
                            done.accept(missed);
                        }
                    };
                    if (reply.copy().length > 0) {
                        carried(request, url, reply, start, answered);
                    } else {
                        read(primary, request, url, ObjectNames.objectGuid(primary, url.value(), ""), VariantKey.NONE,
                                config.readDeadline().toNanos(), start, answered);
                    }
                });
    }

    /**
     * Serves the copy the gateway sent with its answer, checked on the verify stage like any replica
     * of the GUID (a variant's, when the response varies) that this request selects: no read back.
     */
    private void carried(ProxyRequest request, CanonicalUrl url, InsertReply reply, long start, Consumer<LookupResult> done) {
        gatewayCopies++;
        boolean queued = env.submit(VERIFY_STAGE, () -> check.verifyCarried(primary, url, reply.guid(), request.headers(),
                reply.copy()), (carried, error) -> {
                    if (error != null) {
                        done.accept(LookupResult.forward(CacheStatus.forward("miss", "error")));
                        return;
                    }
                    ObjectRead copy = new ObjectRead(carried.guid(), null, 0, reply.copy(), null);
                    checked(primary, request, url, carried.guid(), copy,
                            ReplicaCheck.select(carried.verified(), primary, url, carried.expected(), request.headers()), start, done);
                });
        if (!queued) {
            overloaded++;
            done.accept(LookupResult.forward(CacheStatus.forward("bypass", "overloaded")));
        }
    }

    /**
     * The overlay's result, or, when it found no copy for the request, the memory tier's: a kept
     * copy that is now stale is revalidated with the origin instead of fetched whole, and one the
     * request's own directives allow is served.
     */
    private LookupResult orFromMemory(ProxyRequest request, LookupResult result) {
        if (memoryHits == null || result.foundCopy()) {
            return result;
        }
        LookupResult kept = memoryHits.judged(request);
        if (kept == null) {
            return result;
        }
        result.release();
        return kept.status().detail() == null ? kept.withStatus(kept.status().withDetail("memory")) : kept;
    }

    /** What a lookup's result tells the managers at once: a slow hit, a copy served stale, or load. */
    private void looked(ProxyRequest request, CanonicalUrl url, LookupResult result, long elapsedNanos) {
        if (!result.served() || !result.status().hit()) {
            return;
        }
        hits++;
        LookupResult.Found found = result.found();
        if (!found.primary()) {
            return; // the primary's managers can move only the primary's copies
        }
        if (found.stale()) {
            // Served stale (stale-while-revalidate, max-stale): have the gateway re-check it.
            List<String> vary = Variants.varyFields(result.answer().headers());
            hints.missOrStale(found.guid(), url.value(), request.headers(), Optional.of(vary), found.version());
        }
        if (elapsedNanos > config.slowHit().toNanos()) {
            hints.slowHit(url.value(), found.guid(), found.hops(), elapsedNanos); // counts this request at the manager
        } else {
            load.count(found.guid());
        }
    }

    /**
     * Reads {@code guid} (under {@code key}'s name) within {@code leftNanos}, verifies what comes back
     * and hands {@code done} the result; a variant record at the base GUID leads to the variant's read
     * within what is left of the one deadline.
     */
    private void read(PublicKey key, ProxyRequest request, CanonicalUrl url, Id guid, VariantKey expected, long leftNanos,
                      long start, Consumer<LookupResult> done) {
        if (leftNanos <= 0) {
            done.accept(LookupResult.forward(CacheStatus.forward("miss", "timeout")));
            return;
        }
        readWithin(guid, leftNanos, reply -> {
            if (!reply.found()) {
                done.accept(LookupResult.forward(CacheStatus.forward("miss", detail(reply.failure()))));
                return;
            }
            verified(guid, expected, reply, (verified, error) -> {
                if (error == null && verified == null) {
                    overloaded++;
                    done.accept(LookupResult.forward(CacheStatus.forward("bypass", "overloaded")));
                } else if (error != null) {
                    done.accept(LookupResult.forward(CacheStatus.forward("miss", "error")));
                } else {
                    checked(key, request, url, guid, reply,
                            ReplicaCheck.select(verified, key, url, expected, request.headers()), start, done);
                }
            });
        });
    }

    /**
     * Verifies {@code reply} on the verify stage once, however many requests waited on that one read
     * ({@link SharedReads} hands each the same reply): a crowd's copies are checked once, not once per
     * request, and do not fill the stage's queue. {@code done} gets (null, null) if the stage was full.
     */
    private void verified(Id guid, VariantKey expected, ObjectRead reply,
                          java.util.function.BiConsumer<ReplicaCheck.Verified, Throwable> done) {
        List<java.util.function.BiConsumer<ReplicaCheck.Verified, Throwable>> waiting = verifying.get(reply);
        if (waiting != null) {
            waiting.add(done);
            return;
        }
        List<java.util.function.BiConsumer<ReplicaCheck.Verified, Throwable>> mine = new java.util.ArrayList<>(1);
        mine.add(done);
        verifying.put(reply, mine);
        boolean queued = env.submit(VERIFY_STAGE, () -> check.verify(guid, expected, reply.data()), (verified, error) -> {
            verifying.remove(reply);
            mine.forEach(w -> w.accept(verified, error));
        });
        if (!queued) {
            verifying.remove(reply);
            mine.forEach(w -> w.accept(null, null));
        }
    }

    private void checked(PublicKey key, ProxyRequest request, CanonicalUrl url, Id guid, ObjectRead reply,
                         ReplicaCheck.Checked checked, long start, Consumer<LookupResult> done) {
        if (checked instanceof ReplicaCheck.Refused r && r.reason() == RejectReason.REVOKED_KEY) {
            // The key that named or signed this object is revoked: what memory kept of it goes, the user gets the origin.
            refused.merge(r.reason(), 1L, Long::sum);
            revokedLookups++;
            if (memory != null) {
                memory.remove(guid);
            }
            done.accept(LookupResult.forward(CacheStatus.forward("miss", "revoked-key")));
        } else if (checked instanceof ReplicaCheck.Refused r) {
            refused.merge(r.reason(), 1L, Long::sum);
            done.accept(LookupResult.forward(CacheStatus.forward("miss", "invalid-replica")));
        } else if (checked instanceof ReplicaCheck.Mismatch) {
            done.accept(LookupResult.forward(CacheStatus.forward("miss", "variant-mismatch")));
        } else if (checked instanceof ReplicaCheck.Record r) {
            if (memory != null) {
                memory.putNames(guid, r.version(), r.varyFields());
            }
            read(key, request, url, r.guid(), r.variant(), config.readDeadline().toNanos() - (env.nowNanos() - start), start, done);
        } else if (checked instanceof ReplicaCheck.Copy c && c.copy().object().certificate().isTombstone()) {
            // The provider purged the object: its verified tombstone raised the version floor (so no
            // older copy is served again) and takes what memory kept; the user gets the origin's answer.
            purged++;
            if (memory != null) {
                memory.remove(guid);
                memory.remove(UrlNames.privateName(url.value(), VariantKey.NONE));
            }
            done.accept(LookupResult.forward(CacheStatus.forward("miss", "purged")));
        } else if (checked instanceof ReplicaCheck.Copy c) {
            long version = c.copy().object().certificate().version();
            LookupResult.Found found = new LookupResult.Found(guid, key.equals(primary), version, false, reply.replica(), reply.hops());
            VerifiedCopy view = VerifiedCopy.of(c.copy(), c.heartbeatValid());
            if (invalidations.outdated(url.value(), view.responseTimeMillis())) {
                // Genuine, but older than a change this proxy saw made (RFC 9111 §4.4): not served, not kept.
                done.accept(LookupResult.forward(CacheStatus.forward("miss", "invalidated")));
                return;
            }
            byte[] body = c.copy().object().response().body();
            if (memory != null) {
                memory.putCopy(guid, key.equals(primary), version, view, judge.window(view), body, env.nowNanos());
            }
            done.accept(judge.judge(view, Unpooled.wrappedBuffer(body), url.value(), request.headers(),
                    Instant.ofEpochMilli(env.wallClockMillis()), found));
        }
    }

    /** One overlay read that gives up after {@code leftNanos} (a variant's read has only what the first one left). */
    private void readWithin(Id guid, long leftNanos, Consumer<ObjectRead> done) {
        boolean[] answered = {false};
        Cancellable timer = env.schedule(Duration.ofNanos(leftNanos), () -> {
            if (!answered[0]) {
                answered[0] = true;
                done.accept(ObjectRead.failed(guid, FailureReason.TIMEOUT));
            }
        });
        reads.read(guid, reply -> {
            if (!answered[0]) {
                answered[0] = true;
                timer.cancel();
                done.accept(reply);
            }
        });
    }

    private static String detail(FailureReason failure) {
        return failure == null ? "error" : failure.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * An unsafe request to {@code target} succeeded (RFC 9111 §4.4): from now on no copy of it, or of
     * {@code related} (the response's same-origin Location and Content-Location), certified before now
     * is served, from memory or the overlay, until the gateway has fetched a newer one; the kept base
     * copies are dropped, and the primary provider's gateway hears a stale hint so it fetches the new
     * content. Thread-safe (the marks are; the hint goes from the loop).
     */
    public void invalidate(java.net.URI target, List<java.net.URI> related) {
        long now = env.wallClockMillis();
        List<String> urls = new java.util.ArrayList<>();
        for (java.net.URI u : java.util.stream.Stream.concat(java.util.stream.Stream.of(target), related.stream()).toList()) {
            try {
                urls.add(CanonicalUrl.of(u.toString()).value());
            } catch (IllegalArgumentException e) {
                // not a URL the cache names: nothing kept of it
            }
        }
        for (String url : urls) {
            invalidations.mark(url, now);
            if (memory != null) {
                providers.forEach(key -> memory.remove(ObjectNames.objectGuid(key, url, "")));
                memory.remove(UrlNames.privateName(url, VariantKey.NONE));
            }
        }
        env.execute(() -> urls.forEach(url -> hints.missOrStale(ObjectNames.objectGuid(primary, url, ""), url, Headers.EMPTY,
                Optional.empty(), 0)));
    }

    /**
     * The origin answered a request that the lookup sent forward (a miss, or a copy to revalidate)
     * with {@code status} and {@code responseHeaders}. A stale verified copy gets a stale hint. A miss
     * gets a miss hint (one more request in the load report if that variant was hinted within the
     * interval) for the variant the response's Vary selects, as the {@link InsertPolicy} says: on
     * every miss, or on the variant's second sighting, the first one only a seen hint. A response
     * that may not be stored is never hinted: no gateway could keep it either. Only GETs are hinted.
     */
    public void onOriginResponse(ProxyRequest request, LookupResult lookup, int status, Headers responseHeaders) {
        if (!"GET".equals(request.method())) {
            return;
        }
        String url;
        try {
            url = CanonicalUrl.of(request.url().toString()).value();
        } catch (IllegalArgumentException e) {
            return;
        }
        // A 304 to the browser's own conditional request says the browser holds it (storable, presumably),
        // and often omits Vary: then which fields select the variant is unknown, and the hint carries the
        // safe allow-list instead.
        boolean browsersOwn = status == 304;
        if (!browsersOwn && !storability.decide(request.method(), request.headers(), status, responseHeaders).storable()) {
            return;
        }
        Optional<List<String>> vary = browsersOwn && !responseHeaders.contains("Vary")
                ? Optional.empty() : Optional.of(Variants.varyFields(responseHeaders));
        Optional<Id> target = hints.target(url, request.headers(), vary);
        if (target.isEmpty()) {
            return;
        }
        long staleVersion = lookup != null && lookup.wasStale() ? lookup.found().version() : -1;
        if (staleVersion < 0 && config.insertPolicy() != InsertPolicy.FIRST_MISS) {
            boolean firstHere = sightings.admit(target.get(), env.nowNanos());
            Id asked = hints.target(url, request.headers(), Optional.empty()).orElseThrow();
            if (toldManager.isOpen(asked, env.nowNanos())) {
                return; // the stub's manager heard this sighting when asked, and said to fetch it here
            }
            if (firstHere) {
                hints.seen(target.get(), url, request.headers(), vary); // the first sighting: kept privately, no insert yet
                return;
            }
            if (config.insertPolicy() == InsertPolicy.THROUGH_GATEWAY) {
                return; // the gateway was asked already and could not help
            }
        }
        boolean hinted = hints.missOrStale(target.get(), url, request.headers(), vary, staleVersion);
        if (!hinted || staleVersion >= 0) {
            load.count(target.get()); // no hint that counts a request told the manager of this one
        }
    }

    /**
     * A request found a copy in the private tier ({@code stored}: its header fields) for the first
     * time: the variant's second sighting, which under {@link InsertPolicy#SECOND_SIGHT} asks for the
     * insert (a miss hint) that the first sighting did not.
     */
    private void sightedAgain(ProxyRequest request, Headers stored) {
        if (config.insertPolicy() == InsertPolicy.FIRST_MISS || config.insertPolicy() == InsertPolicy.THROUGH_GATEWAY
                || (config.insertPolicy() == InsertPolicy.SECOND_SIGHT_THROUGH_GATEWAY && managerAnswered)) {
            // The first miss asked already; or the stub's manager heard the first sighting and sends the
            // next proxy's miss through the gateway, while this proxy's own repeats cost nobody anything.
            return;
        }
        String url;
        try {
            url = CanonicalUrl.of(request.url().toString()).value();
        } catch (IllegalArgumentException e) {
            return;
        }
        Optional<List<String>> vary = Optional.of(Variants.varyFields(stored));
        hints.target(url, request.headers(), vary).ifPresent(target -> {
            sightings.admit(target, env.nowNanos());
            hints.missOrStale(target, url, request.headers(), vary, -1);
        });
    }

    /**
     * Whether a response to {@code request} with {@code status} and {@code responseHeaders} (hop-by-hop
     * fields gone) may go into the private tier, so the front knows whether to keep its body as it
     * passes: a GET, storable by a shared cache (RFC 9111 §3), not partial, no larger than a replica
     * may be, with a memory tier to keep it in that keeps own fetches. Thread-safe.
     */
    public boolean mayKeep(ProxyRequest request, int status, Headers responseHeaders, long contentLength) {
        return memory != null && config.keepOwnFetches() && "GET".equals(request.method()) && contentLength <= config.maxBodyBytes()
                && storability.decide(request.method(), request.headers(), status, responseHeaders).storable()
                && Variants.key(responseHeaders, request.headers()).isPresent();
    }

    /**
     * Keeps a response the proxy fetched from the origin itself (or a stored one the origin just
     * freshened with a 304) in its private tier, so the next request for it is a hit at once (RFC 9111
     * shared-cache rules: {@link #mayKeep}, with the fields the decision strips removed). Private to
     * this proxy: never offered to the overlay, which only holds what a provider signed. A varying
     * response is kept as its variant, with a record of the fields it varies on. Thread-safe (the
     * browser loops call it).
     *
     * @param requestTimeMillis  when the request went to the origin
     * @param responseTimeMillis when its response arrived
     */
    public void keep(ProxyRequest request, int status, String reason, Headers responseHeaders, byte[] body,
                     long requestTimeMillis, long responseTimeMillis) {
        if (!mayKeep(request, status, responseHeaders, body.length)) {
            return;
        }
        CanonicalUrl url;
        try {
            url = CanonicalUrl.of(request.url().toString());
        } catch (IllegalArgumentException e) {
            return;
        }
        StorageDecision decision = storability.decide(request.method(), request.headers(), status, responseHeaders);
        Headers headers = decision.strip(responseHeaders).without("Cache-Status");
        List<String> vary = Variants.varyFields(headers);
        VariantKey variant = Variants.key(vary, request.headers()).orElseThrow();
        Id base = UrlNames.privateName(url.value(), VariantKey.NONE);
        Id guid = base;
        if (!vary.isEmpty()) {
            memory.putNames(base, responseTimeMillis, vary);
            guid = UrlNames.privateName(url.value(), variant);
        }
        VerifiedCopy view = new VerifiedCopy(status, reason, headers, requestTimeMillis, responseTimeMillis, responseTimeMillis);
        memory.putCopy(guid, false, responseTimeMillis, view, judge.window(view), body, env.nowNanos());
        kept.increment();
    }

    /** The largest body {@link #keep} keeps. */
    public long maxKeptBytes() {
        return config.maxBodyBytes();
    }

    /** Responses kept in the private tier so far. */
    public long keptPrivately() {
        return kept.sum();
    }

    /**
     * Misses sent to the gateway ({@link InsertPolicy#THROUGH_GATEWAY}) that it answered with
     * {@code outcome}; {@link Outcome#UNREACHABLE}: no gateway answered in time.
     */
    public long gatewayAnswers(Outcome outcome) {
        return gatewayOutcomes.getOrDefault(outcome, 0L);
    }

    /** Misses the stub's manager called a first sighting: fetched by this proxy and kept privately. */
    public long firstSightings() {
        return firstSightings;
    }

    /** Sightings asked of the stub's manager that no manager answered in time. */
    public long sightingsUnanswered() {
        return sightingsUnanswered;
    }

    /** Misses the gateway inserted whose new copy could then not be read (the proxy fetched them itself). */
    public long gatewayReadsFailed() {
        return gatewayReadsFailed;
    }

    /** Misses the gateway answered with the copy itself ({@code InsertReply.copy}), not read back through the overlay. */
    public long gatewayCopies() {
        return gatewayCopies;
    }

    /** Cacheable requests looked up. */
    public long lookups() {
        return lookups;
    }

    /** Requests answered with a verified copy. */
    public long hits() {
        return hits;
    }

    /** Lookups that found the object purged (a verified tombstone) and went to the origin. */
    public long purgedLookups() {
        return purged;
    }

    /** Replicas refused by verification (tampered, forged, older versions, malformed), in all. */
    public long refused() {
        return refused.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Replicas refused, by reason. */
    public Map<RejectReason, Long> refusedByReason() {
        return Map.copyOf(refused);
    }

    /** Lookups sent to the origin because the verify stage was full. */
    public long overloaded() {
        return overloaded;
    }

    /** A snapshot of what this cache has counted. */
    public CacheFigures figures() {
        // A memory hit is a lookup and a hit that never reached this loop.
        MemoryFigures inMemory = memory == null ? null : memory.figures();
        long memoryHitCount = inMemory == null ? 0 : inMemory.hits();
        return new CacheFigures(lookups + memoryHitCount, hits + memoryHitCount, refused, overloaded, hints.missHints(), hints.staleHints(), hints.latencyHints(),
                load.reportsSent(), load.requestsReported(), inMemory, refreshes, check.signatures().fullVerifications(),
                check.signatures().hits(), hints.seenHints(), kept.sum(),
                reads.started(), reads.joined(), overlay.accessFigures(), gatewayOutcomes, firstSightings,
                repeatSightings, sightingsUnanswered, gatewayCopies, gatewayReadsFailed,
                new CacheFigures.KeyFigures(trust.learnedCount(), trust.revokedCount(), trust.forged() + trust.unknownSigners(),
                        revokedLookups));
    }

    /** The hints sent so far. */
    public Hints hints() {
        return hints;
    }

    /** The load reports sent so far. */
    public LoadReports loadReports() {
        return load;
    }
}
