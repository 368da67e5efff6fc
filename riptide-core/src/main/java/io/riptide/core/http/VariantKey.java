package io.riptide.core.http;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * The secondary cache key of a response with Vary (RFC 9111 §4.1): the normalised values of the
 * request fields it names, sorted by field name. {@link #toString()} is stable and unambiguous, so
 * it can be hashed into a GUID.
 *
 * @param entries one entry per varying field, sorted by name
 */
public record VariantKey(List<Entry> entries) {
    /** The key of a response without Vary: every request matches it. */
    public static final VariantKey NONE = new VariantKey(List.of());

    /**
     * One varying request field.
     *
     * @param name the lower-case field name
     * @param value the normalised value, or empty when the request lacks the field (which only
     *     matches another request that lacks it too)
     */
    public record Entry(String name, Optional<String> value) {}

    public VariantKey {
        entries = List.copyOf(entries);
    }

    /**
     * The stable form: {@code name=value} pairs joined by {@code &}, a bare {@code name} for an
     * absent field; {@code %}, {@code &}, {@code =} and non-printable bytes in values are
     * percent-encoded. E.g. {@code accept-encoding=gzip,br&accept-language}.
     */
    @Override
    public String toString() {
        StringBuilder out = new StringBuilder();
        for (Entry e : entries) {
            if (out.length() > 0) {
                out.append('&');
            }
            out.append(e.name());
            e.value().ifPresent(v -> out.append('=').append(escape(v)));
        }
        return out.toString();
    }

    private static String escape(String v) {
        StringBuilder out = new StringBuilder(v.length());
        for (byte b : v.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c == '%' || c == '&' || c == '=' || c <= 0x20 && c != ' ' || c >= 0x7f) {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            } else {
                out.append((char) c);
            }
        }
        return out.toString();
    }
}
