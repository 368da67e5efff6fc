package io.riptide.core.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The RFC 9111 §3 storability table for a shared cache, one rule per row. Headers are written
 * "Name: value" and separated by ";;" so values may hold commas.
 */
class StorabilityTest {
    private static final Storability RULES = new Storability();

    static Headers headers(String spec) {
        if (spec == null || spec.isBlank()) {
            return Headers.EMPTY;
        }
        List<Headers.Field> fields = new ArrayList<>();
        for (String line : spec.split(";;")) {
            int colon = line.indexOf(':');
            fields.add(new Headers.Field(line.substring(0, colon).strip(), line.substring(colon + 1).strip()));
        }
        return Headers.of(fields);
    }

    @ParameterizedTest(name = "[{index}] {0}: {1} {2} {3} {4} -> {5}")
    @CsvSource(delimiter = '|', textBlock = """
            method POST                        | POST | ''                           | 200 | Cache-Control: max-age=60                      | false | request method POST
            method PUT                         | PUT  | ''                           | 200 | Cache-Control: max-age=60                      | false | request method PUT
            method GET                         | GET  | ''                           | 200 | Cache-Control: max-age=60                      | true  | explicit freshness (max-age)
            method HEAD                        | HEAD | ''                           | 200 | Cache-Control: max-age=60                      | true  | explicit freshness (max-age)
            1xx is not final                   | GET  | ''                           | 103 | Cache-Control: max-age=60                      | false | not a final response
            200 heuristic                      | GET  | ''                           | 200 | ''                                             | true  | status 200 is heuristically cacheable
            203 heuristic                      | GET  | ''                           | 203 | ''                                             | true  | heuristically cacheable
            204 heuristic                      | GET  | ''                           | 204 | ''                                             | true  | heuristically cacheable
            300 heuristic                      | GET  | ''                           | 300 | ''                                             | true  | heuristically cacheable
            301 heuristic                      | GET  | ''                           | 301 | ''                                             | true  | heuristically cacheable
            308 heuristic                      | GET  | ''                           | 308 | ''                                             | true  | heuristically cacheable
            404 heuristic                      | GET  | ''                           | 404 | ''                                             | true  | heuristically cacheable
            405 heuristic                      | GET  | ''                           | 405 | ''                                             | true  | heuristically cacheable
            410 heuristic                      | GET  | ''                           | 410 | ''                                             | true  | heuristically cacheable
            414 heuristic                      | GET  | ''                           | 414 | ''                                             | true  | heuristically cacheable
            501 heuristic                      | GET  | ''                           | 501 | ''                                             | true  | heuristically cacheable
            206 never (whole objects only)     | GET  | ''                           | 206 | Cache-Control: max-age=60                      | false | partial content (206)
            304 is not a full response         | GET  | ''                           | 304 | Cache-Control: max-age=60                      | false | 304 Not Modified
            302 without freshness              | GET  | ''                           | 302 | ''                                             | false | status 302 is not heuristically cacheable
            307 without freshness              | GET  | ''                           | 307 | ''                                             | false | not heuristically cacheable
            500 without freshness              | GET  | ''                           | 500 | ''                                             | false | not heuristically cacheable
            503 without freshness              | GET  | ''                           | 503 | ''                                             | false | not heuristically cacheable
            302 with max-age                   | GET  | ''                           | 302 | Cache-Control: max-age=60                      | true  | explicit freshness (max-age)
            302 with s-maxage                  | GET  | ''                           | 302 | Cache-Control: s-maxage=60                     | true  | explicit freshness (s-maxage)
            302 with Expires                   | GET  | ''                           | 302 | Expires: Sun, 06 Nov 1994 08:49:37 GMT         | true  | explicit freshness (Expires)
            302 with invalid Expires           | GET  | ''                           | 302 | Expires: 0                                     | true  | explicit freshness (Expires)
            500 with public                    | GET  | ''                           | 500 | Cache-Control: public                          | true  | explicit freshness (public)
            response no-store                  | GET  | ''                           | 200 | Cache-Control: max-age=60, no-store            | false | response has Cache-Control: no-store
            request no-store                   | GET  | Cache-Control: no-store      | 200 | Cache-Control: max-age=60                      | false | request has Cache-Control: no-store
            must-understand overrides no-store | GET  | ''                           | 200 | Cache-Control: no-store, must-understand, max-age=5 | true | explicit freshness
            must-understand, unknown status    | GET  | ''                           | 299 | Cache-Control: no-store, must-understand, max-age=5 | false | must-understand and status 299
            private                            | GET  | ''                           | 200 | Cache-Control: private, max-age=60             | false | response has Cache-Control: private
            private="field" stores the rest    | GET  | ''                           | 200 | Cache-Control: private="X-User", max-age=60    | true  | explicit freshness
            Authorization alone                | GET  | Authorization: Basic eDp5    | 200 | Cache-Control: max-age=60                      | false | request has Authorization
            Authorization and public           | GET  | Authorization: Basic eDp5    | 200 | Cache-Control: public, max-age=60              | true  | explicit freshness (max-age)
            Authorization and s-maxage         | GET  | Authorization: Basic eDp5    | 200 | Cache-Control: s-maxage=60                     | true  | explicit freshness (s-maxage)
            Authorization and must-revalidate  | GET  | Authorization: Basic eDp5    | 200 | Cache-Control: must-revalidate, max-age=60     | true  | explicit freshness (max-age)
            Authorization and proxy-revalidate | GET  | Authorization: Basic eDp5    | 200 | Cache-Control: proxy-revalidate, max-age=60    | false | request has Authorization
            Set-Cookie refused by default      | GET  | ''                           | 200 | Cache-Control: max-age=60;; Set-Cookie: id=1   | false | response has Set-Cookie
            Vary star                          | GET  | ''                           | 200 | Cache-Control: max-age=60;; Vary: Accept, *    | false | Vary: *
            Vary on a field is fine            | GET  | ''                           | 200 | Cache-Control: max-age=60;; Vary: Accept       | true  | explicit freshness (max-age)
            Vary on the selecting fields       | GET  | ''                           | 200 | Cache-Control: max-age=60;; Vary: accept-encoding, Accept-Language | true | explicit freshness (max-age)
            Vary on an API key                 | GET  | X-Api-Key: user-token        | 200 | Cache-Control: max-age=60;; Vary: Accept-Encoding, X-Api-Key | false | response varies on x-api-key, which this shared cache never forwards
            Vary on User-Agent                 | GET  | ''                           | 200 | Cache-Control: public, max-age=60;; Vary: User-Agent | false | varies on user-agent
            Vary on Cookie                     | GET  | ''                           | 200 | Cache-Control: max-age=60;; Vary: Cookie       | false | varies on cookie
            """)
    void storability(String rule, String method, String request, int status, String response, boolean storable,
            String reasonContains) {
        StorageDecision d = RULES.decide(method, headers(request), status, headers(response));
        assertEquals(storable, d.storable(), rule + ": " + d.reason());
        assertTrue(d.reason().contains(reasonContains), rule + ": reason was \"" + d.reason() + "\"");
    }

    @ParameterizedTest(name = "[{index}] {0} -> strip {1}")
    @CsvSource(delimiter = '|', textBlock = """
            Cache-Control: private="X-User, X-Account", max-age=60             | x-account x-user
            Cache-Control: no-cache="X-Debug", max-age=60;; X-Debug: 1          | x-debug
            Cache-Control: max-age=60;; Connection: close, X-Hop;; X-Hop: 1;; Keep-Alive: 5 | connection keep-alive x-hop
            Cache-Control: max-age=60;; Transfer-Encoding: chunked              | transfer-encoding
            """)
    void fieldsToStrip(String response, String strip) {
        StorageDecision d = RULES.decide("GET", Headers.EMPTY, 200, headers(response));
        assertTrue(d.storable(), d.reason());
        assertEquals(List.of(strip.split(" ")), d.stripFields());
    }

    @Test
    void setCookieStripPolicyStoresWithoutTheCookie() {
        Headers response = headers("Cache-Control: max-age=60;; Set-Cookie: id=1;; Content-Type: text/html");
        StorageDecision d = new Storability(SetCookiePolicy.STRIP).decide("GET", Headers.EMPTY, 200, response);
        assertTrue(d.storable(), d.reason());
        assertEquals(List.of("set-cookie"), d.stripFields());
        assertEquals(headers("Cache-Control: max-age=60;; Content-Type: text/html"), d.strip(response));
    }

    @Test
    void refusalReasonNamesThePolicy() {
        StorageDecision d = RULES.decide("GET", Headers.EMPTY, 200, headers("Set-Cookie: a=b;; Cache-Control: max-age=1"));
        assertEquals("response has Set-Cookie; this shared cache is configured not to store responses that set cookies",
                d.reason());
    }
}
