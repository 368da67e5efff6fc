package io.riptide.core.http;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

/**
 * The Cache-Control directives of one request or response (RFC 9111 §5.2), parsed leniently.
 *
 * <p>Numbers are delta-seconds (RFC 9111 §1.2.2). Where the RFC leaves a choice this parser takes
 * the restrictive one: an invalid or conflicting {@code max-age} / {@code s-maxage} becomes 0, so
 * the response counts as stale (§4.2.1); duplicated request limits keep the strictest value;
 * other invalid arguments make the directive count as absent.
 *
 * @param maxAge max-age in seconds
 * @param sMaxAge s-maxage in seconds (response; shared caches only)
 * @param noStore no-store
 * @param noCache unqualified no-cache (revalidate every time)
 * @param noCacheFields field names of a qualified {@code no-cache="a, b"} (lower case)
 * @param isPrivate unqualified private
 * @param privateFields field names of a qualified {@code private="a, b"} (lower case)
 * @param isPublic public
 * @param mustRevalidate must-revalidate
 * @param proxyRevalidate proxy-revalidate
 * @param mustUnderstand must-understand
 * @param noTransform no-transform
 * @param immutable immutable (RFC 8246)
 * @param staleWhileRevalidate stale-while-revalidate in seconds (RFC 5861 §3)
 * @param staleIfError stale-if-error in seconds (RFC 5861 §4)
 * @param maxStale request max-stale in seconds; {@link #UNLIMITED} when given without a value
 * @param minFresh request min-fresh in seconds
 * @param onlyIfCached request only-if-cached
 */
public record CacheControl(
        OptionalLong maxAge,
        OptionalLong sMaxAge,
        boolean noStore,
        boolean noCache,
        Set<String> noCacheFields,
        boolean isPrivate,
        Set<String> privateFields,
        boolean isPublic,
        boolean mustRevalidate,
        boolean proxyRevalidate,
        boolean mustUnderstand,
        boolean noTransform,
        boolean immutable,
        OptionalLong staleWhileRevalidate,
        OptionalLong staleIfError,
        OptionalLong maxStale,
        OptionalLong minFresh,
        boolean onlyIfCached) {

    /** The value of a {@code max-stale} given without a limit: any staleness is acceptable. */
    public static final long UNLIMITED = Long.MAX_VALUE;

    /** The largest delta-seconds kept; larger values are clamped to it (RFC 9111 §1.2.2). */
    public static final long DELTA_SECONDS_MAX = 2_147_483_648L;

    /** No directives at all. */
    public static final CacheControl NONE = parse(List.of());

    public CacheControl {
        noCacheFields = Collections.unmodifiableSet(new TreeSet<>(noCacheFields));
        privateFields = Collections.unmodifiableSet(new TreeSet<>(privateFields));
    }

    /** The directives of every Cache-Control field of a response. */
    public static CacheControl ofResponse(Headers response) {
        return parse(response.elements("Cache-Control"));
    }

    /**
     * The directives of a request; {@code Pragma: no-cache} counts as {@code no-cache} when the
     * request has no Cache-Control field (RFC 9111 §5.4).
     */
    public static CacheControl ofRequest(Headers request) {
        if (!request.contains("Cache-Control")) {
            for (String p : request.elements("Pragma")) {
                if (p.equalsIgnoreCase("no-cache")) {
                    return parse(List.of("no-cache"));
                }
            }
        }
        return parse(request.elements("Cache-Control"));
    }

    /** The directives of one field value, e.g. {@code "max-age=60, public"}. */
    public static CacheControl parse(String value) {
        return parse(Headers.of("Cache-Control", value).elements("Cache-Control"));
    }

    private static CacheControl parse(List<String> elements) {
        Builder b = new Builder();
        for (String element : elements) {
            int eq = element.indexOf('=');
            String name = (eq < 0 ? element : element.substring(0, eq)).strip().toLowerCase(Locale.ROOT);
            String arg = eq < 0 ? null : unquote(element.substring(eq + 1).strip());
            b.accept(name, arg);
        }
        return b.build();
    }

    /** Directive arguments may be tokens or quoted strings; recipients accept both (RFC 9111 §5.2). */
    private static String unquote(String s) {
        if (s.length() < 2 || s.charAt(0) != '"' || s.charAt(s.length() - 1) != '"') {
            return s;
        }
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 1; i < s.length() - 1; i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length() - 1) {
                c = s.charAt(++i);
            }
            out.append(c);
        }
        return out.toString();
    }

    /** Parses delta-seconds (1*DIGIT), clamping overflow to 2^31 (RFC 9111 §1.2.2); empty if invalid. */
    static OptionalLong deltaSeconds(String s) {
        if (s == null || s.isEmpty()) {
            return OptionalLong.empty();
        }
        long v = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return OptionalLong.empty();
            }
            v = Math.min(DELTA_SECONDS_MAX, v * 10 + (c - '0'));
        }
        return OptionalLong.of(v);
    }

    private static Set<String> fieldNames(String arg) {
        Set<String> out = new TreeSet<>();
        for (String f : arg.split(",")) {
            String t = f.strip().toLowerCase(Locale.ROOT);
            if (!t.isEmpty()) {
                out.add(t);
            }
        }
        return out;
    }

    /** Accumulates directives; knows how each one treats junk and duplicates. */
    private static final class Builder {
        private final List<Long> maxAge = new ArrayList<>();
        private final List<Long> sMaxAge = new ArrayList<>();
        private boolean noStore;
        private boolean noCache;
        private final Set<String> noCacheFields = new TreeSet<>();
        private boolean isPrivate;
        private final Set<String> privateFields = new TreeSet<>();
        private boolean isPublic;
        private boolean mustRevalidate;
        private boolean proxyRevalidate;
        private boolean mustUnderstand;
        private boolean noTransform;
        private boolean immutable;
        private OptionalLong swr = OptionalLong.empty();
        private OptionalLong sie = OptionalLong.empty();
        private OptionalLong maxStale = OptionalLong.empty();
        private OptionalLong minFresh = OptionalLong.empty();
        private boolean onlyIfCached;

        void accept(String name, String arg) {
            switch (name) {
                // Invalid freshness information counts as stale (RFC 9111 §4.2.1), so junk is 0.
                case "max-age" -> maxAge.add(deltaSeconds(arg).orElse(0));
                case "s-maxage" -> sMaxAge.add(deltaSeconds(arg).orElse(0));
                case "no-store" -> noStore = true;
                case "no-cache" -> {
                    if (arg == null || arg.isBlank()) {
                        noCache = true;
                    } else {
                        noCacheFields.addAll(fieldNames(arg));
                    }
                }
                case "private" -> {
                    if (arg == null || arg.isBlank()) {
                        isPrivate = true;
                    } else {
                        privateFields.addAll(fieldNames(arg));
                    }
                }
                case "public" -> isPublic = true;
                case "must-revalidate" -> mustRevalidate = true;
                case "proxy-revalidate" -> proxyRevalidate = true;
                case "must-understand" -> mustUnderstand = true;
                case "no-transform" -> noTransform = true;
                case "immutable" -> immutable = true;
                case "only-if-cached" -> onlyIfCached = true;
                // Permissions to use stale content: the smallest window wins.
                case "stale-while-revalidate" -> swr = min(swr, deltaSeconds(arg));
                case "stale-if-error" -> sie = min(sie, deltaSeconds(arg));
                case "max-stale" -> maxStale = min(maxStale, arg == null ? OptionalLong.of(UNLIMITED) : deltaSeconds(arg));
                // A client's freshness demand: the largest wins.
                case "min-fresh" -> {
                    OptionalLong v = deltaSeconds(arg);
                    if (v.isPresent() && (minFresh.isEmpty() || v.getAsLong() > minFresh.getAsLong())) {
                        minFresh = v;
                    }
                }
                default -> {
                    // Unknown extensions are ignored (RFC 9111 §5.2.3).
                }
            }
        }

        private static OptionalLong min(OptionalLong current, OptionalLong next) {
            if (next.isEmpty()) {
                return current;
            }
            return current.isEmpty() || next.getAsLong() < current.getAsLong() ? next : current;
        }

        /** Conflicting duplicates make the value invalid, hence stale (RFC 9111 §4.2.1). */
        private static OptionalLong single(List<Long> values) {
            if (values.isEmpty()) {
                return OptionalLong.empty();
            }
            long first = values.get(0);
            for (long v : values) {
                if (v != first) {
                    return OptionalLong.of(0);
                }
            }
            return OptionalLong.of(first);
        }

        CacheControl build() {
            return new CacheControl(single(maxAge), single(sMaxAge), noStore, noCache, noCacheFields, isPrivate,
                    privateFields, isPublic, mustRevalidate, proxyRevalidate, mustUnderstand, noTransform, immutable,
                    swr, sie, maxStale, minFresh, onlyIfCached);
        }
    }
}
