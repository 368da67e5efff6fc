package io.riptide.proxy.upstream;

import io.netty.channel.ConnectTimeoutException;
import io.netty.handler.ssl.SslHandshakeTimeoutException;
import io.riptide.core.net.ForbiddenAddressException;
import io.riptide.proxy.DestinationPolicy;
import io.riptide.proxy.ProxyConfig;
import io.riptide.proxy.framing.Framing;
import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.time.Duration;
import javax.net.ssl.SSLException;

/** Turns what went wrong talking to an origin into a status and a message a person can act on. */
final class Failures {
    private static final int FORBIDDEN = 403;
    private static final int BAD_GATEWAY = 502;
    private static final int GATEWAY_TIMEOUT = 504;

    private Failures() {
    }

    static UpstreamFailure connect(Origin origin, Throwable cause, ProxyConfig config) {
        Duration connectTimeout = config.connectTimeout();
        ForbiddenAddressException refused = find(cause, ForbiddenAddressException.class);
        if (refused != null) {
            return new UpstreamFailure(FORBIDDEN, DestinationPolicy.refusalMessage(refused));
        }
        String certificate = certificateProblem(cause);
        if (certificate != null) {
            return new UpstreamFailure(BAD_GATEWAY, "the certificate of origin " + origin + " did not verify: " + certificate
                    + ". This proxy checks HTTPS origins against " + config.interception().trustDescription()
                    + "; nothing from this origin was served or cached. If the site is yours, give it a certificate "
                    + "from a trusted authority, or start the proxy with --origin-ca FILE naming its CA.");
        }
        if (causedBy(cause, SslHandshakeTimeoutException.class)) {
            return new UpstreamFailure(GATEWAY_TIMEOUT, "the TLS handshake with origin " + origin + " did not finish within "
                    + duration(connectTimeout));
        }
        if (causedBy(cause, SSLException.class)) {
            return new UpstreamFailure(BAD_GATEWAY, "the TLS handshake with origin " + origin + " failed: " + message(root(cause))
                    + "; nothing from this origin was served or cached");
        }
        Throwable c = root(cause);
        if (c instanceof ConnectTimeoutException) {
            return new UpstreamFailure(GATEWAY_TIMEOUT,
                    "could not connect to origin " + origin + " within " + duration(connectTimeout));
        }
        if (c instanceof UnknownHostException) {
            return new UpstreamFailure(BAD_GATEWAY, "cannot resolve the origin's host name " + origin.host());
        }
        if (c instanceof ConnectException) {
            return new UpstreamFailure(BAD_GATEWAY, "cannot connect to origin " + origin + ": connection refused");
        }
        if (c instanceof IllegalStateException) {
            // FixedChannelPool's refusal when too many requests already wait for a connection.
            return new UpstreamFailure(BAD_GATEWAY, "too many requests are waiting for a connection to origin " + origin);
        }
        return new UpstreamFailure(BAD_GATEWAY, "cannot connect to origin " + origin + ": " + message(c));
    }

    static UpstreamFailure onConnection(Origin origin, Throwable cause, boolean headSeen) {
        Throwable c = root(cause);
        if (c instanceof ClosedChannelException || c == null) {
            return new UpstreamFailure(BAD_GATEWAY, "origin " + origin + " closed the connection before "
                    + (headSeen ? "the end of the response" : "sending a response"));
        }
        if (c instanceof IOException) {
            return new UpstreamFailure(BAD_GATEWAY, "origin " + origin + " reset the connection: " + message(c));
        }
        return malformed(origin, c);
    }

    static UpstreamFailure closed(Origin origin, boolean headSeen) {
        return onConnection(origin, null, headSeen);
    }

    static UpstreamFailure malformed(Origin origin, Throwable cause) {
        return new UpstreamFailure(BAD_GATEWAY, "origin " + origin + " sent a malformed response: " + message(cause));
    }

    /** The origin's response framed ambiguously ({@link Framing.Faulty}): refused, and its connection closed. */
    static UpstreamFailure framing(Origin origin, Framing.Faulty faulty) {
        return new UpstreamFailure(BAD_GATEWAY, "origin " + origin + " sent a response with " + faulty.describe()
                + ", which could be read as a different number of responses; it was not forwarded, and that connection "
                + "to the origin was closed");
    }

    /**
     * Shed by the origin's queue ({@link OriginQueue}): every connection to the origin busy and the queue for them
     * standing, so the browser is told at once to come back, not kept waiting.
     */
    static UpstreamFailure busy(Origin origin, ProxyConfig config, long waitedNanos, long limitNanos) {
        String waited = waitedNanos == 0
                ? config.originAdmission().maxWaiting() + " requests are waiting for them already"
                : "this request waited " + waitedNanos / 1_000_000 + " ms, over the " + Math.max(1, limitNanos / 1_000_000)
                        + " ms allowed while requests queue for it";
        return new UpstreamFailure(503, "origin " + origin + " is busy: this proxy's " + config.upstreamConnectionsPerOrigin()
                + " connections to it per event loop are all in use and " + waited + "; try again in "
                + OriginAdmission.RETRY_AFTER_SECONDS + " s", OriginAdmission.RETRY_AFTER_SECONDS);
    }

    static UpstreamFailure timeout(Origin origin, Duration responseTimeout) {
        return new UpstreamFailure(GATEWAY_TIMEOUT,
                "origin " + origin + " did not answer within " + duration(responseTimeout));
    }

    /**
     * Why the origin's certificate was refused (the deepest reason the JDK gave: no path to a trusted
     * anchor, another host's name, expired), or null when the failure was not about its certificate.
     */
    static String certificateProblem(Throwable cause) {
        if (causedBy(cause, CertificateException.class) || causedBy(cause, CertPathBuilderException.class)
                || causedBy(cause, CertPathValidatorException.class)) {
            return message(root(cause));
        }
        return null;
    }

    private static boolean causedBy(Throwable t, Class<? extends Throwable> type) {
        return find(t, type) != null;
    }

    private static <T extends Throwable> T find(Throwable t, Class<T> type) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (type.isInstance(c)) {
                return type.cast(c);
            }
        }
        return null;
    }

    private static Throwable root(Throwable t) {
        Throwable c = t;
        while (c != null && c.getCause() != null && c.getCause() != c) {
            c = c.getCause();
        }
        return c;
    }

    private static String message(Throwable t) {
        return t.getMessage() != null ? t.getMessage() : t.getClass().getSimpleName();
    }

    static String duration(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }
}
