package io.riptide.core.http;

import static io.riptide.core.http.StorabilityTest.headers;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Freshness lifetime in order of precedence (RFC 9111 §4.2.1, §4.2.2) and current age (§4.2.3). */
class FreshnessTest {
    /** Mon, 01 Jan 2024 00:00:00 GMT: when every response in the lifetime table arrived. */
    private static final Instant T = Instant.parse("2024-01-01T00:00:00Z");

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', textBlock = """
            s-maxage beats max-age and Expires | 200 | Cache-Control: s-maxage=100, max-age=50;; Date: Mon, 01 Jan 2024 00:00:00 GMT;; Expires: Mon, 01 Jan 2024 01:00:00 GMT | 100   | S_MAXAGE
            max-age beats Expires              | 200 | Cache-Control: max-age=50;; Date: Mon, 01 Jan 2024 00:00:00 GMT;; Expires: Mon, 01 Jan 2024 01:00:00 GMT              | 50    | MAX_AGE
            invalid max-age is stale           | 200 | Cache-Control: max-age=soon;; Expires: Mon, 01 Jan 2024 01:00:00 GMT                                                | 0     | MAX_AGE
            Expires minus Date                 | 200 | Date: Mon, 01 Jan 2024 00:00:00 GMT;; Expires: Mon, 01 Jan 2024 01:00:00 GMT                                        | 3600  | EXPIRES
            Expires minus an earlier Date      | 200 | Date: Sun, 31 Dec 2023 23:50:00 GMT;; Expires: Mon, 01 Jan 2024 01:00:00 GMT                                        | 4200  | EXPIRES
            Expires without Date               | 200 | Expires: Mon, 01 Jan 2024 01:00:00 GMT                                                                              | 3600  | EXPIRES
            Expires in the RFC 850 form        | 200 | Expires: Monday, 01-Jan-24 01:00:00 GMT                                                                             | 3600  | EXPIRES
            Expires before Date                | 200 | Date: Mon, 01 Jan 2024 00:00:00 GMT;; Expires: Sun, 31 Dec 2023 00:00:00 GMT                                        | 0     | EXPIRES
            invalid Expires is expired         | 200 | Expires: 0;; Last-Modified: Wed, 27 Dec 2023 00:00:00 GMT                                                          | 0     | EXPIRES
            conflicting Expires are expired    | 200 | Expires: Mon, 01 Jan 2024 01:00:00 GMT;; Expires: Mon, 01 Jan 2024 02:00:00 GMT                                    | 0     | EXPIRES
            heuristic 10% of 5 days            | 200 | Date: Mon, 01 Jan 2024 00:00:00 GMT;; Last-Modified: Wed, 27 Dec 2023 00:00:00 GMT                                  | 43200 | HEURISTIC
            heuristic capped at 24 h           | 200 | Date: Mon, 01 Jan 2024 00:00:00 GMT;; Last-Modified: Sat, 23 Sep 2023 00:00:00 GMT                                  | 86400 | HEURISTIC
            heuristic for 404                  | 404 | Last-Modified: Wed, 27 Dec 2023 00:00:00 GMT                                                                        | 43200 | HEURISTIC
            heuristic for 302 with public      | 302 | Cache-Control: public;; Last-Modified: Wed, 27 Dec 2023 00:00:00 GMT                                               | 43200 | HEURISTIC
            Last-Modified after Date           | 200 | Date: Mon, 01 Jan 2024 00:00:00 GMT;; Last-Modified: Tue, 02 Jan 2024 00:00:00 GMT                                  | 0     | HEURISTIC
            no heuristic for 302               | 302 | Last-Modified: Wed, 27 Dec 2023 00:00:00 GMT                                                                        | 0     | NONE
            no heuristic for 307               | 307 | Last-Modified: Wed, 27 Dec 2023 00:00:00 GMT                                                                        | 0     | NONE
            no heuristic for 500               | 500 | Last-Modified: Wed, 27 Dec 2023 00:00:00 GMT                                                                        | 0     | NONE
            no Last-Modified, no heuristic     | 200 | Date: Mon, 01 Jan 2024 00:00:00 GMT                                                                                 | 0     | NONE
            """)
    void lifetime(String rule, int status, String response, long seconds, Lifetime.Source source) {
        Lifetime l = new Freshness().lifetime(new CachedResponse(status, headers(response), T, T));
        assertEquals(new Lifetime(Duration.ofSeconds(seconds), source), l, rule);
    }

    @ParameterizedTest(name = "[{index}] cap {0} s -> {1} s")
    @CsvSource({"3600, 3600", "100000, 43200", "0, 0"})
    void heuristicCapIsConfigurable(long capSeconds, long expected) {
        CachedResponse r = new CachedResponse(200, headers("Last-Modified: Wed, 27 Dec 2023 00:00:00 GMT"), T, T);
        assertEquals(Duration.ofSeconds(expected), new Freshness(Duration.ofSeconds(capSeconds)).lifetime(r).duration());
    }

    /**
     * Current age (§4.2.3). Times are seconds after T: the request was sent at 0 and the response
     * arrived at {@code received}; {@code date} is the Date header.
     */
    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', nullValues = "none", textBlock = """
            Age corrected by the round trip       | 1   | 10            | 2 | 100 | 110
            apparent age wins (skewed Date)       | -60 | none          | 2 | 2   | 62
            Date ahead of us: apparent age is 0   | 30  | none          | 2 | 12  | 12
            Age larger than apparent age          | 0   | 500           | 0 | 0   | 500
            invalid Age is ignored                | 0   | soon          | 1 | 11  | 11
            negative Age is ignored               | 0   | -5            | 1 | 11  | 11
            overflowing Age is clamped            | 0   | 9999999999999 | 0 | 0   | 2147483648
            """)
    void currentAge(String rule, long date, String age, long received, long now, long expected) {
        Headers h = Headers.of("Date", HttpDates.format(T.plusSeconds(date)));
        if (age != null) {
            h = h.with("Age", age);
        }
        CachedResponse r = new CachedResponse(200, h, T, T.plusSeconds(received));
        assertEquals(Duration.ofSeconds(expected), new Freshness().currentAge(r, T.plusSeconds(now)), rule);
    }

    @Test
    void freshUntilTheLifetimeIsUsedUpThenStale() {
        Freshness f = new Freshness();
        CachedResponse r = new CachedResponse(200,
                headers("Cache-Control: max-age=60;; Age: 10;; Date: Mon, 01 Jan 2024 00:00:00 GMT"), T, T);
        assertTrue(f.isFresh(r, T.plusSeconds(49)));
        assertEquals(Duration.ZERO, f.staleness(r, T.plusSeconds(49)));
        assertFalse(f.isFresh(r, T.plusSeconds(50)), "age 60 of lifetime 60 is no longer fresh");
        assertEquals(Duration.ofSeconds(25), f.staleness(r, T.plusSeconds(75)));
    }
}
