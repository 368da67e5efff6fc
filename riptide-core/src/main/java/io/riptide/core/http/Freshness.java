package io.riptide.core.http;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/** Freshness lifetime and current age of a stored response, for a shared cache (RFC 9111 §4.2). */
public final class Freshness {
    /** Heuristic freshness never exceeds one day unless configured otherwise. */
    public static final Duration DEFAULT_HEURISTIC_CAP = Duration.ofHours(24);

    /** The "typical" fraction of the time since Last-Modified (RFC 9111 §4.2.2): 10%. */
    private static final long HEURISTIC_DIVISOR = 10;

    private final Duration heuristicCap;

    /** Freshness rules whose heuristic lifetime is at most {@code heuristicCap}. */
    public Freshness(Duration heuristicCap) {
        if (heuristicCap.isNegative()) {
            throw new IllegalArgumentException("the heuristic cap must not be negative");
        }
        this.heuristicCap = heuristicCap;
    }

    /** Freshness rules with the default 24-hour heuristic cap. */
    public Freshness() {
        this(DEFAULT_HEURISTIC_CAP);
    }

    /** The freshness lifetime: s-maxage, else max-age, else Expires − Date, else heuristic (§4.2.1). */
    public Lifetime lifetime(CachedResponse r) {
        Headers h = r.headers();
        CacheControl cc = CacheControl.ofResponse(h);
        if (cc.sMaxAge().isPresent()) {
            return new Lifetime(Duration.ofSeconds(cc.sMaxAge().getAsLong()), Lifetime.Source.S_MAXAGE);
        }
        if (cc.maxAge().isPresent()) {
            return new Lifetime(Duration.ofSeconds(cc.maxAge().getAsLong()), Lifetime.Source.MAX_AGE);
        }
        List<String> expires = h.all("Expires");
        if (!expires.isEmpty()) {
            // Invalid or conflicting Expires means "already expired" (§5.3, §4.2.1).
            boolean conflicting = expires.stream().distinct().count() > 1;
            Optional<Instant> at = conflicting ? Optional.empty() : HttpDates.parse(expires.get(0), r.responseTime());
            Duration d = at.map(e -> Duration.between(dateValue(r), e)).orElse(Duration.ZERO);
            return new Lifetime(d.isNegative() ? Duration.ZERO : d, Lifetime.Source.EXPIRES);
        }
        // Heuristics only without explicit expiry, for default-cacheable statuses or public (§4.2.2, §5.2.2.9).
        if (StatusCodes.isHeuristicallyCacheable(r.status()) || cc.isPublic()) {
            Optional<Instant> lastModified = h.first("Last-Modified").flatMap(v -> HttpDates.parse(v, r.responseTime()));
            if (lastModified.isPresent()) {
                Duration since = Duration.between(lastModified.get(), dateValue(r));
                Duration d = since.isNegative() ? Duration.ZERO : since.dividedBy(HEURISTIC_DIVISOR);
                return new Lifetime(d.compareTo(heuristicCap) > 0 ? heuristicCap : d, Lifetime.Source.HEURISTIC);
            }
        }
        return new Lifetime(Duration.ZERO, Lifetime.Source.NONE);
    }

    /**
     * The response's current age (RFC 9111 §4.2.3): the larger of the apparent age (response time
     * − Date) and the Age header corrected by the request's round trip, plus the time since it
     * arrived.
     */
    public Duration currentAge(CachedResponse r, Instant now) {
        Duration apparentAge = max(Duration.ZERO, Duration.between(dateValue(r), r.responseTime()));
        Duration responseDelay = Duration.between(r.requestTime(), r.responseTime());
        Duration correctedAgeValue = Duration.ofSeconds(ageValue(r.headers())).plus(responseDelay);
        Duration correctedInitialAge = max(apparentAge, correctedAgeValue);
        Duration residentTime = max(Duration.ZERO, Duration.between(r.responseTime(), now));
        return correctedInitialAge.plus(residentTime);
    }

    /** Whether the freshness lifetime exceeds the current age (§4.2). */
    public boolean isFresh(CachedResponse r, Instant now) {
        return lifetime(r).duration().compareTo(currentAge(r, now)) > 0;
    }

    /** How long ago the response became stale; zero while fresh. */
    public Duration staleness(CachedResponse r, Instant now) {
        return max(Duration.ZERO, currentAge(r, now).minus(lifetime(r).duration()));
    }

    /** The Date value, or the response time when Date is missing or invalid (RFC 9110 §6.6.1). */
    static Instant dateValue(CachedResponse r) {
        return r.headers().first("Date").flatMap(v -> HttpDates.parse(v, r.responseTime())).orElse(r.responseTime());
    }

    /** The Age header in seconds; an invalid value is ignored, as if no earlier cache had held it. */
    static long ageValue(Headers h) {
        OptionalLong age = CacheControl.deltaSeconds(h.first("Age").map(String::strip).orElse(null));
        return age.orElse(0);
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
