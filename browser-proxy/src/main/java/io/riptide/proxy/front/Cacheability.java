package io.riptide.proxy.front;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.riptide.core.http.CacheControl;

/**
 * The preliminary decision, from the request alone, whether the shared cache may answer it. Private
 * requests never reach the cache: the gateway fetches without credentials or cookies (architecture §8),
 * so a cached copy could not be the answer a browser sending them expects.
 */
final class Cacheability {
    /** The decision: cacheable, or the {@code detail} naming why not (for {@code Cache-Status}). */
    record Verdict(boolean cacheable, String detail) {
        static final Verdict CACHEABLE = new Verdict(true, null);
    }

    private Cacheability() {
    }

    static Verdict of(HttpMethod method, HttpHeaders headers, boolean cookiesBypass) {
        if (!HttpMethod.GET.equals(method) && !HttpMethod.HEAD.equals(method)) {
            return new Verdict(false, "method");
        }
        if (headers.contains(HttpHeaderNames.AUTHORIZATION)) {
            return new Verdict(false, "credentials");
        }
        if (cookiesBypass && headers.contains(HttpHeaderNames.COOKIE)) {
            return new Verdict(false, "cookie");
        }
        for (String value : headers.getAll(HttpHeaderNames.CACHE_CONTROL)) {
            if (CacheControl.parse(value).noStore()) {
                return new Verdict(false, "no-store");
            }
        }
        return Verdict.CACHEABLE;
    }
}
