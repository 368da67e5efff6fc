package io.riptide.proxy.front;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.riptide.core.http.Headers;
import io.riptide.core.http.Storability;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Collapsed forwarding for origin fetches: a miss for a URL that another request is already fetching from the origin
 * waits for that fetch instead of starting its own, and is answered with the same response when a shared cache may
 * reuse it (Varnish's request coalescing, on by default there; Squid's {@code collapsed_forwarding}; nginx's
 * {@code proxy_cache_lock}). A flash crowd for one page then costs its origin one fetch, not one per request, and does
 * not fill the origin's connections and queue, where the crowd would be shed as overload. A response a shared cache must
 * not reuse (private, no-store, one that varies, too large, not a 200) is not shared: the waiters then go to the origin
 * themselves, having lost only the leader's round trip. Shared by the proxy's event loops; each waiter is called on the
 * leader's thread and moves to its own.
 */
final class CollapsedFetches {
    /**
     * The largest body shared with waiters: they hold it in memory until written, so it is bounded, and a response this
     * large takes long enough to send that collapsing saves little of the crowd's time.
     */
    static final int MAX_SHARED_BYTES = 1 << 20;

    /** The leader's response, for every waiter to send as its own. */
    record Shared(int status, String reason, Headers headers, byte[] body) {
    }

    /** A request waiting for another's fetch of the same URL. */
    interface Waiter {
        /** The leader's fetch ended: its response to share, or null when there is none (go to the origin yourself). */
        void done(Shared shared);
    }

    /**
     * How long a URL whose answer could not be shared is not collapsed again: Varnish's "hit-for-miss" object, whose
     * default lifetime is also two minutes. Without it every request for an uncacheable hot URL (an API answering
     * {@code no-store}) would first wait for the one before it.
     */
    static final Duration NOT_SHARED_FOR = Duration.ofMinutes(2);
    /** URLs remembered as not shared: a bound on memory whatever the URLs a browser asks for. */
    static final int MAX_NOT_SHARED = 10_000;

    private final ConcurrentHashMap<String, List<Waiter>> inFlight = new ConcurrentHashMap<>();
    private final Cache<String, Boolean> notShared = Caffeine.newBuilder().maximumSize(MAX_NOT_SHARED)
            .expireAfterWrite(NOT_SHARED_FOR).executor(Runnable::run).build();
    private final Storability storability = new Storability();

    /**
     * Whether the caller leads the fetch of {@code url} (none was in flight, or the URL's answer lately could not be
     * shared): it must then {@link #finish} it. Otherwise {@code w} waits for the fetch in flight.
     */
    boolean leadOrWait(String url, Waiter w) {
        if (notShared.getIfPresent(url) != null) {
            return true;
        }
        boolean[] lead = {false};
        inFlight.compute(url, (k, waiters) -> {
            if (waiters == null) {
                lead[0] = true;
                return new ArrayList<>(2);
            }
            waiters.add(w);
            return waiters;
        });
        return lead[0];
    }

    /**
     * The leader's fetch of {@code url} ended with {@code shared} (null: nothing to share, and the URL is not collapsed
     * for {@link #NOT_SHARED_FOR}); every waiter learns it. Finishing a URL no one waits for is harmless.
     */
    void finish(String url, Shared shared) {
        if (shared == null) {
            notShared.put(url, Boolean.TRUE);
        }
        List<Waiter> waiters = inFlight.remove(url);
        if (waiters != null) {
            for (Waiter w : waiters) {
                w.done(shared);
            }
        }
    }

    /** {@code w} stopped waiting (its deadline, or its browser left). */
    void leave(String url, Waiter w) {
        inFlight.computeIfPresent(url, (k, waiters) -> {
            waiters.remove(w);
            return waiters;
        });
    }

    /**
     * Whether a response with this head may be handed to requests other than the one that fetched it: what a shared
     * cache may store (RFC 9111 §3) and reuse for any request to the URL (no Vary), a 200 of known, bounded length.
     */
    boolean shareable(Headers requestHeaders, int status, Headers responseHeaders, long contentLength) {
        return status == 200 && contentLength >= 0 && contentLength <= MAX_SHARED_BYTES
                && responseHeaders.first("Vary").isEmpty()
                && storability.decide("GET", requestHeaders, status, responseHeaders).storable();
    }

    /**
     * The URL under which a request may wait for, or lead, a fetch: only a plain GET without a body that asks nothing
     * of its own (no range, no condition, no credentials, no demand to bypass caches); null for any other request.
     */
    static String key(String method, String url, io.netty.handler.codec.http.HttpHeaders h) {
        // Some clients (Java's) send Content-Length: 0 with every GET: no body all the same.
        String length = h.get("Content-Length");
        if (!"GET".equals(method) || length != null && !"0".equals(length.trim()) || h.contains("Transfer-Encoding")
                || h.contains("Range") || h.contains("If-None-Match") || h.contains("If-Modified-Since")
                || h.contains("If-Match") || h.contains("If-Unmodified-Since") || h.contains("If-Range")
                || h.contains("Authorization")) {
            return null;
        }
        String cc = h.get("Cache-Control");
        if (cc != null && (cc.contains("no-cache") || cc.contains("no-store")) || h.contains("Pragma")) {
            return null;
        }
        return url;
    }

    /** Fetches with waiters or a leader now; for tests. */
    int inFlight() {
        return inFlight.size();
    }
}
