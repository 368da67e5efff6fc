package io.riptide.core.http;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * HTTP header fields in the order received: immutable, names compared without regard to case.
 * Shared by the gateway, the proxy and the stored-object format, so every part reads headers the
 * same way and a stored object's headers sign and verify byte for byte.
 */
public final class Headers {
    /** One field line. */
    public record Field(String name, String value) {
        public Field {
            if (name == null || name.isEmpty() || value == null) {
                throw new IllegalArgumentException("a header field needs a name and a value");
            }
        }
    }

    public static final Headers EMPTY = new Headers(List.of());

    private final List<Field> fields;

    private Headers(List<Field> fields) {
        this.fields = fields;
    }

    /** Headers holding {@code fields} in order. */
    public static Headers of(List<Field> fields) {
        return new Headers(List.copyOf(fields));
    }

    /** Headers from name/value pairs: {@code of("Content-Type", "text/html", "ETag", "\"x\"")}. */
    public static Headers of(String... namesAndValues) {
        if (namesAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("names and values must pair up");
        }
        List<Field> out = new ArrayList<>(namesAndValues.length / 2);
        for (int i = 0; i < namesAndValues.length; i += 2) {
            out.add(new Field(namesAndValues[i], namesAndValues[i + 1]));
        }
        return new Headers(List.copyOf(out));
    }

    /** Headers from a map (one value per name, in the map's order). */
    public static Headers of(Map<String, String> map) {
        List<Field> out = new ArrayList<>(map.size());
        map.forEach((k, v) -> out.add(new Field(k, v)));
        return new Headers(List.copyOf(out));
    }

    /** Every field line, in order. */
    public List<Field> fields() {
        return fields;
    }

    /** The first value of {@code name}, if present. */
    public Optional<String> first(String name) {
        for (Field f : fields) {
            if (f.name().equalsIgnoreCase(name)) {
                return Optional.of(f.value());
            }
        }
        return Optional.empty();
    }

    /** Every value of {@code name}, in order. */
    public List<String> all(String name) {
        List<String> out = new ArrayList<>(1);
        for (Field f : fields) {
            if (f.name().equalsIgnoreCase(name)) {
                out.add(f.value());
            }
        }
        return out.isEmpty() ? Collections.emptyList() : out;
    }

    /**
     * The comma-separated list elements of every {@code name} field, trimmed, as one list (for
     * fields such as Cache-Control, Vary and Connection that may repeat or be comma-joined).
     */
    public List<String> elements(String name) {
        List<String> out = new ArrayList<>();
        for (String value : all(name)) {
            for (String part : splitOutsideQuotes(value)) {
                String t = part.strip();
                if (!t.isEmpty()) {
                    out.add(t);
                }
            }
        }
        return out;
    }

    private static List<String> splitOutsideQuotes(String value) {
        List<String> parts = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (c == '\\' && quoted && i + 1 < value.length()) {
                cur.append(c).append(value.charAt(++i));
                continue;
            }
            if (c == ',' && !quoted) {
                parts.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        parts.add(cur.toString());
        return parts;
    }

    public boolean contains(String name) {
        return first(name).isPresent();
    }

    /** A copy without any field called {@code name}. */
    public Headers without(String name) {
        List<Field> out = new ArrayList<>(fields.size());
        for (Field f : fields) {
            if (!f.name().equalsIgnoreCase(name)) {
                out.add(f);
            }
        }
        return new Headers(List.copyOf(out));
    }

    /** A copy with {@code name} set to the single value {@code value} (replacing any others, at the end). */
    public Headers with(String name, String value) {
        List<Field> out = new ArrayList<>(without(name).fields);
        out.add(new Field(name, value));
        return new Headers(List.copyOf(out));
    }

    /** The lower-case form of a field name, for maps keyed by name. */
    public static String normalise(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    public int size() {
        return fields.size();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Headers h && h.fields.equals(fields);
    }

    @Override
    public int hashCode() {
        return fields.hashCode();
    }

    @Override
    public String toString() {
        return fields.toString();
    }
}
