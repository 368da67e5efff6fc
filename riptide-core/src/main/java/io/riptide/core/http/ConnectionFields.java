package io.riptide.core.http;

import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/** The connection-specific fields a cache must not store or copy from a 304 (RFC 9111 §3.1). */
public final class ConnectionFields {
    private static final Set<String> ALWAYS = Set.of("connection", "proxy-connection", "keep-alive", "te",
            "transfer-encoding", "upgrade", "proxy-authenticate", "proxy-authentication-info", "proxy-authorization");

    private ConnectionFields() {}

    /** The lower-case names of the connection-specific fields present in {@code headers}. */
    public static Set<String> in(Headers headers) {
        Set<String> named = new TreeSet<>(ALWAYS);
        // Connection lists further fields that belong to this hop only (RFC 9110 §7.6.1).
        for (String option : headers.elements("Connection")) {
            named.add(option.toLowerCase(Locale.ROOT));
        }
        Set<String> present = new TreeSet<>();
        for (Headers.Field f : headers.fields()) {
            String name = Headers.normalise(f.name());
            if (named.contains(name)) {
                present.add(name);
            }
        }
        return present;
    }
}
