package io.riptide.gateway.insert;

import io.riptide.core.crypto.SigningKey;
import io.riptide.core.gateway.GatewayMessages;
import io.riptide.core.gateway.GatewayMessages.InsertHandoff;
import io.riptide.core.gateway.GatewayMessages.InsertReply;
import io.riptide.core.gateway.GatewayMessages.Outcome;
import io.riptide.core.gateway.GatewayMessages.Waiter;
import io.riptide.core.http.CachedResponse;
import io.riptide.core.http.CanonicalUrl;
import io.riptide.core.http.Freshness;
import io.riptide.core.http.Headers;
import io.riptide.core.http.StorageDecision;
import io.riptide.core.http.Storability;
import io.riptide.core.http.Validators;
import io.riptide.core.http.VariantKey;
import io.riptide.core.http.Variants;
import io.riptide.core.id.Id;
import io.riptide.core.object.CachedCopy;
import io.riptide.core.object.Heartbeat;
import io.riptide.core.object.ObjectCertificate;
import io.riptide.core.object.ObjectFormatException;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.object.ObjectVerifier;
import io.riptide.core.object.StoredResponse;
import io.riptide.core.object.Tombstone;
import io.riptide.core.object.VariantRecord;
import io.riptide.core.object.VersionFloor;
import io.riptide.core.object.WebObject;
import io.riptide.core.runtime.Env;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.location.LocationMessages.FailureReason;
import io.riptide.dolr.server.ServerSettings;
import io.riptide.gateway.GatewayConfig;
import io.riptide.gateway.Origin;
import io.riptide.gateway.origin.FetchException;
import io.riptide.gateway.origin.OriginRequest;
import io.riptide.gateway.origin.OriginResponse;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;

/**
 * The gateway's insert pipeline: fetch from the origin, decide storability (RFC 9111), sign, and
 * store the object in the overlay as a new version — or, when the content has not changed, confirm
 * the current version with a heartbeat.
 *
 * <p>Requests for the same URL and request headers collapse into one origin fetch: on this gateway
 * through the job in progress, and across the provider's gateways through a lease at the URL's root
 * (whoever holds it fetches; the others hand their requesters over and the holder answers them).
 * Everything runs on the node's loop except signing (the crypto stage) and the fetch itself.
 *
 * <p>A new version is numbered one above what the overlay holds, and above the node's version floor
 * ({@link io.riptide.dolr.OverlayNode#versionFloor}), which every version this gateway signs or
 * verifies raises and which a node with a disk store keeps across restarts: a number is never signed
 * twice, even when the overlay serves a replayed older copy (refused) or nothing.
 */
public final class Inserter {
    private final OverlayNode node;
    private final Env env;
    private final SigningKey provider;
    private final Origin origin;
    private final GatewayConfig config;
    private final Storability storability = new Storability();
    private final Freshness freshness = new Freshness();
    private final ObjectVerifier verifier;
    /** The node's version floor (kept with its disk store, if any), which the verifier consults. */
    private final VersionFloor floor;
    private final Map<Id, Job> jobs = new HashMap<>();
    private final Map<Id, Recent> recent = new LinkedHashMap<>();
    private final Map<Id, Known> known = new LinkedHashMap<>(64, 0.75f, true);
    // Canonical URLs purged (by this gateway, or a tombstone found in the overlay): never fetched or stored again.
    private final Map<String, Boolean> purged = new LinkedHashMap<>(64, 0.75f, true);
    private final Map<Id, Id> guidOfJob = new LinkedHashMap<>(64, 0.75f, true);
    /** The newest variant record this gateway knows per base GUID, so each variant's insert need not republish it. */
    private final Map<Id, VariantRecord> records = new LinkedHashMap<>(64, 0.75f, true);
    /** Base GUIDs whose record is being published, with the inserts waiting for it. */
    private final Map<Id, List<Runnable>> recordsInFlight = new HashMap<>();
    private final Consumer<Finished> onFinished;
    private long originFetches;
    private long unconfirmedLeases;
    private long currentUnknown;
    private final Map<Outcome, Long> outcomes = new java.util.EnumMap<>(Outcome.class);

    private record Recent(InsertResult result, long until, long freshnessSeconds) {
    }

    /** An insert that finished, with what monitors need to know about it. */
    public record Finished(Id jobKey, CanonicalUrl url, Headers requestHeaders, boolean stale, InsertResult result,
                           long freshnessSeconds) {
    }

    public Inserter(OverlayNode node, SigningKey provider, Origin origin, GatewayConfig config, Consumer<Finished> onFinished) {
        this.node = node;
        this.env = node.env();
        this.provider = provider;
        this.origin = origin;
        this.config = config;
        this.onFinished = onFinished;
        // The node's floor: kept with its disk store across restarts, when it has one.
        this.floor = node.versionFloor();
        this.verifier = new ObjectVerifier(Set.of(provider.publicKey()), floor, config.maxObjectBytes());
    }

    /** Origin fetches started so far. */
    public long originFetches() {
        return originFetches;
    }

    /** Insert jobs that ended with {@code outcome}, and requests refused with it (REJECTED, OVERLOADED). */
    public long outcomes(Outcome outcome) {
        return outcomes.getOrDefault(outcome, 0L);
    }

    /** Inserts in progress. */
    public int inProgress() {
        return jobs.size();
    }

    /** The job key of a URL and request headers: requests with the same key share one fetch. */
    public Id jobKey(CanonicalUrl url, Headers requestHeaders) {
        List<String> fields = new ArrayList<>();
        for (Headers.Field f : requestHeaders.fields()) {
            fields.add(f.name().toLowerCase(Locale.ROOT) + ":" + f.value().strip());
        }
        fields.sort(null);
        return Id.hash(ObjectNames.objectGuid(provider.publicKey(), url.value(), "").toBytes(),
                String.join("\n", fields).getBytes(StandardCharsets.UTF_8));
    }

    /** A remote requester asks for an insert; the reply goes straight back to it. */
    public void request(Waiter waiter, String url, Headers requestHeaders, boolean stale) {
        submit(url, requestHeaders, stale, waiter, null);
    }

    /** This gateway's own insert (a monitor's poll); {@code done} hears the result. */
    public void refresh(String url, Headers requestHeaders, Consumer<InsertResult> done) {
        submit(url, requestHeaders, false, null, done);
    }

    private void submit(String rawUrl, Headers requestHeaders, boolean stale, Waiter waiter, Consumer<InsertResult> local) {
        CanonicalUrl url;
        try {
            url = CanonicalUrl.of(rawUrl);
        } catch (IllegalArgumentException e) {
            outcomes.merge(Outcome.REJECTED, 1L, Long::sum);
            answer(waiter, local, new InsertResult(rawUrl, Id.ZERO, 0, Outcome.REJECTED, "not a URL this gateway fetches: " + e.getMessage()));
            return;
        }
        if (purged.containsKey(url.value())) {
            outcomes.merge(Outcome.NOT_CACHEABLE, 1L, Long::sum);
            answer(waiter, local, new InsertResult(url.value(), Id.ZERO, 0, Outcome.NOT_CACHEABLE, PURGED));
            return;
        }
        Headers headers = selectingOnly(requestHeaders);
        Id key = jobKey(url, headers);
        Job job = jobs.get(key);
        if (job == null) {
            Recent r = recent.get(key);
            // A monitor's own poll must reach the origin: only requesters are answered from a recent result.
            if (waiter != null && r != null && r.until() > env.nowNanos()) {
                if (stale) {
                    // Still a requester that found its copy stale: the monitors count it, as they count one
                    // that started a job (else reports within the recent window would never add up to a monitor).
                    // Counted before the answer leaves, so whoever hears the answer sees the count.
                    onFinished.accept(new Finished(key, url, headers, true, r.result(), r.freshnessSeconds()));
                }
                answer(waiter, local, r.result());
                return;
            }
            Known fresh = waiter != null && !stale ? freshHere(key) : null;
            if (fresh != null) {
                // The requester found no copy, but this gateway holds one the origin said is still fresh:
                // fetching again would only confirm it (RFC 9111 §4.2), so the origin is not asked.
                answer(waiter, local, new InsertResult(url.value(), guidOf(fresh), fresh.version(), Outcome.UNCHANGED,
                        "version " + fresh.version() + " is still fresh and stored here: not fetched again"));
                return;
            }
            if (jobs.size() >= config.maxJobs()) {
                outcomes.merge(Outcome.OVERLOADED, 1L, Long::sum);
                answer(waiter, local, new InsertResult(url.value(), Id.ZERO, 0, Outcome.OVERLOADED,
                        "gateway busy: " + jobs.size() + " inserts in progress"));
                return;
            }
            job = new Job(key, url, headers);
            jobs.put(key, job);
            join(job, stale, waiter, local);
            // Joined first: when this node is the lease's root, the claim answers (and may hand the job
            // and its waiters to another gateway) before start() returns.
            start(job);
            return;
        }
        join(job, stale, waiter, local);
    }

    private static void join(Job job, boolean stale, Waiter waiter, Consumer<InsertResult> local) {
        job.stale |= stale;
        if (waiter != null) {
            job.waiters.add(waiter);
        }
        if (local != null) {
            job.local.add(local);
        }
    }

    /**
     * Of a requester's fields, only the variant-selecting allow-list (normalised) reaches the origin:
     * requesters are untrusted overlay members, so cookies, credentials, API keys and any other field
     * that could personalise the shared copy are dropped, and equal variants share one job.
     */
    private static Headers selectingOnly(Headers headers) {
        return Variants.selectingFields(headers, Optional.empty());
    }

    private void start(Job job) {
        node.claim(job.key, config.leaseTtl(), lease -> {
            if (!lease.answered()) {
                unconfirmed(job);
            } else if (!lease.granted() && lease.holder() != null && !lease.holder().id().equals(node.self().id())) {
                handOff(job, lease.holder());
            } else if (!job.stale && job.local.isEmpty()) {
                fetchUnlessFresh(job);
            } else {
                fetch(job);
            }
        });
    }

    /**
     * A requester that merely missed (no stale copy, no monitor's poll) is answered from a copy still
     * fresh by the origin's own lifetime, without asking the origin again: the version this gateway
     * knows, or, when it knows none (another gateway inserted it, and that lease has lapsed), the one
     * the overlay holds. Only a URL that varies, or one with no fresh copy, is fetched.
     */
    private void fetchUnlessFresh(Job job) {
        Known known = currentFor(job.key);
        if (known != null) {
            if (fresh(known.copy())) {
                unchangedAndFresh(job, known.copy(), "known");
            } else {
                fetch(job);
            }
            return;
        }
        Id guid = ObjectNames.objectGuid(provider.publicKey(), job.url.value(), "");
        resolveCurrent(guid, copy -> {
            if (refusedAsPurged(job, copy)) {
                return;
            }
            if (copy == null || !fresh(copy)) {
                fetch(job);
                return;
            }
            remember(copy);
            guidOfJob.put(job.key, guid);
            trimToCapacity(guidOfJob);
            unchangedAndFresh(job, copy, "in the overlay");
        }, () -> currentUnknown(job, 0));
    }

    /**
     * The overlay could not say which version is current: a version numbered without knowing could
     * duplicate one another gateway made, so nothing is fetched or stored, and the requesters hear
     * that this gateway is busy (not remembered as a result) and ask again.
     */
    private void currentUnknown(Job job, long lifetime) {
        currentUnknown++;
        finish(job, Id.ZERO, 0, Outcome.OVERLOADED, "gateway busy: could not learn this URL's current version from the overlay",
                lifetime);
    }

    /** Jobs dropped because the overlay could not say which version is current. */
    public long currentUnknown() {
        return currentUnknown;
    }

    private void unchangedAndFresh(Job job, CachedCopy copy, String where) {
        ObjectCertificate cert = copy.object().certificate();
        finish(job, cert.guid(), cert.version(), Outcome.UNCHANGED, "version " + cert.version() + " is still fresh " + where
                + ": not fetched again", cert.freshnessLifetimeSeconds());
    }

    private void handOff(Job job, NodeHandle holder) {
        jobs.remove(job.key);
        if (!job.waiters.isEmpty()) {
            node.send(holder.address(), new InsertHandoff(job.url.value(), job.requestHeaders, job.stale, List.copyOf(job.waiters)));
        }
        // Local requests (monitors) are not forwarded: the holder's result reaches the overlay anyway.
        InsertResult handedOff = new InsertResult(job.url.value(), Id.ZERO, 0, Outcome.UNCHANGED,
                "another gateway (" + holder + ") is fetching this URL");
        job.local.forEach(c -> c.accept(handedOff));
    }

    /**
     * The lease's root did not answer, though the claim was resent for the whole budget: another
     * gateway may hold the lease and be inserting this URL, and a copy made here could be a second
     * copy of the same version. A fetch without an insert would help nobody (the requesters are
     * told an outcome, never given the body), so this gateway neither fetches nor inserts; the
     * requesters hear it is busy (not remembered as a result), and ask again later.
     */
    private void unconfirmed(Job job) {
        unconfirmedLeases++;
        Known current = currentFor(job.key);
        finish(job, current == null ? Id.ZERO : guidOf(current), current == null ? 0 : current.version(), Outcome.OVERLOADED,
                "gateway busy: could not confirm the fetch lease for this URL, so it was not fetched", 0);
    }

    /** Jobs dropped because their lease could not be confirmed. */
    public long unconfirmedLeases() {
        return unconfirmedLeases;
    }

    /** Requesters handed over by another gateway that found this one holding the URL's lease. */
    public void onHandoff(InsertHandoff handoff) {
        for (Waiter w : handoff.waiters()) {
            request(w, handoff.url(), handoff.requestHeaders(), handoff.stale());
        }
    }

    private void fetch(Job job) {
        Known current = currentFor(job.key);
        if (refusedAsPurged(job, current == null ? null : current.copy())) {
            return;
        }
        Headers request = job.requestHeaders;
        if (current != null) {
            request = Validators.conditionalRequest(current.copy().object().certificate().headers()).applyTo(request);
        }
        originFetches++;
        CompletableFuture<OriginResponse> future;
        try {
            future = origin.fetch(OriginRequest.get(URI.create(job.url.value()), request));
        } catch (RuntimeException e) {
            future = CompletableFuture.failedFuture(e);
        }
        future.whenComplete((response, error) -> env.execute(() -> onFetched(job, current, response, error)));
    }

    /** The version this gateway inserted or confirmed for the job, while it is fresh and this node still stores it. */
    private Known freshHere(Id jobKey) {
        Known k = currentFor(jobKey);
        return k != null && node.replicas().contains(guidOf(k)) && fresh(k.copy()) ? k : null;
    }

    /** Whether {@code copy} is fresh now by the origin's own lifetime, counted from the last fetch that confirmed it. */
    private boolean fresh(CachedCopy copy) {
        ObjectCertificate cert = copy.object().certificate();
        long confirmedAt = copy.heartbeat().map(Heartbeat::issuedAtMillis).orElse(cert.responseTimeMillis());
        Instant responseTime = Instant.ofEpochMilli(cert.responseTimeMillis());
        long ageOnArrival = freshness.currentAge(new CachedResponse(cert.statusCode(), cert.headers(),
                Instant.ofEpochMilli(cert.requestTimeMillis()), responseTime), responseTime).toMillis();
        return env.wallClockMillis() < confirmedAt + cert.freshnessLifetimeSeconds() * 1000 - ageOnArrival;
    }

    private Known currentFor(Id jobKey) {
        Id guid = guidOfJob.get(jobKey);
        return guid == null ? null : known.get(guid);
    }

    private void onFetched(Job job, Known current, OriginResponse response, Throwable error) {
        if (error != null) {
            Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
            String why = cause instanceof FetchException fe ? fe.getMessage() : "origin fetch failed: " + cause;
            // An origin this gateway refuses to fetch from (a private address) is a refusal, not a
            // failure to retry: it stays refused however often it is asked for.
            Outcome outcome = cause instanceof FetchException fe && fe.reason() == FetchException.Reason.FORBIDDEN_ORIGIN
                    ? Outcome.REJECTED : Outcome.ORIGIN_FAILED;
            finish(job, current == null ? Id.ZERO : guidOf(current), current == null ? 0 : current.version(),
                    outcome, why, 0);
            return;
        }
        if (response.status() == 304) {
            if (current != null) {
                confirm(job, current.copy(), current.copy().object().certificate().freshnessLifetimeSeconds());
            } else {
                finish(job, Id.ZERO, 0, Outcome.ORIGIN_FAILED, "the origin answered 304 Not Modified to an unconditional request", 0);
            }
            return;
        }
        StorageDecision decision = storability.decide("GET", job.requestHeaders, response.status(), response.headers());
        if (!decision.storable()) {
            finish(job, current == null ? Id.ZERO : guidOf(current), current == null ? 0 : current.version(),
                    Outcome.NOT_CACHEABLE, decision.reason(), 0);
            return;
        }
        // Only a gateway's purge marks a tombstone; an origin's own field of that name is not stored.
        Headers stored = decision.strip(response.headers()).without(Tombstone.HEADER);
        VariantKey variantKey = Variants.key(stored, job.requestHeaders).orElse(null);
        if (variantKey == null) {
            finish(job, Id.ZERO, 0, Outcome.NOT_CACHEABLE, "the response varies on every request (Vary: *)", 0);
            return;
        }
        String variant = variantKey.equals(VariantKey.NONE) ? "" : variantKey.toString();
        Id guid = ObjectNames.objectGuid(provider.publicKey(), job.url.value(), variant);
        guidOfJob.put(job.key, guid);
        trimToCapacity(guidOfJob);
        CachedResponse cached = new CachedResponse(response.status(), stored,
                Instant.ofEpochMilli(response.requestTimeMillis()), Instant.ofEpochMilli(response.responseTimeMillis()));
        long lifetime = freshness.lifetime(cached).duration().getSeconds();
        StoredResponse content = new StoredResponse(response.status(), response.reason(), stored, response.body());
        Consumer<CachedCopy> store = copy -> {
            if (refusedAsPurged(job, copy)) {
                return;
            }
            if (copy == null) {
                signAndStore(job, job.url.value(), variant, guid, nextVersionAfterRecord(guid), content,
                        response.requestTimeMillis(), response.responseTimeMillis(), lifetime);
                return;
            }
            // Hashing a large body is CPU work: it goes to the crypto stage, not the node's loop.
            boolean queued = env.submit(ServerSettings.CRYPTO_STAGE, () -> sameContent(copy, content), (same, hashFailure) -> {
                if (hashFailure == null && same) {
                    confirm(job, copy, lifetime);
                } else {
                    signAndStore(job, job.url.value(), variant, guid, copy.object().certificate().version() + 1, content,
                            response.requestTimeMillis(), response.responseTimeMillis(), lifetime);
                }
            });
            if (!queued) {
                finish(job, guid, copy.object().certificate().version(), Outcome.OVERLOADED,
                        "gateway busy: the signing stage is full", lifetime);
            }
        };
        Runnable unknown = () -> currentUnknown(job, lifetime);
        if (variant.isEmpty()) {
            resolveCurrent(guid, store, unknown);
        } else {
            // The record first: once the requester hears "inserted", a reader must be able to find the variant.
            ensureVariantRecord(job.url.value(), Variants.varyFields(stored), () -> resolveCurrent(guid, store, unknown));
        }
    }

    /**
     * Makes sure the URL's base GUID holds this provider's record that the URL varies on
     * {@code fields}, then runs {@code then} (also when the record could not be published: the
     * variant is still worth storing, and the next insert tries again). Inserts of several variants
     * at once publish one record; the others wait for it.
     */
    private void ensureVariantRecord(String url, List<String> fields, Runnable then) {
        Id base = ObjectNames.objectGuid(provider.publicKey(), url, "");
        VariantRecord current = records.get(base);
        if (current != null && current.varyFields().equals(fields)) {
            then.run();
            return;
        }
        List<Runnable> waiting = recordsInFlight.get(base);
        if (waiting != null) {
            waiting.add(then);
            return;
        }
        List<Runnable> mine = new ArrayList<>();
        mine.add(then);
        recordsInFlight.put(base, mine);
        Runnable done = () -> recordsInFlight.remove(base).forEach(Runnable::run);
        // What the base GUID holds now (a record, a copy of a non-varying version, or nothing) sets the next version.
        resolveCurrent(base, copy -> {
            if (copy != null && copy.object().certificate().isTombstone()) {
                purged(url); // the URL was purged: no record, and the variant's insert is refused next
                done.run();
                return;
            }
            VariantRecord found = records.get(base);
            if (found != null && found.varyFields().equals(fields)) {
                done.run();
                return;
            }
            long version = nextVersion(base, Math.max(copy == null ? 0 : copy.object().certificate().version(),
                    found == null ? 0 : found.version()) + 1);
            long now = env.wallClockMillis();
            boolean queued = env.submit(ServerSettings.CRYPTO_STAGE, () -> VariantRecord.sign(provider, url, fields, version, now),
                    (record, error) -> {
                        if (error != null) {
                            done.run();
                            return;
                        }
                        floor.raise(base, version);
                        // The base no longer holds a servable copy: a later non-varying insert must not confirm it.
                        known.remove(base);
                        records.put(base, record);
                        trimToCapacity(records);
                        if (!distribute(base, record.toBytes(), now, rooted -> done.run())) {
                            done.run();
                        }
                    });
            if (!queued) {
                done.run();
            }
        });
    }

    /**
     * The version a new copy or record of {@code guid} takes: {@code candidate} (the one after what
     * the overlay holds), or the one after the node's floor if that is higher. The floor holds every
     * version this gateway signed or verified, across restarts when the node has a disk store, so a
     * version number is never signed twice, even when the overlay serves an older copy (which the
     * verifier refuses) or none.
     */
    long nextVersion(Id guid, long candidate) {
        return Math.max(candidate, floor.floor(guid) + 1);
    }

    /** The version a new non-varying copy at {@code baseGuid} takes: above any variant record stored there. */
    long nextVersionAfterRecord(Id baseGuid) {
        VariantRecord record = records.get(baseGuid);
        return record == null ? 1 : record.version() + 1;
    }

    /**
     * Stores a response that did not come from an origin fetch — a publisher's push — as the next
     * version of its URL.
     */
    public void insertPushed(CanonicalUrl url, StoredResponse content, long timeMillis, Consumer<InsertResult> done) {
        Job job = new Job(jobKey(url, Headers.EMPTY), url, Headers.EMPTY);
        job.local.add(done);
        Id guid = ObjectNames.objectGuid(provider.publicKey(), url.value(), "");
        guidOfJob.put(job.key, guid);
        CachedResponse cached = new CachedResponse(content.statusCode(), content.headers(), Instant.ofEpochMilli(timeMillis),
                Instant.ofEpochMilli(timeMillis));
        long lifetime = freshness.lifetime(cached).duration().getSeconds();
        resolveCurrent(guid, copy -> {
            if (refusedAsPurged(job, copy)) {
                return;
            }
            long version = copy == null ? nextVersionAfterRecord(guid) : copy.object().certificate().version() + 1;
            signAndStore(job, url.value(), "", guid, version, content, timeMillis, timeMillis, lifetime);
        });
    }

    /** What a requester of a purged URL hears. */
    static final String PURGED = "purged from this cache by its operator: served by the origin only";

    /**
     * Ends {@code job} as not cacheable if its URL was purged, or {@code current} (what the overlay
     * holds) is a tombstone: a takedown sticks, whoever asks for the URL again. True if it did.
     */
    private boolean refusedAsPurged(Job job, CachedCopy current) {
        if (current != null && current.object().certificate().isTombstone()) {
            purged(job.url.value());
        }
        if (!purged.containsKey(job.url.value())) {
            return false;
        }
        finish(job, current == null ? Id.ZERO : current.object().certificate().guid(),
                current == null ? 0 : current.object().certificate().version(), Outcome.NOT_CACHEABLE, PURGED, 0);
        return true;
    }

    /** Marks {@code canonicalUrl} purged: no insert of it is made again (see {@link Purger}). */
    void purged(String canonicalUrl) {
        purged.put(canonicalUrl, Boolean.TRUE);
        trimToCapacity(purged);
    }

    /** The variant record this gateway knows at {@code baseGuid}, or null. */
    VariantRecord recordAt(Id baseGuid) {
        return records.get(baseGuid);
    }

    /** The node's version floor, which every version this gateway signs raises. */
    VersionFloor floor() {
        return floor;
    }

    /** The provider key this gateway signs with. */
    SigningKey provider() {
        return provider;
    }

    /** Whether this gateway knows {@code canonicalUrl} purged. */
    public boolean isPurged(String canonicalUrl) {
        return purged.containsKey(canonicalUrl);
    }

    /** The variants of {@code canonicalUrl} this gateway knows a copy of (their GUIDs are not the base's). */
    List<CachedCopy> knownVariants(String canonicalUrl) {
        List<CachedCopy> out = new ArrayList<>();
        for (Known k : known.values()) {
            ObjectCertificate c = k.copy().object().certificate();
            if (c.canonicalUrl().equals(canonicalUrl) && !c.variantKey().isEmpty()) {
                out.add(k.copy());
            }
        }
        return out;
    }

    private static boolean sameContent(CachedCopy copy, StoredResponse content) {
        ObjectCertificate cert = copy.object().certificate();
        return cert.statusCode() == content.statusCode()
                && Arrays.equals(cert.bodyDigest(), sha256(content.body()));
    }

    private static byte[] sha256(byte[] body) {
        try {
            return java.security.MessageDigest.getInstance("SHA-256").digest(body);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The newest copy of {@code guid}: known here, or read (and verified) from the overlay. A variant
     * record found there instead is remembered in {@code records}, and the copy is then null.
     */
    private void resolveCurrent(Id guid, Consumer<CachedCopy> done) {
        resolveCurrent(guid, done, () -> done.accept(null));
    }

    /**
     * As above, but when the overlay could not be asked (the read timed out or ran out of hops, as
     * under congestion: not the root's "no such object") {@code unknown} runs instead: the current
     * version may exist, and a version guessed without it could be a second copy of it.
     */
    void resolveCurrent(Id guid, Consumer<CachedCopy> done, Runnable unknown) {
        Known k = known.get(guid);
        if (k != null) {
            done.accept(k.copy());
            return;
        }
        node.read(guid, node.config().defaultTtl(), result -> {
            if (!result.found() && result.failure() != FailureReason.NOT_FOUND) {
                unknown.run();
                return;
            }
            CachedCopy copy = null;
            if (result.found() && result.data() != null && VariantRecord.isVariantRecord(result.data())) {
                // A base GUID of a URL that varied: no copy, but the next version starts above the record's.
                try {
                    VariantRecord record = VariantRecord.fromBytes(result.data());
                    if (verifier.verifyVariantRecord(record, guid).ok()) {
                        records.put(guid, record);
                        trimToCapacity(records);
                    }
                } catch (ObjectFormatException e) {
                    // As for a corrupt copy below.
                }
            } else if (result.found() && result.data() != null) {
                try {
                    CachedCopy candidate = CachedCopy.fromBytes(result.data(), config.maxObjectBytes());
                    if (verifier.verify(candidate.object(), guid).ok()) {
                        copy = candidate;
                    }
                } catch (ObjectFormatException e) {
                    // A corrupt replica is no current version: the next version starts above nothing known.
                }
            }
            done.accept(copy);
        });
    }

    private void confirm(Job job, CachedCopy copy, long lifetime) {
        Id guid = copy.object().certificate().guid();
        long version = copy.object().certificate().version();
        long now = env.wallClockMillis();
        boolean queued = env.submit(ServerSettings.CRYPTO_STAGE, () -> Heartbeat.sign(provider, guid, version, now),
                (heartbeat, error) -> {
                    if (error != null) {
                        finish(job, guid, version, Outcome.ORIGIN_FAILED, "could not sign a heartbeat: " + error, lifetime);
                        return;
                    }
                    CachedCopy updated = copy.withHeartbeat(heartbeat);
                    remember(updated);
                    String confirmed = "content unchanged: version " + version + " confirmed";
                    if (!distribute(guid, updated.toBytes(), heartbeat.issuedAtMillis(),
                            rooted -> finish(job, guid, version, Outcome.UNCHANGED, confirmed, lifetime))) {
                        finish(job, guid, version, Outcome.UNCHANGED, confirmed + " (this gateway could not keep a copy)", lifetime);
                    }
                });
        if (!queued) {
            finish(job, guid, version, Outcome.OVERLOADED, "gateway busy: the signing stage is full", lifetime);
        }
    }

    private void signAndStore(Job job, String url, String variant, Id guid, long candidate, StoredResponse content,
                              long requestTime, long responseTime, long lifetime) {
        long version = nextVersion(guid, candidate);
        boolean queued = env.submit(ServerSettings.CRYPTO_STAGE, () -> {
            ObjectCertificate cert = ObjectCertificate.sign(provider, url, variant, version, content, requestTime, responseTime,
                    lifetime);
            return CachedCopy.of(WebObject.of(cert, content.body()));
        }, (copy, error) -> {
            if (error != null) {
                finish(job, guid, version - 1, Outcome.ORIGIN_FAILED, "could not sign the object: " + error, lifetime);
                return;
            }
            floor.raise(guid, version); // signed: this number is never signed again, restarts included
            // remember() runs before finish(), which may start the next job for this URL at once.
            boolean stored = distribute(guid, copy.toBytes(), Math.max(responseTime, env.wallClockMillis()), rooted -> {
                remember(copy);
                finish(job, guid, version, Outcome.INSERTED, rooted
                        ? "version " + version + " inserted"
                        : "version " + version + " inserted; the object's root has not yet confirmed its pointer", lifetime);
            });
            if (!stored) {
                finish(job, guid, version - 1, Outcome.NOT_CACHEABLE, "object larger than this gateway's store", lifetime);
                return;
            }
            remember(copy);
            answerWithCopies(job, new InsertResult(job.url.value(), guid, version, Outcome.INSERTED,
                    "version " + version + " inserted, sent with this answer"));
        });
        if (!queued) {
            finish(job, guid, version - 1, Outcome.OVERLOADED, "gateway busy: the signing stage is full", lifetime);
        }
    }

    /**
     * Stores new data for {@code guid} on this gateway and pushes it down the object's dissemination
     * tree, whose root is the primary copy here; the first time, the tree is started. {@code readable}
     * hears when requesters may be told: at once for an update of a published object, and for a new
     * one once its publish reached the root (true) or the wait for that timed out (false), so that
     * "inserted" means "findable from any node". Returns false, without calling it, if the data does
     * not fit.
     */
    boolean distribute(Id guid, byte[] data, long stamp, Consumer<Boolean> readable) {
        if (node.publishUpdate(guid, data, stamp)) {
            readable.accept(true);
            return true;
        }
        if (!node.storeReplica(guid, data, readable)) {
            return false;
        }
        node.startTree(guid, stamp);
        return true;
    }

    void remember(CachedCopy copy) {
        // A non-varying copy at a URL's base GUID replaces the variant record that was there.
        records.remove(copy.object().certificate().guid());
        known.put(copy.object().certificate().guid(), new Known(copy));
        trimToCapacity(known);
    }

    /**
     * Answers at once the requesters that asked for the copy (proxies whose users wait for this fetch),
     * once it is stored here: they need not find it, so they need not wait for its publish to reach the
     * root, which the others do ({@link #distribute}). Those that get a copy are not answered again.
     */
    private void answerWithCopies(Job job, InsertResult result) {
        if (jobs.get(job.key) != job) {
            return; // already finished (an update, or a publish this node rooted itself): everyone has heard
        }
        byte[] copy = copyFor(result);
        if (copy == null) {
            return;
        }
        for (var it = job.waiters.iterator(); it.hasNext(); ) {
            Waiter w = it.next();
            if (w.wantsCopy()) {
                it.remove();
                node.send(w.requester().address(), new InsertReply(w.requestId(), result.url(), result.guid(), result.version(),
                        result.outcome(), result.reason(), copy));
            }
        }
    }

    /**
     * The stored object a requester that waits for this very fetch gets in the reply: the version the
     * result names (the variant the requester's headers selected, when the URL varies), while this
     * gateway still holds it; null otherwise (a copy too large for a reply), and the requester reads
     * it through the overlay instead.
     */
    private byte[] copyFor(InsertResult result) {
        if (result.outcome() != Outcome.INSERTED && result.outcome() != Outcome.UNCHANGED) {
            return null;
        }
        Known k = known.get(result.guid());
        if (k == null || k.version() != result.version()) {
            return null;
        }
        byte[] bytes = k.copy().toBytes();
        return bytes.length <= GatewayMessages.MAX_COPY_BYTES ? bytes : null;
    }

    private static <K, V> void trimToCapacity(Map<K, V> map) {
        // Bounded: a gateway remembers the newest versions of the objects it touched recently.
        var it = map.keySet().iterator();
        while (map.size() > 100_000 && it.hasNext()) {
            it.next();
            it.remove();
        }
    }

    private static Id guidOf(Known k) {
        return k.copy().object().certificate().guid();
    }

    private void finish(Job job, Id guid, long version, Outcome outcome, String reason, long lifetime) {
        InsertResult result = new InsertResult(job.url.value(), guid, version, outcome, reason);
        outcomes.merge(outcome, 1L, Long::sum);
        if (jobs.get(job.key) == job) {
            jobs.remove(job.key);
        }
        long now = env.nowNanos();
        recent.values().removeIf(r -> r.until() <= now);
        // "Busy" describes this gateway at that moment, not the URL: the next request should try afresh.
        if (outcome != Outcome.OVERLOADED) {
            recent.put(job.key, new Recent(result, now + config.recentResults().toNanos(), lifetime));
        }
        // The monitors hear of it before the requesters do, so a requester that hears the answer sees
        // what it caused (a monitor installed by its stale report).
        onFinished.accept(new Finished(job.key, job.url, job.requestHeaders, job.stale, result, lifetime));
        for (Waiter w : job.waiters) {
            answer(w, null, result);
        }
        for (Consumer<InsertResult> c : job.local) {
            c.accept(result);
        }
    }

    private void answer(Waiter waiter, Consumer<InsertResult> local, InsertResult result) {
        if (waiter != null) {
            node.send(waiter.requester().address(), new InsertReply(waiter.requestId(), result.url(), result.guid(),
                    result.version(), result.outcome(), result.reason(), waiter.wantsCopy() ? copyFor(result) : null));
        }
        if (local != null) {
            local.accept(result);
        }
    }
}
