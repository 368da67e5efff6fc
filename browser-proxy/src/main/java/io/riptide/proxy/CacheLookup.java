package io.riptide.proxy;

import io.riptide.core.http.Headers;
import io.riptide.core.stage.StageMetrics;
import io.riptide.proxy.cache.CacheFigures;
import io.riptide.proxy.cache.CacheStatus;
import io.riptide.proxy.cache.LookupResult;
import io.riptide.proxy.cache.ProxyRequest;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The seam between the proxy's HTTP front and the cache behind it: the front asks for a cached answer
 * to a cacheable request and serves it, or goes to the origin at once when the lookup says miss.
 * Callable from any thread.
 */
public interface CacheLookup {
    /**
     * Looks {@code request} up. Always completes, within the lookup's own deadline, with an answer to
     * serve, a copy to revalidate, or a miss that says why. Never blocks the caller.
     */
    CompletableFuture<LookupResult> lookup(ProxyRequest request);

    /**
     * The origin answered a request that {@code lookup} sent forward (a miss, or a revalidation) with
     * {@code status} and {@code responseHeaders}: a chance to send hints, whose variant the response's
     * Vary selects. Not called for requests that bypass the cache.
     */
    void onOriginResponse(ProxyRequest request, LookupResult lookup, int status, Headers responseHeaders);

    /**
     * An unsafe request ({@code method}) to {@code target} was answered with a non-error status: the
     * cache stops serving what it holds of {@code target} and of {@code related} (the response's
     * same-origin Location and Content-Location), RFC 9111 §4.4. Never blocks the caller.
     */
    default void invalidate(String method, java.net.URI target, java.util.List<java.net.URI> related) {
    }

    /**
     * Whether the cache would keep the origin's response to {@code request} ({@code status},
     * {@code responseHeaders} without hop-by-hop fields, {@code contentLength} or -1 when unknown) in
     * its private tier, so the front keeps the body as it passes. Never blocks the caller.
     */
    default boolean mayKeep(ProxyRequest request, int status, Headers responseHeaders, long contentLength) {
        return false;
    }

    /** The largest body the private tier keeps: the front stops collecting one past it. */
    default long maxKeptBytes() {
        return 0;
    }

    /**
     * Keeps a response this proxy fetched from the origin itself (or a stored one the origin just
     * freshened with a 304) for the next request: private to this proxy, under RFC 9111's shared-cache
     * rules. Never blocks the caller.
     */
    default void keep(ProxyRequest request, int status, String reason, Headers responseHeaders, byte[] body,
                      long requestTimeMillis, long responseTimeMillis) {
    }

    /** What the cache has counted, for the status page; empty for a cache that counts nothing. */
    default Optional<CacheFigures> figures() {
        return Optional.empty();
    }

    /** The figures of the SEDA stages the cache hands work to (the overlay cache's verify stage); none by default. */
    default List<StageMetrics> stages() {
        return List.of();
    }

    /** The clock the cache judges freshness by; the front uses it too, for the dates it compares. */
    default Clock clock() {
        return Clock.systemUTC();
    }

    /** A cache that never hits: the pass-through mode, and the proxy before it has an overlay. */
    CacheLookup NONE = new CacheLookup() {
        @Override
        public CompletableFuture<LookupResult> lookup(ProxyRequest request) {
            return CompletableFuture.completedFuture(LookupResult.forward(CacheStatus.forward("miss")));
        }

        @Override
        public void onOriginResponse(ProxyRequest request, LookupResult lookup, int status, Headers responseHeaders) {
        }
    };
}
