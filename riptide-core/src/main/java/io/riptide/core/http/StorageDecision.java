package io.riptide.core.http;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Whether a shared cache may store a response, and why (the reason is shown to users).
 *
 * @param storable whether the response may be stored
 * @param reason a human-readable reason, e.g. "response has Cache-Control: no-store"
 * @param stripFields lower-case names of fields to remove before storing (private="...", no-cache="...",
 *     connection-specific fields, Set-Cookie under {@link SetCookiePolicy#STRIP}); sorted
 */
public record StorageDecision(boolean storable, String reason, List<String> stripFields) {
    public StorageDecision {
        stripFields = List.copyOf(new TreeSet<>(stripFields));
    }

    /** A refusal for {@code reason}. */
    public static StorageDecision refuse(String reason) {
        return new StorageDecision(false, reason, List.of());
    }

    /** Permission to store once {@code stripFields} are removed. */
    public static StorageDecision store(String reason, Set<String> stripFields) {
        return new StorageDecision(true, reason, List.copyOf(stripFields));
    }

    /** {@code response} without the fields this decision strips. */
    public Headers strip(Headers response) {
        Headers out = response;
        for (String f : stripFields) {
            out = out.without(f);
        }
        return out;
    }
}
