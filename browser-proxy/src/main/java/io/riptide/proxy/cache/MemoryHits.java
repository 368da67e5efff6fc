package io.riptide.proxy.cache;

import io.riptide.core.crypto.PublicKey;
import io.riptide.core.http.CanonicalUrl;
import io.riptide.core.http.Headers;
import io.riptide.core.http.VariantKey;
import io.riptide.core.http.Variants;
import io.riptide.core.id.Id;
import io.riptide.core.runtime.Env;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Answers from the proxy's {@link MemoryCopies} on the caller's thread (a browser connection's loop),
 * with no overlay read: the URL's GUID under each trusted provider, primary first, its variant by a
 * kept variant record, and RFC 9111's verdict ({@link CopyJudge}) on the copy for this request. Only a
 * copy fresh for this request (or vouched for in push mode) is served, with
 * {@code Cache-Status: hit; detail=memory}; anything else goes through the overlay as before, where a
 * newer verified version or heartbeat renews the kept copy, and a stale one found nowhere newer is
 * revalidated with the origin ({@link #judged}).
 *
 * <p><b>How fresh memory stays.</b> A copy the overlay last confirmed more than the recheck interval
 * ago is still served, and the request starts a background read of the URL through the overlay (at
 * most one per copy per interval); whatever that read verifies replaces or renews the kept copy. A copy
 * unconfirmed for more than twice the interval (a URL not asked for lately) is not answered from here
 * at all: the request reads the overlay, which renews it, replaces it, or (finding nothing newer)
 * confirms it. So an update or heartbeat pushed to the replicas reaches this proxy's users within twice
 * the recheck interval plus one overlay read after it reached them, however long the origin's max-age
 * and however rarely the URL is asked for; a URL nobody asks for costs nothing. Memory hits are not counted in load reports: they cost the overlay nothing to move.
 *
 * <p>The proxy's own fetches (its private tier, kept by {@link ProxyCache#keep}) are answered the same
 * way after the verified copies, with {@code detail=private}; the first request that finds one tells
 * the cache it was asked for again, and like a verified copy it starts a background overlay read once
 * per recheck interval, so an inserted (or updated) verified copy takes over from it.
 *
 * <p>Thread-safe: it reads the time from {@link Env} and changes nothing but the tier's counters and
 * the copies' last-checked times.
 */
public final class MemoryHits {
    /** The Cache-Status of every memory hit. */
    public static final CacheStatus MEMORY_HIT = CacheStatus.hit("memory");
    /** What the fast path says of a verified copy too long unconfirmed: read the overlay first. */
    private static final LookupResult UNCONFIRMED = LookupResult.forward(CacheStatus.forward("miss", "unconfirmed"));
    /** The Cache-Status of a hit on a response the proxy fetched from the origin itself. */
    public static final CacheStatus PRIVATE_HIT = CacheStatus.hit("private");

    private final Env env;
    private final UrlNames names = new UrlNames();
    private final List<PublicKey> providers;
    // Whether a provider key is revoked: its names are no longer looked at (what memory kept under them is never served).
    private final java.util.function.Predicate<PublicKey> revoked;
    private final MemoryCopies copies;
    private final CopyJudge judge;
    private final long recheckNanos;
    private final Invalidations invalidations;
    /** Starts a background overlay read of a request, whose verified copy renews or replaces the kept one. */
    private final Consumer<ProxyRequest> refresh;
    /** Told, once per private copy, that a request found it: the URL's second sighting (with the copy's header fields). */
    private final BiConsumer<ProxyRequest, Headers> sightedAgain;

    MemoryHits(Env env, List<PublicKey> providers, java.util.function.Predicate<PublicKey> revoked, MemoryCopies copies, CopyJudge judge, Duration recheck,
               Invalidations invalidations, Consumer<ProxyRequest> refresh, BiConsumer<ProxyRequest, Headers> sightedAgain) {
        this.sightedAgain = sightedAgain;
        this.invalidations = invalidations;
        this.env = env;
        this.providers = List.copyOf(providers);
        this.revoked = revoked;
        this.copies = copies;
        this.judge = judge;
        this.recheckNanos = recheck.toNanos();
        this.refresh = refresh;
    }

    /**
     * A fresh answer from memory for {@code request}, whose body the caller then owns, or null when the
     * overlay must be asked. Verified copies come first, the proxy's own fetches (its private tier) after.
     */
    public LookupResult lookup(ProxyRequest request) {
        CanonicalUrl url = canonical(request);
        if (url != null) {
            for (int i = 0; i <= providers.size(); i++) {
                LookupResult r = judged(i, url, request, true);
                if (r == null) {
                    continue;
                }
                if (r == UNCONFIRMED) {
                    break; // a verified copy the overlay must confirm first: not a private one over it either
                }
                if (r.served() && r.status().hit() && !r.wasStale()) {
                    copies.hit();
                    CacheStatus status = i < providers.size() ? MEMORY_HIT : PRIVATE_HIT;
                    return r.status() == status ? r : r.withStatus(status);
                }
                r.release();
            }
        }
        copies.miss();
        return null;
    }

    /**
     * The kept copy of {@code url} under any provider, or the proxy's own, judged for {@code request}:
     * for the overlay path, when the overlay had nothing newer (a stale copy to revalidate with the
     * origin, or one a request's directives allow). Null if memory holds none.
     */
    LookupResult judged(ProxyRequest request) {
        CanonicalUrl url = canonical(request);
        if (url == null) {
            return null;
        }
        for (int i = 0; i <= providers.size(); i++) {
            LookupResult r = judged(i, url, request, false);
            if (r != null) {
                return i < providers.size() || r.status().detail() != null ? r : r.withStatus(r.status().withDetail("private"));
            }
        }
        return null;
    }

    /**
     * The copy kept under the {@code i}th provider's names ({@code i == providers.size()}: the proxy's own),
     * judged. On the {@code fast} path (before any overlay read) a verified copy the overlay has not
     * confirmed for twice the recheck interval is not used ({@link #UNCONFIRMED}): the request reads the
     * overlay first. Otherwise (the overlay just found nothing newer) that read confirms the copy.
     */
    private LookupResult judged(int i, CanonicalUrl url, ProxyRequest request, boolean fast) {
        boolean own = i == providers.size();
        PublicKey key = own ? null : providers.get(i);
        if (!own && revoked.test(key)) {
            return null;
        }
        Headers fields = request.headers();
        Id guid = own ? names.privateBase(url.value()) : names.base(key, url.value());
        VariantKey expected = VariantKey.NONE;
        MemoryCopies.Names record = copies.names(guid);
        if (record != null) {
            Optional<VariantKey> variant = Variants.key(record.varyFields(), fields);
            if (variant.isEmpty()) {
                return null;
            }
            expected = variant.get();
            guid = own ? UrlNames.privateName(url.value(), expected) : names.variant(key, url.value(), expected);
        }
        MemoryCopies.Held held = copies.copy(guid);
        if (held == null) {
            return null;
        }
        MemoryCopies.Copy copy = held.copy();
        long now = env.nowNanos();
        if (fast && (!own || copy.sighted.get()) && now - copy.checkedNanos.get() > 2 * recheckNanos) {
            // Unconfirmed for longer than the bound: an update may have reached the replicas since, so ask them.
            // A private copy joins this rule once its URL was asked for again (and so an insert asked for): until
            // then the overlay is unlikely to hold anything newer, and RFC 9111 alone decides for it.
            held.body().release();
            return UNCONFIRMED;
        }
        if ((invalidations.any() && invalidations.outdated(url.value(), copy.view.responseTimeMillis()))
                || !Variants.matches(copy.view.headers(), expected, fields)) {
            held.body().release();
            return null;
        }
        LookupResult.Found found = new LookupResult.Found(guid, i == 0, copy.version, false, null, 0);
        long nowMillis = env.wallClockMillis();
        LookupResult r;
        if (!fields.contains("Cache-Control") && !fields.contains("Pragma") && copy.window.freshAt(nowMillis)) {
            // What the judge decides for a request without directives, worked out when the copy was kept.
            r = LookupResult.serve(own ? PRIVATE_HIT : MEMORY_HIT, new LookupResult.Answer(copy.view.status(), copy.view.reason(),
                    copy.servedHeaders, held.body(), copy.window.ageSecondsAt(nowMillis)), found);
        } else {
            r = judge.judge(copy.view, held.body(), url.value(), fields, Instant.ofEpochMilli(nowMillis), found);
        }
        if (own && copy.sighted.compareAndSet(false, true)) {
            sightedAgain.accept(request, copy.view.headers()); // asked for again: once per private copy
        }
        if (!fast) {
            copy.checkedNanos.set(now); // the overlay was just asked and had nothing newer
            return r;
        }
        // A private copy is re-read through the overlay too: once the gateway holds the URL, its verified copy
        // (and any update pushed to it) is kept beside the private one and answers first.
        long checked = copy.checkedNanos.get();
        if (now - checked > recheckNanos && copy.checkedNanos.compareAndSet(checked, now)) {
            refresh.accept(request); // one per copy per interval, whether or not it finds anything
        }
        return r;
    }

    private CanonicalUrl canonical(ProxyRequest request) {
        return names.canonical(request.url().toString());
    }
}
