package io.riptide.proxy.cache;

import io.riptide.core.http.CacheControl;
import java.util.Locale;

/**
 * The preliminary decision, from the request alone, whether the shared cache may answer it. Private
 * requests never reach the cache: the gateway fetches without credentials or cookies (architecture §8),
 * so a cached copy could not be the answer a browser sending them expects. URL hints (paper §4.2.2)
 * send scripts straight to the origin too: a path under {@code /cgi-bin/} or ending in {@code .cgi},
 * and, where configured, any URL with a query string.
 *
 * @param cookiesBypass whether a request with a {@code Cookie} skips the cache
 * @param queryBypass   whether a URL with a query string skips the cache
 */
public record Cacheability(boolean cookiesBypass, boolean queryBypass) {
    /** The proxy's defaults: cookies bypass, query strings do not. */
    public static final Cacheability DEFAULTS = new Cacheability(true, false);

    /** The bypass status for {@code request} ({@code fwd=bypass} with the reason as detail), or null if the cache may answer it. */
    public CacheStatus bypass(ProxyRequest request) {
        String detail = reason(request);
        return detail == null ? null : CacheStatus.forward("bypass", detail);
    }

    private String reason(ProxyRequest request) {
        if (!"GET".equals(request.method()) && !"HEAD".equals(request.method())) {
            return "method";
        }
        if (scriptLike(request.originForm())) {
            return "url-hint";
        }
        if (request.headers().contains("Authorization")) {
            return "credentials";
        }
        if (cookiesBypass && request.headers().contains("Cookie")) {
            return "cookie";
        }
        for (String value : request.headers().all("Cache-Control")) {
            if (CacheControl.parse(value).noStore()) {
                return "no-store";
            }
        }
        return null;
    }

    /** Whether the URL looks like a script's: CGI by path, or (with {@code queryBypass}) variables in a query string. */
    private boolean scriptLike(String target) {
        int q = target.indexOf('?');
        if (queryBypass && q >= 0 && q < target.length() - 1) {
            return true; // a bare trailing '?' carries no variables
        }
        // Servers often match these case-insensitively, so the hint does too.
        String path = (q >= 0 ? target.substring(0, q) : target).toLowerCase(Locale.ROOT);
        return path.contains("/cgi-bin/") || path.endsWith(".cgi");
    }
}
