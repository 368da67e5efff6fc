package io.riptide.core.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The three HTTP-date forms of RFC 9110 §5.6.7, and junk. */
class HttpDatesTest {
    private static final Instant NOW = Instant.parse("2024-06-01T00:00:00Z");

    @ParameterizedTest(name = "[{index}] \"{0}\" -> {1}")
    @CsvSource(delimiter = '|', nullValues = "invalid", textBlock = """
            Sun, 06 Nov 1994 08:49:37 GMT     | 1994-11-06T08:49:37Z
            sun, 06 nov 1994 08:49:37 gmt     | 1994-11-06T08:49:37Z
            Sunday, 06-Nov-94 08:49:37 GMT    | 1994-11-06T08:49:37Z
            Monday, 01-Jan-30 00:00:00 GMT    | 2030-01-01T00:00:00Z
            Thursday, 01-Jan-76 00:00:00 GMT  | 1976-01-01T00:00:00Z
            Sun Nov  6 08:49:37 1994          | 1994-11-06T08:49:37Z
            Sun Nov 16 08:49:37 1994          | 1994-11-16T08:49:37Z
            Wed, 31 Dec 2014 23:59:60 GMT     | 2014-12-31T23:59:59Z
            0                                 | invalid
            -1                                | invalid
            ''                                | invalid
            Sun, 06 Nov 1994 08:49:37 PST     | invalid
            Sun, 31 Feb 1994 08:49:37 GMT     | invalid
            Sun, 06 Foo 1994 08:49:37 GMT     | invalid
            Sun, 06 Nov 1994 25:49:37 GMT     | invalid
            Sun, 6 Nov 1994 08:49:37 GMT      | invalid
            Xyz, 06 Nov 1994 08:49:37 GMT     | invalid
            1994-11-06T08:49:37Z              | invalid
            """)
    void parses(String value, String expected) {
        assertEquals(Optional.ofNullable(expected).map(Instant::parse), HttpDates.parse(value, NOW));
    }

    @Test
    void formatsImfFixdateAndRoundTrips() {
        Instant t = Instant.parse("1994-11-06T08:49:37Z");
        assertEquals("Sun, 06 Nov 1994 08:49:37 GMT", HttpDates.format(t));
        assertEquals(Optional.of(t), HttpDates.parse(HttpDates.format(t), NOW));
    }
}
