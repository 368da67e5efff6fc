package io.riptide.core.http;

import java.util.Optional;

/**
 * An entity tag (RFC 9110 §8.8.3): an opaque quoted string, optionally marked weak with {@code W/}.
 *
 * @param weak whether the tag is weak
 * @param opaque the characters between the quotes
 */
public record EntityTag(boolean weak, String opaque) {
    public EntityTag {
        for (int i = 0; i < opaque.length(); i++) {
            char c = opaque.charAt(i);
            // etagc = %x21 / %x23-7E / obs-text
            if (c == '"' || c < 0x21 || c == 0x7f || c > 0xff) {
                throw new IllegalArgumentException("invalid entity-tag character at " + i);
            }
        }
    }

    /** The tag in {@code value} (e.g. {@code W/"xyz"}), or empty if it is not a valid entity-tag. */
    public static Optional<EntityTag> parse(String value) {
        String s = value.strip();
        boolean weak = s.startsWith("W/");
        String q = weak ? s.substring(2) : s;
        if (q.length() < 2 || q.charAt(0) != '"' || q.charAt(q.length() - 1) != '"') {
            return Optional.empty();
        }
        try {
            return Optional.of(new EntityTag(weak, q.substring(1, q.length() - 1)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** Strong comparison: both strong and identical (RFC 9110 §8.8.3.2). */
    public boolean strongMatch(EntityTag other) {
        return !weak && !other.weak && opaque.equals(other.opaque);
    }

    /** Weak comparison: identical opaque tags, either or both may be weak (RFC 9110 §8.8.3.2). */
    public boolean weakMatch(EntityTag other) {
        return opaque.equals(other.opaque);
    }

    /** The field-value form, e.g. {@code W/"xyz"}. */
    @Override
    public String toString() {
        return (weak ? "W/\"" : "\"") + opaque + "\"";
    }
}
