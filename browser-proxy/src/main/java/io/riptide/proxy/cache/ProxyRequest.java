package io.riptide.proxy.cache;

import io.riptide.core.http.Headers;
import java.net.URI;

/** A browser's request as the cache sees it: method, absolute URL and request headers (hop-by-hop fields removed). */
public record ProxyRequest(String method, URI url, Headers headers) {
}
