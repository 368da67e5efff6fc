package io.riptide.proxy.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * URLs an unsafe request changed (RFC 9111 §4.4): after a POST, PUT, DELETE or PATCH to a URL answered
 * 2xx or 3xx, every copy of it certified at or before that moment, under any provider and for any
 * variant, is stale news, wherever it is kept. A copy the gateway fetches afterwards is certified
 * later and counts again; a gateway clock behind this proxy's only delays that (the origin answers
 * meanwhile, the safe side). Bounded (the oldest marks go first); thread-safe: the browser loops
 * check it on memory hits, the cache's loop on overlay copies.
 */
final class Invalidations {
    /** URLs remembered; a proxy sees few unsafe requests to cacheable URLs. */
    static final int MAX_URLS = 16_384;

    private final Cache<String, Long> marks = Caffeine.newBuilder().maximumSize(MAX_URLS).executor(Runnable::run).build();

    /** {@code canonicalUrl} changed at {@code atMillis} (this proxy's wall clock). */
    void mark(String canonicalUrl, long atMillis) {
        marks.asMap().merge(canonicalUrl, atMillis, Math::max);
    }

    /** Whether a copy of {@code canonicalUrl} certified as received at {@code responseTimeMillis} predates a change. */
    boolean outdated(String canonicalUrl, long responseTimeMillis) {
        Long at = marks.getIfPresent(canonicalUrl);
        return at != null && responseTimeMillis <= at;
    }

    /** Whether any URL is marked (a memory hit skips the lookup while none is). */
    boolean any() {
        return marks.estimatedSize() > 0;
    }
}
