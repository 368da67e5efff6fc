package io.riptide.core.http;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Parses and formats HTTP-date values (RFC 9110 §5.6.7). */
public final class HttpDates {
    private static final List<String> MONTHS =
            List.of("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec");
    private static final List<String> DAYS = List.of("mon", "tue", "wed", "thu", "fri", "sat", "sun");
    private static final List<String> LONG_DAYS =
            List.of("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday");
    private static final DateTimeFormatter IMF_FIXDATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.ROOT).withZone(ZoneOffset.UTC);

    private HttpDates() {}

    /**
     * The instant an HTTP-date names, in IMF-fixdate, obsolete RFC 850 or asctime form; empty when
     * the value is none of these (callers decide what invalid means: for Expires it means "already
     * expired", RFC 9111 §5.3). {@code reference} is when the value was received: a two-digit RFC
     * 850 year more than 50 years after it is taken from the previous century (RFC 9110 §5.6.7).
     * Names match without regard to case, as RFC 9111 §4.2 asks of caches.
     */
    public static Optional<Instant> parse(String value, Instant reference) {
        if (value == null) {
            return Optional.empty();
        }
        String s = value.strip();
        try {
            int comma = s.indexOf(',');
            if (comma == 3) {
                return imfFixdate(s);
            }
            if (comma > 3) {
                return rfc850(s, reference);
            }
            return asctime(s);
        } catch (DateTimeException | NumberFormatException | IndexOutOfBoundsException e) {
            return Optional.empty();
        }
    }

    /** {@code instant} as an IMF-fixdate, the form every sender generates (RFC 9110 §5.6.7). */
    public static String format(Instant instant) {
        return IMF_FIXDATE.format(instant);
    }

    // "Sun, 06 Nov 1994 08:49:37 GMT"
    private static Optional<Instant> imfFixdate(String s) {
        String[] p = s.split(" ");
        if (p.length != 6 || !DAYS.contains(lower(p[0].substring(0, 3))) || p[1].length() != 2
                || p[3].length() != 4 || !p[5].equalsIgnoreCase("GMT")) {
            return Optional.empty();
        }
        return at(num(p[3]), p[2], num(p[1]), p[4]);
    }

    // "Sunday, 06-Nov-94 08:49:37 GMT"
    private static Optional<Instant> rfc850(String s, Instant reference) {
        String[] p = s.split(" ");
        String[] d = p.length == 4 ? p[1].split("-") : new String[0];
        if (d.length != 3 || !LONG_DAYS.contains(lower(p[0].substring(0, p[0].length() - 1)))
                || d[0].length() != 2 || d[2].length() != 2 || !p[3].equalsIgnoreCase("GMT")) {
            return Optional.empty();
        }
        int refYear = ZonedDateTime.ofInstant(reference, ZoneOffset.UTC).getYear();
        int year = refYear / 100 * 100 + num(d[2]);
        if (year > refYear + 50) {
            year -= 100;
        } else if (year < refYear - 49) {
            year += 100;
        }
        return at(year, d[1], num(d[0]), p[2]);
    }

    // "Sun Nov  6 08:49:37 1994"
    private static Optional<Instant> asctime(String s) {
        String[] p = s.split(" +");
        if (p.length != 5 || !DAYS.contains(lower(p[0])) || p[2].length() > 2 || p[4].length() != 4) {
            return Optional.empty();
        }
        return at(num(p[4]), p[1], num(p[2]), p[3]);
    }

    private static Optional<Instant> at(int year, String month, int day, String time) {
        int m = MONTHS.indexOf(lower(month)) + 1;
        String[] t = time.split(":");
        if (m == 0 || t.length != 3 || t[0].length() != 2 || t[1].length() != 2 || t[2].length() != 2) {
            return Optional.empty();
        }
        // A leap second (":60") names the last second of its minute.
        int second = Math.min(59, num(t[2]));
        return Optional.of(LocalDateTime.of(year, m, day, num(t[0]), num(t[1]), second).toInstant(ZoneOffset.UTC));
    }

    private static int num(String digits) {
        if (digits.isEmpty() || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new NumberFormatException(digits);
        }
        return Integer.parseInt(digits);
    }

    private static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
