package io.riptide.proxy.cache;

/**
 * What the {@code Cache-Status} field says about one response (RFC 9211): a hit, or why the request
 * went forward ({@code fwd}) and what came back ({@code fwd-status}), with an optional
 * {@code detail}. The one place that writes the field's text: the front renders it with the
 * proxy's own name ({@code --via}), so hits and misses always carry the same label.
 *
 * @param hit       whether the cache answered without going forward
 * @param fwd       why the request went forward ({@code miss}, {@code stale}, {@code request},
 *                  {@code bypass}, {@code uri-miss}), or null for a hit
 * @param fwdStatus the status the next hop answered with, or 0 when none is known
 * @param detail    implementation-specific detail ({@code timeout}, {@code invalid-replica}, ...), or null
 */
public record CacheStatus(boolean hit, String fwd, int fwdStatus, String detail) {
    /** Answered from the cache. */
    public static final CacheStatus HIT = new CacheStatus(true, null, 0, null);

    public CacheStatus {
        if (hit == (fwd != null)) {
            throw new IllegalArgumentException("a Cache-Status is a hit or says why it went forward, not both or neither");
        }
    }

    /** Answered from the cache, with {@code detail} ({@code stale}, {@code push}). */
    public static CacheStatus hit(String detail) {
        return new CacheStatus(true, null, 0, detail);
    }

    /** Went forward for {@code fwd}. */
    public static CacheStatus forward(String fwd) {
        return new CacheStatus(false, fwd, 0, null);
    }

    /** Went forward for {@code fwd}, with {@code detail}. */
    public static CacheStatus forward(String fwd, String detail) {
        return new CacheStatus(false, fwd, 0, detail);
    }

    /** This status, the next hop having answered {@code status}. */
    public CacheStatus withFwdStatus(int status) {
        return new CacheStatus(hit, fwd, status, detail);
    }

    /** This status with {@code detail} instead of its own. */
    public CacheStatus withDetail(String newDetail) {
        return new CacheStatus(hit, fwd, fwdStatus, newDetail);
    }

    /** The field value for a cache called {@code name}, e.g. {@code riptide; fwd=stale; fwd-status=304}. */
    public String render(String name) {
        StringBuilder out = new StringBuilder(name);
        if (hit) {
            out.append("; hit");
        } else {
            out.append("; fwd=").append(fwd);
        }
        if (fwdStatus != 0) {
            out.append("; fwd-status=").append(fwdStatus);
        }
        if (detail != null) {
            out.append("; detail=").append(detail);
        }
        return out.toString();
    }

    /** The field's parameters without a cache's name, e.g. {@code hit; detail=memory} (for the access log). */
    public String outcome() {
        return render("").substring(2);
    }

    @Override
    public String toString() {
        return render("riptide");
    }
}
