package io.riptide.proxy.cache;

import io.riptide.core.http.Headers;
import java.time.Clock;
import java.util.concurrent.CompletableFuture;

/**
 * The seam between the proxy's HTTP front and the cache behind it: the front asks for a cached answer
 * to a cacheable request and serves it, or goes to the origin at once when the lookup says miss.
 */
public interface CacheLookup {
    /**
     * Looks {@code request} up. Always completes, within the lookup's own deadline, with a hit to
     * serve or a miss that says why (for the {@code Cache-Status} header). Never blocks the caller.
     */
    CompletableFuture<LookupResult> lookup(ProxyRequest request);

    /**
     * The origin answered a request that went to it after a miss (or a bypass, with {@code bypassed})
     * with {@code status} and {@code responseHeaders}: a chance to send hints (a miss hint to the
     * nearest cache manager or gateway), whose variant the response's Vary selects.
     */
    void onOriginResponse(ProxyRequest request, int status, Headers responseHeaders, long latencyNanos, boolean bypassed);

    /** The clock the cache judges freshness by; the front uses it too, for the dates it compares. */
    default Clock clock() {
        return Clock.systemUTC();
    }

    /** A cache that never hits: the pass-through mode, and the proxy before it has an overlay. */
    CacheLookup NONE = new CacheLookup() {
        @Override
        public CompletableFuture<LookupResult> lookup(ProxyRequest request) {
            return CompletableFuture.completedFuture(LookupResult.miss("fwd=miss"));
        }

        @Override
        public void onOriginResponse(ProxyRequest request, int status, Headers responseHeaders, long latencyNanos,
                                     boolean bypassed) {
        }
    };
}
