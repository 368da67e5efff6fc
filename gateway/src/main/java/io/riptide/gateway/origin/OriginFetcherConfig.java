package io.riptide.gateway.origin;

import java.time.Duration;
import java.util.Objects;

/**
 * The limits of an {@link OriginFetcher}.
 *
 * @param maxBodyBytes largest body accepted; a larger one fails as TOO_LARGE (early, from
 *     Content-Length, when the origin sends one)
 * @param maxInitialLineBytes longest status line accepted
 * @param maxHeaderBytes most bytes of response header fields accepted
 * @param connectTimeout how long a TCP connect may take
 * @param deadline how long a whole fetch may take, redirects included
 * @param idleTimeout a pooled connection unused for this long is closed; at least {@code deadline}
 *     so a connection in use is never closed as idle before the deadline ends its fetch
 * @param maxConnectionsPerOrigin most open connections to one scheme, host and port
 * @param maxWaitingPerOrigin most fetches waiting for a connection to one origin; more fail as
 *     RATE_LIMITED instead of queueing without bound
 * @param maxInFlight most fetches in progress at once across all origins; more fail as RATE_LIMITED
 * @param maxRedirects most redirects followed in one fetch
 * @param fetchesPerSecondPerHost the steady fetch rate allowed to one host (each redirect hop counts)
 * @param burstPerHost fetches one host may take at once before the rate applies
 * @param maxTrackedHosts how many hosts' rate buckets are kept before full (idle) ones are forgotten
 * @param userAgent the User-Agent sent when the caller gives none
 * @param allowPrivateOrigins whether origins on loopback, private, link-local and other non-public
 *     addresses may be fetched (see {@link io.riptide.core.net.PublicAddresses}); false on a gateway that serves the open
 *     overlay, which anyone in it could otherwise make fetch the gateway's own network and sign it
 *     into the shared cache (server-side request forgery). Only a gateway that serves one internal
 *     network, and tests and demos with loopback origins, allow them.
 */
public record OriginFetcherConfig(
        int maxBodyBytes,
        int maxInitialLineBytes,
        int maxHeaderBytes,
        Duration connectTimeout,
        Duration deadline,
        Duration idleTimeout,
        int maxConnectionsPerOrigin,
        int maxWaitingPerOrigin,
        int maxInFlight,
        int maxRedirects,
        double fetchesPerSecondPerHost,
        int burstPerHost,
        int maxTrackedHosts,
        String userAgent,
        boolean allowPrivateOrigins) {

    public OriginFetcherConfig {
        requireAtLeast(maxBodyBytes, 0, "maxBodyBytes");
        requireAtLeast(maxInitialLineBytes, 64, "maxInitialLineBytes");
        requireAtLeast(maxHeaderBytes, 256, "maxHeaderBytes");
        requirePositive(connectTimeout, "connectTimeout");
        requirePositive(deadline, "deadline");
        requirePositive(idleTimeout, "idleTimeout");
        if (idleTimeout.compareTo(deadline) < 0) {
            throw new IllegalArgumentException("idleTimeout (" + idleTimeout + ") must be at least the deadline (" + deadline + ")");
        }
        requireAtLeast(maxConnectionsPerOrigin, 1, "maxConnectionsPerOrigin");
        requireAtLeast(maxWaitingPerOrigin, 1, "maxWaitingPerOrigin");
        requireAtLeast(maxInFlight, 1, "maxInFlight");
        requireAtLeast(maxRedirects, 0, "maxRedirects");
        if (!(fetchesPerSecondPerHost > 0) || Double.isInfinite(fetchesPerSecondPerHost)) {
            throw new IllegalArgumentException("fetchesPerSecondPerHost must be positive and finite: " + fetchesPerSecondPerHost);
        }
        requireAtLeast(burstPerHost, 1, "burstPerHost");
        requireAtLeast(maxTrackedHosts, 1, "maxTrackedHosts");
        Objects.requireNonNull(userAgent, "userAgent");
    }

    private static void requireAtLeast(int value, int min, String name) {
        if (value < min) {
            throw new IllegalArgumentException(name + " must be at least " + min + ", got " + value);
        }
    }

    private static void requirePositive(Duration d, String name) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive");
        }
    }

    /**
     * Defaults for a gateway on the open network: 10 MiB bodies, 8 KiB status line, 64 KiB of
     * headers, 5 s connect, 10 s per fetch, 60 s idle, 6 connections and 64 waiters per origin, 1024
     * fetches in flight, 5 redirects, 20 fetches a second per host with bursts of 40, 10,000 hosts
     * tracked, public origins only.
     */
    public static OriginFetcherConfig defaults() {
        return new OriginFetcherConfig(10 * 1024 * 1024, 8 * 1024, 64 * 1024, Duration.ofSeconds(5),
                Duration.ofSeconds(10), Duration.ofSeconds(60), 6, 64, 1024, 5, 20.0, 40, 10_000,
                "Riptide-Gateway/0.1", false);
    }

    /** This config with another maximum body size. */
    public OriginFetcherConfig withMaxBodyBytes(int bytes) {
        return new OriginFetcherConfig(bytes, maxInitialLineBytes, maxHeaderBytes, connectTimeout, deadline, idleTimeout,
                maxConnectionsPerOrigin, maxWaitingPerOrigin, maxInFlight, maxRedirects, fetchesPerSecondPerHost,
                burstPerHost, maxTrackedHosts, userAgent, allowPrivateOrigins);
    }

    /** This config with another connect timeout. */
    public OriginFetcherConfig withConnectTimeout(Duration timeout) {
        return new OriginFetcherConfig(maxBodyBytes, maxInitialLineBytes, maxHeaderBytes, timeout, deadline, idleTimeout,
                maxConnectionsPerOrigin, maxWaitingPerOrigin, maxInFlight, maxRedirects, fetchesPerSecondPerHost,
                burstPerHost, maxTrackedHosts, userAgent, allowPrivateOrigins);
    }

    /** This config with another per-fetch deadline (the idle timeout is raised to it if lower). */
    public OriginFetcherConfig withDeadline(Duration d) {
        Duration idle = idleTimeout.compareTo(d) < 0 ? d : idleTimeout;
        return new OriginFetcherConfig(maxBodyBytes, maxInitialLineBytes, maxHeaderBytes, connectTimeout, d, idle,
                maxConnectionsPerOrigin, maxWaitingPerOrigin, maxInFlight, maxRedirects, fetchesPerSecondPerHost,
                burstPerHost, maxTrackedHosts, userAgent, allowPrivateOrigins);
    }

    /** This config with another idle timeout for pooled connections. */
    public OriginFetcherConfig withIdleTimeout(Duration timeout) {
        return new OriginFetcherConfig(maxBodyBytes, maxInitialLineBytes, maxHeaderBytes, connectTimeout, deadline, timeout,
                maxConnectionsPerOrigin, maxWaitingPerOrigin, maxInFlight, maxRedirects, fetchesPerSecondPerHost,
                burstPerHost, maxTrackedHosts, userAgent, allowPrivateOrigins);
    }

    /** This config with another bound on connections per origin. */
    public OriginFetcherConfig withMaxConnectionsPerOrigin(int n) {
        return new OriginFetcherConfig(maxBodyBytes, maxInitialLineBytes, maxHeaderBytes, connectTimeout, deadline, idleTimeout,
                n, maxWaitingPerOrigin, maxInFlight, maxRedirects, fetchesPerSecondPerHost,
                burstPerHost, maxTrackedHosts, userAgent, allowPrivateOrigins);
    }

    /** This config with another redirect limit. */
    public OriginFetcherConfig withMaxRedirects(int n) {
        return new OriginFetcherConfig(maxBodyBytes, maxInitialLineBytes, maxHeaderBytes, connectTimeout, deadline, idleTimeout,
                maxConnectionsPerOrigin, maxWaitingPerOrigin, maxInFlight, n, fetchesPerSecondPerHost,
                burstPerHost, maxTrackedHosts, userAgent, allowPrivateOrigins);
    }

    /** This config with another per-host rate and burst. */
    public OriginFetcherConfig withRate(double perSecond, int burst) {
        return new OriginFetcherConfig(maxBodyBytes, maxInitialLineBytes, maxHeaderBytes, connectTimeout, deadline, idleTimeout,
                maxConnectionsPerOrigin, maxWaitingPerOrigin, maxInFlight, maxRedirects, perSecond,
                burst, maxTrackedHosts, userAgent, allowPrivateOrigins);
    }

    /**
     * This config allowing (or not) origins on loopback, private, link-local and other non-public
     * addresses. Allow them only on a gateway that serves one trusted internal network, or for
     * loopback origins in tests and demos.
     */
    public OriginFetcherConfig withPrivateOrigins(boolean allow) {
        return new OriginFetcherConfig(maxBodyBytes, maxInitialLineBytes, maxHeaderBytes, connectTimeout, deadline, idleTimeout,
                maxConnectionsPerOrigin, maxWaitingPerOrigin, maxInFlight, maxRedirects, fetchesPerSecondPerHost,
                burstPerHost, maxTrackedHosts, userAgent, allow);
    }
}
