package io.riptide.core.http;

import static io.riptide.core.http.StorabilityTest.headers;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.http.ServeDecision.Action;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Using a stored response: request directives, no-cache, must-revalidate and the RFC 5861 stale windows. */
class ServeRulesTest {
    private static final Instant T = Instant.parse("2024-01-01T00:00:00Z");
    private static final ServeRules RULES = new ServeRules(new Freshness());

    private static CachedResponse stored(String cacheControl) {
        return new CachedResponse(200, Headers.of("Date", HttpDates.format(T), "Cache-Control", cacheControl), T, T);
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', textBlock = """
            fresh                                    | max-age=100                          | ''                                  | 50     | SERVE_FRESH                  | false
            stale                                    | max-age=100                          | ''                                  | 150    | VALIDATE                     | false
            stale-while-revalidate window            | max-age=100, stale-while-revalidate=60 | ''                                | 150    | SERVE_STALE_WHILE_REVALIDATE | false
            stale-while-revalidate edge              | max-age=100, stale-while-revalidate=60 | ''                                | 160    | SERVE_STALE_WHILE_REVALIDATE | false
            after stale-while-revalidate             | max-age=100, stale-while-revalidate=60 | ''                                | 161    | VALIDATE                     | false
            must-revalidate beats swr                | max-age=100, stale-while-revalidate=60, must-revalidate | ''               | 150    | VALIDATE                     | false
            proxy-revalidate beats swr               | max-age=100, stale-while-revalidate=60, proxy-revalidate | ''              | 150    | VALIDATE                     | false
            swr applies with s-maxage (policy)       | s-maxage=100, stale-while-revalidate=60 | ''                                 | 150    | SERVE_STALE_WHILE_REVALIDATE | false
            stale-if-error window                    | max-age=100, stale-if-error=60       | ''                                  | 150    | VALIDATE                     | true
            after stale-if-error                     | max-age=100, stale-if-error=60       | ''                                  | 170    | VALIDATE                     | false
            must-revalidate beats stale-if-error     | max-age=100, stale-if-error=60, must-revalidate | ''                       | 150    | VALIDATE                     | false
            request stale-if-error                   | max-age=100                          | Cache-Control: stale-if-error=60    | 150    | VALIDATE                     | true
            s-maxage blocks request stale-if-error   | s-maxage=100                         | Cache-Control: stale-if-error=60    | 150    | VALIDATE                     | false
            response no-cache                        | max-age=100, no-cache                | ''                                  | 10     | VALIDATE                     | false
            response no-cache beats swr              | max-age=100, no-cache, stale-while-revalidate=60 | ''                      | 150    | VALIDATE                     | false
            request no-cache                         | max-age=100                          | Cache-Control: no-cache             | 10     | VALIDATE                     | false
            request Pragma no-cache                  | max-age=100                          | Pragma: no-cache                    | 10     | VALIDATE                     | false
            request max-age exceeded                 | max-age=100                          | Cache-Control: max-age=30           | 50     | VALIDATE                     | false
            request max-age=0                        | max-age=100                          | Cache-Control: max-age=0            | 1      | VALIDATE                     | false
            request max-age met                      | max-age=100                          | Cache-Control: max-age=60           | 50     | SERVE_FRESH                  | false
            request min-fresh not met                | max-age=100                          | Cache-Control: min-fresh=60         | 50     | VALIDATE                     | false
            request min-fresh met                    | max-age=100                          | Cache-Control: min-fresh=40         | 50     | SERVE_FRESH                  | false
            request max-stale within                 | max-age=100                          | Cache-Control: max-stale=60         | 150    | SERVE_STALE                  | false
            request max-stale exceeded               | max-age=100                          | Cache-Control: max-stale=30         | 150    | VALIDATE                     | false
            request max-stale unlimited              | max-age=100                          | Cache-Control: max-stale            | 100000 | SERVE_STALE                  | false
            must-revalidate beats max-stale          | max-age=100, must-revalidate         | Cache-Control: max-stale            | 150    | VALIDATE                     | false
            s-maxage implies proxy-revalidate        | s-maxage=100                         | Cache-Control: max-stale            | 150    | VALIDATE                     | false
            only-if-cached and fresh                 | max-age=100                          | Cache-Control: only-if-cached       | 50     | SERVE_FRESH                  | false
            only-if-cached and stale                 | max-age=100                          | Cache-Control: only-if-cached       | 150    | GATEWAY_TIMEOUT              | false
            """)
    void decide(String rule, String cacheControl, String request, long ageSeconds, Action action, boolean staleIfError) {
        ServeDecision d = RULES.decide(stored(cacheControl), headers(request), T.plusSeconds(ageSeconds));
        assertEquals(action, d.action(), rule + ": " + d.reason());
        assertEquals(staleIfError, d.staleIfErrorAllowed(), rule + ": stale-if-error");
        assertEquals(Duration.ofSeconds(ageSeconds), d.age());
    }

    @Test
    void staleIfErrorIsCheckedAtTheTimeOfTheError() {
        CachedResponse r = stored("max-age=100, stale-if-error=60");
        assertTrue(RULES.staleIfErrorAllowed(r, Headers.EMPTY, T.plusSeconds(160)));
        assertFalse(RULES.staleIfErrorAllowed(r, Headers.EMPTY, T.plusSeconds(161)));
    }

    @Test
    void reasonsAreReadable() {
        assertEquals("stale by 50 s and the response forbids serving it stale (must-revalidate)",
                RULES.decide(stored("max-age=100, must-revalidate"), Headers.EMPTY, T.plusSeconds(150)).reason());
        assertEquals("fresh: 50 s old of a 100 s lifetime",
                RULES.decide(stored("max-age=100"), Headers.EMPTY, T.plusSeconds(50)).reason());
    }
}
