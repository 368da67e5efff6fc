package io.riptide.proxy.front;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.riptide.core.http.CacheControl;
import java.util.Locale;

/**
 * The preliminary decision, from the request alone, whether the shared cache may answer it. Private
 * requests never reach the cache: the gateway fetches without credentials or cookies (architecture §8),
 * so a cached copy could not be the answer a browser sending them expects. URL hints (paper §4.2.2)
 * send scripts straight to the origin too: a path under {@code /cgi-bin/} or ending in {@code .cgi},
 * and, where configured, any URL with a query string.
 */
final class Cacheability {
    /** The decision: cacheable, or the {@code detail} naming why not (for {@code Cache-Status}). */
    record Verdict(boolean cacheable, String detail) {
        static final Verdict CACHEABLE = new Verdict(true, null);
    }

    private Cacheability() {
    }

    /**
     * The verdict for a request with {@code method}, origin-form {@code target} (path and query) and
     * {@code headers}; {@code cookiesBypass} and {@code queryBypass} turn the cookie and query hints on.
     */
    static Verdict of(HttpMethod method, String target, HttpHeaders headers, boolean cookiesBypass, boolean queryBypass) {
        if (!HttpMethod.GET.equals(method) && !HttpMethod.HEAD.equals(method)) {
            return new Verdict(false, "method");
        }
        if (scriptLike(target, queryBypass)) {
            return new Verdict(false, "url-hint");
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

    /** Whether the URL looks like a script's: CGI by path, or (with {@code queryBypass}) variables in a query string. */
    private static boolean scriptLike(String target, boolean queryBypass) {
        int q = target.indexOf('?');
        if (queryBypass && q >= 0 && q < target.length() - 1) {
            return true; // a bare trailing '?' carries no variables
        }
        // Servers often match these case-insensitively, so the hint does too.
        String path = (q >= 0 ? target.substring(0, q) : target).toLowerCase(Locale.ROOT);
        return path.contains("/cgi-bin/") || path.endsWith(".cgi");
    }
}
