package io.riptide.proxy.cache;

import java.util.Locale;

/**
 * When a miss the proxy fetched from the origin itself asks the provider's gateway to insert the URL
 * into the overlay. The gateway's insert is a second origin fetch (it must fetch what it signs), so
 * asking on every miss doubles the origin's load for every page seen once, which is most of them.
 */
public enum InsertPolicy {
    /**
     * Every storable miss sends a miss hint, and the stub's manager has the gateway insert it: the
     * paper's proxies (§4.3). Used by the paper's experiments.
     */
    FIRST_MISS,
    /**
     * The proxy keeps what it fetched in its private tier and asks for an insert only when it sees the
     * variant again (a private hit, or a second miss within the sight window); its first sighting is a
     * {@code SeenHint}, which the stub's manager turns into an insert when any proxy reports the same
     * variant again. Responses the proxy knows are not storable are never hinted. A CDN's
     * cache-on-second-hit rule, for the same reason: one-hit wonders. The insert is the gateway's own
     * origin fetch, on top of the proxies' (see {@link #SECOND_SIGHT_THROUGH_GATEWAY}).
     */
    SECOND_SIGHT,
    /**
     * As {@link #SECOND_SIGHT}, but the second sighting's insert is the fetch that answers it. On a
     * miss the proxy first asks the stub's cache manager whether the variant was seen there within
     * the sight window ({@code SightingAsk}); a first sighting the proxy fetches itself and keeps; a
     * later one (another proxy's, or this one's after its copy went) is fetched
     * {@linkplain #THROUGH_GATEWAY through the gateway}, whose one origin fetch answers the user and
     * inserts the variant. The proxy's own repeats are private hits and ask for nothing. Without a
     * manager that answers, as {@link #SECOND_SIGHT}.
     */
    SECOND_SIGHT_THROUGH_GATEWAY,
    /**
     * A miss the overlay and the memory tier cannot answer is fetched by the primary provider's nearest
     * gateway for this very request: the proxy asks it to insert the URL (an {@code InsertRequest} it
     * waits for, through its access node), which carries the copy just inserted back to the proxy, so the one origin
     * fetch both answers the user and fills the overlay, and every later request anywhere can hit.
     * Inserting then costs the origin nothing more, which is why it pays at once. The proxy fetches
     * the URL itself (and keeps it privately, as {@link #SECOND_SIGHT} does) only when no gateway
     * answers within {@link #GATEWAY_WAIT}, the gateway could not or would not insert it (an origin
     * error, a response no shared cache may store), or the copy it sent back (or the read of it) failed. A Squid
     * hierarchy's parent does the same job for its children; the price is the detour through the
     * gateway on a miss.
     */
    THROUGH_GATEWAY;

    /**
     * How long a miss waits for the stub's manager to say whether it saw the variant before: it is in
     * the stub, a round trip of milliseconds; past this the proxy fetches the URL itself.
     */
    public static final java.time.Duration MANAGER_WAIT = java.time.Duration.ofMillis(500);

    /** How long a miss waits for the gateway before the proxy fetches it itself. */
    public static final java.time.Duration GATEWAY_WAIT = java.time.Duration.ofSeconds(10);

    /** Whether a miss asks the stub's manager or the gateway before the proxy fetches it itself. */
    public boolean asksBeforeFetching() {
        return this == SECOND_SIGHT_THROUGH_GATEWAY || this == THROUGH_GATEWAY;
    }

    /** The name options and files use: {@code first-miss}, {@code second-sight}, {@code second-sight-through-gateway}, {@code through-gateway}. */
    public String text() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The policy named {@code text}, or an exception that lists the names. */
    public static InsertPolicy parse(String text) {
        for (InsertPolicy p : values()) {
            if (p.text().equals(text.strip().toLowerCase(Locale.ROOT))) {
                return p;
            }
        }
        throw new IllegalArgumentException("insert policy must be first-miss, second-sight, second-sight-through-gateway or "
                + "through-gateway, not '" + text + "'");
    }
}
