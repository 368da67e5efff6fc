package io.riptide.gateway.origin;

import java.net.URI;
import java.util.Objects;

/** Why an origin fetch failed: a {@link Reason} and a message naming the URL. */
public final class FetchException extends Exception {
    /** The kinds of fetch failure. */
    public enum Reason {
        /** Not GET or HEAD, not an absolute http(s) URL, or a header value that can't be sent. */
        INVALID_REQUEST,
        /** The origin could not be reached (name, refusal, connect timeout). */
        CONNECT_FAILED,
        /**
         * The origin's address (an IP literal, or what its name resolved to) is loopback, private,
         * link-local or otherwise not public, and the fetcher fetches public origins only.
         */
        FORBIDDEN_ORIGIN,
        /** The TLS handshake failed: an untrusted certificate, the wrong host name, no common protocol. */
        TLS_FAILED,
        /** The fetch, redirects included, did not finish within the deadline. */
        TIMEOUT,
        /** The body exceeded the maximum object size. */
        TOO_LARGE,
        /** A bad status line, header or chunk, or a redirect to a URL that can't be fetched. */
        MALFORMED_RESPONSE,
        /** The connection closed before a complete response. */
        TRUNCATED,
        /** A redirect led back to a URL already visited in this fetch. */
        REDIRECT_LOOP,
        /** More redirects than the limit. */
        TOO_MANY_REDIRECTS,
        /** A redirect from https to plain http, refused so a secure fetch never becomes an insecure one. */
        INSECURE_REDIRECT,
        /** The origin's fetch rate, or the fetcher's capacity, is used up; try later. */
        RATE_LIMITED,
        /** The fetcher was closed. */
        CLOSED
    }

    private final Reason reason;
    private final URI url;

    /** A failure for {@code reason} while fetching {@code url}; {@code message} should name the URL. */
    public FetchException(Reason reason, URI url, String message) {
        this(reason, url, message, null);
    }

    /** As {@link #FetchException(Reason, URI, String)}, keeping the underlying {@code cause}. */
    public FetchException(Reason reason, URI url, String message, Throwable cause) {
        super(message, cause);
        this.reason = Objects.requireNonNull(reason, "reason");
        this.url = url;
    }

    /** What kind of failure this is. */
    public Reason reason() {
        return reason;
    }

    /** The URL being fetched when it failed (after redirects); null if the request had none. */
    public URI url() {
        return url;
    }
}
