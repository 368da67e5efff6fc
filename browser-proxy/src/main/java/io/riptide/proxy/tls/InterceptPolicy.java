package io.riptide.proxy.tls;

import io.netty.util.NetUtil;
import java.net.IDN;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which CONNECT targets the proxy intercepts ({@code --intercept}): none (the default: every tunnel
 * is a blind byte relay), all of them, or the hosts listed, each an exact name ({@code example.org}),
 * every name under a domain ({@code *.example.org}, not {@code example.org} itself, as a wildcard
 * certificate reads), or an IP literal. Names are compared case-insensitively and without a trailing
 * dot; internationalised names as their ASCII (punycode) form, as browsers send them.
 *
 * @param all      every host is intercepted
 * @param exact    exact host names and IP literals, in their canonical form
 * @param suffixes domains whose every subdomain is intercepted, each with its leading dot
 */
public record InterceptPolicy(boolean all, Set<String> exact, Set<String> suffixes) {
    /** Intercepts nothing. */
    public static final InterceptPolicy NONE = new InterceptPolicy(false, Set.of(), Set.of());
    /** The word that intercepts every host. */
    public static final String ALL = "all";

    public InterceptPolicy {
        exact = Set.copyOf(exact);
        suffixes = Set.copyOf(suffixes);
    }

    /**
     * Parses the option's values: each a comma-separated list, together {@code all} alone or host
     * patterns; an empty list intercepts nothing.
     *
     * @throws IllegalArgumentException naming the bad entry and what would be accepted
     */
    public static InterceptPolicy parse(List<String> values) {
        List<String> entries = new ArrayList<>();
        for (String v : values) {
            for (String e : v.split(",", -1)) {
                String t = e.strip();
                if (t.isEmpty()) {
                    throw new IllegalArgumentException("an empty host in '" + v + "': give host names separated by commas, or "
                            + ALL);
                }
                entries.add(t);
            }
        }
        if (entries.isEmpty()) {
            return NONE;
        }
        if (entries.stream().anyMatch(e -> e.equalsIgnoreCase(ALL))) {
            if (entries.size() > 1) {
                throw new IllegalArgumentException("'" + ALL + "' intercepts every host and cannot be combined with a list, got "
                        + String.join(",", entries));
            }
            return new InterceptPolicy(true, Set.of(), Set.of());
        }
        Set<String> exact = new LinkedHashSet<>();
        Set<String> suffixes = new LinkedHashSet<>();
        for (String e : entries) {
            if (e.startsWith("*.")) {
                suffixes.add("." + hostName(e.substring(2), e));
            } else if (e.contains("*")) {
                throw new IllegalArgumentException("'" + e + "': a wildcard is only allowed as a whole first label, as in *.example.org");
            } else {
                exact.add(canonical(e));
            }
        }
        return new InterceptPolicy(false, exact, suffixes);
    }

    /** Whether a CONNECT to {@code host} (a name or IP literal, IPv6 with or without brackets) is intercepted. */
    public boolean intercepts(String host) {
        if (all) {
            return true;
        }
        if (exact.isEmpty() && suffixes.isEmpty()) {
            return false;
        }
        String h;
        try {
            h = canonical(host);
        } catch (IllegalArgumentException e) {
            return false;
        }
        if (exact.contains(h)) {
            return true;
        }
        for (String s : suffixes) {
            if (h.endsWith(s)) {
                return true;
            }
        }
        return false;
    }

    /** Whether anything at all is intercepted. */
    public boolean any() {
        return all || !exact.isEmpty() || !suffixes.isEmpty();
    }

    /** As the option would be written: {@code all}, or the list. */
    @Override
    public String toString() {
        if (all) {
            return ALL;
        }
        List<String> parts = new ArrayList<>(exact);
        suffixes.forEach(s -> parts.add("*" + s));
        return parts.isEmpty() ? "none" : String.join(",", parts);
    }

    private static String canonical(String host) {
        String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if (NetUtil.isValidIpV4Address(h)) {
            return h;
        }
        if (NetUtil.isValidIpV6Address(h)) {
            // One spelling per address: ::1 and 0:0:0:0:0:0:0:1 are the same host.
            return NetUtil.toAddressString(NetUtil.createInetAddressFromIpAddressString(h));
        }
        return hostName(h, host);
    }

    private static String hostName(String name, String given) {
        String n = name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
        String ascii;
        try {
            ascii = IDN.toASCII(n, IDN.USE_STD3_ASCII_RULES).toLowerCase(Locale.ROOT);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + given + "' is not a host name, *.domain or IP address");
        }
        if (ascii.isEmpty() || ascii.contains(":") || ascii.contains("/")) {
            throw new IllegalArgumentException("'" + given + "' is not a host name, *.domain or IP address");
        }
        return ascii;
    }
}
