package io.riptide.proxy.cache;

import io.riptide.core.http.Headers;
import java.net.URI;

/** A browser's request as the cache sees it: method, absolute URL and request headers (hop-by-hop fields removed). */
public record ProxyRequest(String method, URI url, Headers headers) {
    /** A GET of {@code url} with {@code headers}. */
    public static ProxyRequest get(String url, Headers headers) {
        return new ProxyRequest("GET", URI.create(url), headers);
    }

    /** The origin-form target the origin is asked for: the path (at least "/") and the query. */
    public String originForm() {
        String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
        return url.getRawQuery() == null ? path : path + "?" + url.getRawQuery();
    }
}
