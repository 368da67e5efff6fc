package io.riptide.gateway.origin;

import io.riptide.core.http.Headers;
import java.net.URI;
import java.util.Objects;

/**
 * A request to an origin. The fetcher checks it when fetching (so a bad one fails the fetch with
 * {@link FetchException.Reason#INVALID_REQUEST} rather than throwing here): only GET and HEAD, only
 * absolute http and https URLs. Credentials in {@code headers} or the URL's userinfo are never sent.
 *
 * @param method the request method; GET or HEAD
 * @param url the absolute http or https URL
 * @param headers extra request headers, such as the variant's Accept, Accept-Encoding or the
 *     validators If-None-Match and If-Modified-Since
 */
public record OriginRequest(String method, URI url, Headers headers) {
    public OriginRequest {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(headers, "headers");
    }

    /** A GET of {@code url} with no extra headers. */
    public static OriginRequest get(URI url) {
        return new OriginRequest("GET", url, Headers.EMPTY);
    }

    /** A GET of {@code url} with {@code headers}. */
    public static OriginRequest get(URI url, Headers headers) {
        return new OriginRequest("GET", url, headers);
    }

    /** A HEAD of {@code url} with no extra headers. */
    public static OriginRequest head(URI url) {
        return new OriginRequest("HEAD", url, Headers.EMPTY);
    }
}
