package io.riptide.core.object;

import java.time.Duration;
import java.util.List;

/**
 * Push mode, which an operator enables for URL patterns whose content the origin marks uncacheable
 * but which changes on the origin's schedule (scores, tickers): gateways keep such objects current by
 * pushing a heartbeat or an update every {@code interval}, and proxies serve a replica only while the
 * newest heartbeat or update is younger than {@code bound}. Never for no-store, private or
 * credentialed responses: those are not stored at all.
 *
 * @param urlPrefixes canonical URL prefixes in push mode
 */
public record PushMode(List<String> urlPrefixes, Duration interval, Duration bound) {
    /** Push mode for nothing. */
    public static final PushMode NONE = new PushMode(List.of(), Duration.ofSeconds(2), Duration.ofSeconds(5));

    public PushMode {
        urlPrefixes = List.copyOf(urlPrefixes);
        if (interval.isNegative() || interval.isZero() || bound.isNegative() || bound.isZero()) {
            throw new IllegalArgumentException("push interval and bound must be positive");
        }
    }

    /** Push mode for these prefixes with the defaults: a push every 2 s, served while younger than 5 s. */
    public static PushMode forPrefixes(List<String> prefixes) {
        return new PushMode(prefixes, NONE.interval(), NONE.bound());
    }

    /** Whether {@code canonicalUrl} is in push mode. */
    public boolean covers(String canonicalUrl) {
        for (String p : urlPrefixes) {
            if (canonicalUrl.startsWith(p)) {
                return true;
            }
        }
        return false;
    }
}
