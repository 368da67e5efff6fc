package io.riptide.core.http;

import java.time.Duration;
import java.time.Instant;
import java.util.OptionalLong;

/** Decides how a shared cache may use a stored response for a request (RFC 9111 §4, RFC 5861). */
public final class ServeRules {
    private final Freshness freshness;

    /** Rules computing freshness with {@code freshness}. */
    public ServeRules(Freshness freshness) {
        this.freshness = freshness;
    }

    /** Whether, and how, {@code stored} may answer a request with headers {@code request} at {@code now}. */
    public ServeDecision decide(CachedResponse stored, Headers request, Instant now) {
        CacheControl res = CacheControl.ofResponse(stored.headers());
        CacheControl req = CacheControl.ofRequest(request);
        Duration age = freshness.currentAge(stored, now);
        Duration lifetime = freshness.lifetime(stored).duration();
        Duration staleness = age.minus(lifetime);
        boolean fresh = staleness.isNegative();
        boolean sie = staleIfErrorAllowed(res, req, staleness);

        ServeDecision.Action action;
        String reason;
        if (res.noCache()) {
            action = ServeDecision.Action.VALIDATE;
            reason = "response has Cache-Control: no-cache (validate before every use)";
        } else if (req.noCache()) {
            action = ServeDecision.Action.VALIDATE;
            reason = "request has no-cache (the client asks for validation)";
        } else if (req.maxAge().isPresent() && age.compareTo(seconds(req.maxAge())) > 0) {
            action = ServeDecision.Action.VALIDATE;
            reason = "stored response is " + age.toSeconds() + " s old, older than the request's max-age="
                    + req.maxAge().getAsLong();
        } else if (fresh && req.minFresh().isPresent() && lifetime.minus(age).compareTo(seconds(req.minFresh())) < 0) {
            action = ServeDecision.Action.VALIDATE;
            reason = "stored response stays fresh for less than the request's min-fresh=" + req.minFresh().getAsLong();
        } else if (fresh) {
            action = ServeDecision.Action.SERVE_FRESH;
            reason = "fresh: " + age.toSeconds() + " s old of a " + lifetime.toSeconds() + " s lifetime";
        } else if (clientMayAllowStale(res) && within(staleness, req.maxStale())) {
            action = ServeDecision.Action.SERVE_STALE;
            reason = "stale by " + staleness.toSeconds() + " s, which the request's max-stale accepts";
        } else if (originMayAllowStale(res) && within(staleness, res.staleWhileRevalidate())) {
            action = ServeDecision.Action.SERVE_STALE_WHILE_REVALIDATE;
            reason = "stale by " + staleness.toSeconds() + " s, within stale-while-revalidate="
                    + res.staleWhileRevalidate().getAsLong();
        } else {
            action = ServeDecision.Action.VALIDATE;
            reason = "stale by " + staleness.toSeconds() + " s" + (originMayAllowStale(res) && clientMayAllowStale(res)
                    ? "" : " and the response forbids serving it stale (" + staleBlocker(res) + ")");
        }
        if (action == ServeDecision.Action.VALIDATE && req.onlyIfCached()) {
            return new ServeDecision(ServeDecision.Action.GATEWAY_TIMEOUT, false, age,
                    "request has only-if-cached but " + reason);
        }
        return new ServeDecision(action, sie, age, reason);
    }

    /**
     * Whether {@code stored} may be served stale at {@code now} because validation failed with an
     * error (5xx or no answer): stale-if-error in the response or the request (RFC 5861 §4).
     */
    public boolean staleIfErrorAllowed(CachedResponse stored, Headers request, Instant now) {
        return staleIfErrorAllowed(CacheControl.ofResponse(stored.headers()), CacheControl.ofRequest(request),
                freshness.staleness(stored, now));
    }

    private static boolean staleIfErrorAllowed(CacheControl res, CacheControl req, Duration staleness) {
        return (originMayAllowStale(res) && within(staleness, res.staleIfError()))
                || (clientMayAllowStale(res) && within(staleness, req.staleIfError()));
    }

    /**
     * Whether the origin's own stale-while-revalidate / stale-if-error may take effect. Only an explicit
     * prohibition stops them (RFC 9111 §4.2.4); s-maxage does not, because the origin that sent both
     * plainly meant the stale window to apply.
     */
    private static boolean originMayAllowStale(CacheControl res) {
        return !res.noCache() && !res.mustRevalidate() && !res.proxyRevalidate();
    }

    /** Whether the client's permission to use stale content may take effect: s-maxage implies proxy-revalidate (§5.2.2.10). */
    private static boolean clientMayAllowStale(CacheControl res) {
        return originMayAllowStale(res) && res.sMaxAge().isEmpty();
    }

    private static String staleBlocker(CacheControl res) {
        if (res.mustRevalidate()) {
            return "must-revalidate";
        }
        if (res.proxyRevalidate()) {
            return "proxy-revalidate";
        }
        return "s-maxage implies proxy-revalidate";
    }

    private static boolean within(Duration staleness, OptionalLong limitSeconds) {
        if (limitSeconds.isEmpty()) {
            return false;
        }
        return limitSeconds.getAsLong() == CacheControl.UNLIMITED || staleness.compareTo(seconds(limitSeconds)) <= 0;
    }

    private static Duration seconds(OptionalLong s) {
        return Duration.ofSeconds(s.getAsLong());
    }
}
