package io.riptide.gateway.origin;

import io.riptide.core.net.ForbiddenAddressException;
import io.netty.channel.ConnectTimeoutException;
import io.netty.handler.codec.TooLongFrameException;
import io.riptide.gateway.origin.FetchException.Reason;
import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import javax.net.ssl.SSLException;

/** Turns what went wrong into a {@link FetchException} whose message a person can act on. */
final class Failures {
    private Failures() {
    }

    static FetchException invalid(URI url, String problem) {
        return new FetchException(Reason.INVALID_REQUEST, url, "cannot fetch " + Urls.redacted(url) + ": it " + problem);
    }

    static FetchException tooLarge(URI url, long limit) {
        return new FetchException(Reason.TOO_LARGE, url,
                "origin " + url + " sent a body larger than the " + bytes(limit) + " limit");
    }

    static FetchException timeout(URI url, Duration deadline) {
        return new FetchException(Reason.TIMEOUT, url,
                "origin " + url + " did not answer completely within the " + duration(deadline) + " deadline");
    }

    static FetchException truncated(URI url, boolean headersSeen) {
        return new FetchException(Reason.TRUNCATED, url, "origin " + url + " closed the connection before "
                + (headersSeen ? "the end of the body" : "sending a complete response"));
    }

    static FetchException malformed(URI url, Throwable cause) {
        String what = cause instanceof TooLongFrameException
                ? "a status line or header fields beyond the size limit"
                : "a malformed response";
        return new FetchException(Reason.MALFORMED_RESPONSE, url,
                "origin " + url + " sent " + what + ": " + message(cause), cause);
    }

    static FetchException closed(URI url) {
        return new FetchException(Reason.CLOSED, url, "the origin fetcher closed before " + url + " was fetched");
    }

    static FetchException rateLimited(URI url, String why) {
        return new FetchException(Reason.RATE_LIMITED, url, "not fetching " + url + ": " + why);
    }

    /**
     * A refusal to fetch {@code url} because of its origin's address; {@code what} says which
     * address and why, e.g. "10.1.2.3 is a private address".
     */
    static FetchException forbiddenOrigin(URI url, String what) {
        return forbiddenOrigin(url, what, null);
    }

    private static FetchException forbiddenOrigin(URI url, String what, Throwable cause) {
        return new FetchException(Reason.FORBIDDEN_ORIGIN, url, "not fetching " + Urls.redacted(url) + ": " + what
                + "; this gateway fetches public origins only (allow-private-origins changes that)", cause);
    }

    /** A failure to get a connection to {@code url}'s origin. */
    static FetchException connect(URI url, Throwable cause) {
        ForbiddenAddressException forbidden = find(cause, ForbiddenAddressException.class);
        if (forbidden != null) {
            return forbiddenOrigin(url, forbidden.getMessage(), forbidden);
        }
        String detail = cause instanceof UnknownHostException ? "unknown host " + message(cause)
                : cause instanceof ConnectTimeoutException ? "connect timed out"
                : cause instanceof ConnectException ? message(cause)
                : message(cause);
        return new FetchException(Reason.CONNECT_FAILED, url, "cannot connect to origin " + url + ": " + detail, cause);
    }

    /** A failure on an open connection, once the request may have been sent. */
    static FetchException onConnection(URI url, Throwable cause, boolean headersSeen) {
        if (cause instanceof FetchException fe) {
            return fe;
        }
        SSLException tls = find(cause, SSLException.class);
        if (tls != null) {
            return tls(url, tls);
        }
        if (cause instanceof ClosedChannelException || find(cause, java.io.IOException.class) != null) {
            return truncated(url, headersSeen);
        }
        return malformed(url, cause);
    }

    static FetchException tls(URI url, Throwable cause) {
        Throwable root = cause;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return new FetchException(Reason.TLS_FAILED, url,
                "TLS handshake with origin " + url + " failed: " + message(root), cause);
    }

    private static <T extends Throwable> T find(Throwable t, Class<T> type) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (type.isInstance(c)) {
                return type.cast(c);
            }
        }
        return null;
    }

    private static String message(Throwable t) {
        return t.getMessage() != null ? t.getMessage() : t.getClass().getSimpleName();
    }

    /** {@code n} bytes as a person reads it: "10 MiB", "64 KiB" or "1000 bytes". */
    static String bytes(long n) {
        if (n >= 1024 * 1024 && n % (1024 * 1024) == 0) {
            return n / (1024 * 1024) + " MiB";
        }
        if (n >= 1024 && n % 1024 == 0) {
            return n / 1024 + " KiB";
        }
        return n + "-byte";
    }

    private static String duration(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }
}
