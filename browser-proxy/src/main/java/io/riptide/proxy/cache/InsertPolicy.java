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
     * cache-on-second-hit rule, for the same reason: one-hit wonders.
     */
    SECOND_SIGHT;

    /** The name options and files use: {@code first-miss}, {@code second-sight}. */
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
        throw new IllegalArgumentException("insert policy must be first-miss or second-sight, not '" + text + "'");
    }
}
