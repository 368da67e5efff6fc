package io.riptide.proxy.front;

import java.util.Optional;

/**
 * The one byte range a request asks of a stored response (RFC 9110 §14.1.2): {@code bytes=a-b},
 * {@code bytes=a-} or {@code bytes=-n}, resolved against the body's length. Several ranges, another
 * unit or a malformed field are answered with the whole response, which a server may always do
 * (§14.2); a range that starts past the end is unsatisfiable (416).
 *
 * @param first the first byte, inclusive
 * @param last  the last byte, inclusive
 */
record ByteRange(long first, long last) {
    /** What a Range field asks of a body of {@code length} bytes. */
    sealed interface Asked permits Whole, Part, Unsatisfiable {
    }

    /** Serve the whole response (no range, or one this proxy answers in full). */
    record Whole() implements Asked {
    }

    /** Serve this part with 206. */
    record Part(ByteRange range) implements Asked {
    }

    /** Answer 416: no byte of the range exists. */
    record Unsatisfiable() implements Asked {
    }

    /** The bytes in the range. */
    long length() {
        return last - first + 1;
    }

    /** {@code Content-Range} for this range of a body of {@code total} bytes. */
    String contentRange(long total) {
        return "bytes " + first + "-" + last + "/" + total;
    }

    static Asked of(String field, long length) {
        if (field == null) {
            return new Whole();
        }
        String v = field.strip();
        if (!v.regionMatches(true, 0, "bytes=", 0, 6) || v.indexOf(',') >= 0) {
            return new Whole();
        }
        String spec = v.substring(6).strip();
        int dash = spec.indexOf('-');
        if (dash < 0) {
            return new Whole();
        }
        Optional<Long> a = number(spec.substring(0, dash).strip());
        Optional<Long> b = number(spec.substring(dash + 1).strip());
        if (spec.substring(0, dash).isBlank()) {
            // A suffix: the last n bytes.
            if (b.isEmpty()) {
                return new Whole();
            }
            if (b.get() == 0) {
                return new Unsatisfiable();
            }
            return length == 0 ? new Unsatisfiable() : new Part(new ByteRange(Math.max(0, length - b.get()), length - 1));
        }
        if (a.isEmpty() || (!spec.substring(dash + 1).isBlank() && b.isEmpty())) {
            return new Whole();
        }
        long first = a.get();
        if (b.isPresent() && b.get() < first) {
            return new Whole(); // invalid: ignored (§14.1.1)
        }
        if (first >= length) {
            return new Unsatisfiable();
        }
        long last = b.isPresent() ? Math.min(b.get(), length - 1) : length - 1;
        return new Part(new ByteRange(first, last));
    }

    private static Optional<Long> number(String s) {
        if (s.isEmpty() || s.length() > 18 || !s.chars().allMatch(Character::isDigit)) {
            return Optional.empty();
        }
        return Optional.of(Long.parseLong(s));
    }
}
