package io.riptide.core.http;

import static io.riptide.core.http.StorabilityTest.headers;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Entity tags, conditional requests, a client's conditions and 304 freshening (RFC 9110 §8.8, §13; RFC 9111 §4.3). */
class ValidatorsTest {
    private static final Instant NOW = Instant.parse("2024-01-01T00:00:00Z");

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', nullValues = "invalid", textBlock = """
            '"xyzzy"'      | false | xyzzy
            'W/"xyzzy"'    | true  | xyzzy
            '""'           | false | ''
            ' "a" '        | false | a
            xyzzy          | false | invalid
            'w/"x"'        | false | invalid
            '"a"b"'        | false | invalid
            '"a'           | false | invalid
            """)
    void parsesEntityTags(String value, boolean weak, String opaque) {
        assertEquals(opaque == null ? Optional.empty() : Optional.of(new EntityTag(weak, opaque)), EntityTag.parse(value));
    }

    /** The comparison table of RFC 9110 §8.8.3.2. */
    @ParameterizedTest(name = "[{index}] {0} vs {1}: strong {2}, weak {3}")
    @CsvSource(delimiter = '|', textBlock = """
            'W/"1"' | 'W/"1"' | false | true
            'W/"1"' | 'W/"2"' | false | false
            'W/"1"' | '"1"'   | false | true
            '"1"'   | '"1"'   | true  | true
            """)
    void comparesEntityTags(String a, String b, boolean strong, boolean weak) {
        EntityTag x = EntityTag.parse(a).orElseThrow();
        EntityTag y = EntityTag.parse(b).orElseThrow();
        assertEquals(strong, x.strongMatch(y));
        assertEquals(weak, x.weakMatch(y));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', nullValues = "none", textBlock = """
            ETag: "v1";; Last-Modified: Wed, 27 Dec 2023 00:00:00 GMT | '"v1"'    | Wed, 27 Dec 2023 00:00:00 GMT
            ETag: W/"v1"                                            | 'W/"v1"'  | none
            Last-Modified: Wed, 27 Dec 2023 00:00:00 GMT            | none      | Wed, 27 Dec 2023 00:00:00 GMT
            ETag: bogus                                             | none      | none
            Content-Type: text/plain                                | none      | none
            """)
    void buildsConditionalRequests(String stored, String ifNoneMatch, String ifModifiedSince) {
        ConditionalRequest c = Validators.conditionalRequest(headers(stored));
        assertEquals(new ConditionalRequest(Optional.ofNullable(ifNoneMatch), Optional.ofNullable(ifModifiedSince)), c);
        Headers sent = c.applyTo(headers("Accept: */*;; If-None-Match: \"client\";; If-Modified-Since: x"));
        assertEquals(Optional.ofNullable(ifNoneMatch), sent.first("If-None-Match"));
        assertEquals(Optional.ofNullable(ifModifiedSince), sent.first("If-Modified-Since"));
        assertEquals(Optional.of("*/*"), sent.first("Accept"));
    }

    @Test
    void conditionalRequestForSeveralVariantsListsEveryTag() {
        ConditionalRequest c = Validators.conditionalRequest(List.of(headers("ETag: \"a\""), headers("ETag: W/\"b\"")));
        assertEquals(Optional.of("\"a\", W/\"b\""), c.ifNoneMatch());
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', textBlock = """
            weak match of a weak tag             | If-None-Match: W/"v1"                    | ETag: "v1"                                       | true
            one of a list                        | If-None-Match: "x", "v1"                 | ETag: "v1"                                       | true
            star                                 | If-None-Match: *                         | ETag: "v1"                                       | true
            different tag                        | If-None-Match: "v2"                      | ETag: "v1"                                       | false
            no stored tag                        | If-None-Match: "v1"                      | Content-Type: text/plain                         | false
            not modified since                   | If-Modified-Since: Wed, 27 Dec 2023 00:00:00 GMT | Last-Modified: Wed, 27 Dec 2023 00:00:00 GMT | true
            modified since                       | If-Modified-Since: Tue, 26 Dec 2023 00:00:00 GMT | Last-Modified: Wed, 27 Dec 2023 00:00:00 GMT | false
            If-None-Match wins over IMS          | If-None-Match: "v2";; If-Modified-Since: Wed, 27 Dec 2023 00:00:00 GMT | ETag: "v1";; Last-Modified: Wed, 27 Dec 2023 00:00:00 GMT | false
            invalid IMS                          | If-Modified-Since: yesterday             | Last-Modified: Wed, 27 Dec 2023 00:00:00 GMT     | false
            unconditional                        | Accept: */*                              | ETag: "v1"                                       | false
            """)
    void evaluatesClientConditions(String rule, String request, String stored, boolean notModified) {
        assertEquals(notModified, Validators.notModified(headers(request), headers(stored), NOW), rule);
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', textBlock = """
            same strong tag                      | ETag: "v1"                                   | ETag: "v1"                                    | true
            strong tag vs stored weak            | ETag: "v1"                                   | ETag: W/"v1"                                  | false
            different strong tag                 | ETag: "v2"                                   | ETag: "v1"                                    | false
            weak tag                             | ETag: W/"v1"                                 | ETag: "v1"                                    | true
            same Last-Modified                   | Last-Modified: Wed, 27 Dec 2023 00:00:00 GMT | Last-Modified: Wed, 27 Dec 2023 00:00:00 GMT  | true
            other Last-Modified                  | Last-Modified: Thu, 28 Dec 2023 00:00:00 GMT | Last-Modified: Wed, 27 Dec 2023 00:00:00 GMT  | false
            same instant in RFC 850 form         | Last-Modified: Wednesday, 27-Dec-23 00:00:00 GMT | Last-Modified: Wed, 27 Dec 2023 00:00:00 GMT | true
            same instant in asctime form         | Last-Modified: Wed Dec 27 00:00:00 2023      | Last-Modified: Wed, 27 Dec 2023 00:00:00 GMT  | true
            same instant, name case differs      | Last-Modified: wed, 27 dec 2023 00:00:00 gmt | Last-Modified: Wed, 27 Dec 2023 00:00:00 GMT  | true
            a second apart in another form       | Last-Modified: Wed Dec 27 00:00:01 2023      | Last-Modified: Wed, 27 Dec 2023 00:00:00 GMT  | false
            Last-Modified, none stored           | Last-Modified: Wed, 27 Dec 2023 00:00:00 GMT | ETag: "v1"                                    | false
            not a date: equal strings only       | Last-Modified: yesterday                     | Last-Modified: yesterday                      | true
            304 without validators               | Date: Mon, 01 Jan 2024 00:00:00 GMT          | ETag: "v1"                                    | true
            """)
    void selectsTheStoredResponseToFreshen(String rule, String notModified, String stored, boolean selects) {
        assertEquals(selects, Validators.selects(headers(notModified), headers(stored), NOW), rule);
    }

    @Test
    void freshenReplacesFieldsExceptFramingAndConnectionFields() {
        Headers stored = headers("Content-Type: text/html;; Content-Length: 1234;; Content-Encoding: gzip;; "
                + "ETag: \"v1\";; Cache-Control: max-age=60;; Date: Mon, 01 Jan 2024 00:00:00 GMT;; X-Keep: yes");
        Headers notModified = headers("Date: Tue, 02 Jan 2024 00:00:00 GMT;; Cache-Control: max-age=600;; "
                + "Content-Length: 0;; Content-Encoding: identity;; Connection: keep-alive, X-Hop;; X-Hop: 1;; "
                + "Keep-Alive: timeout=5;; ETag: \"v1\";; X-New: 1");
        Headers expected = headers("Content-Type: text/html;; Content-Length: 1234;; Content-Encoding: gzip;; "
                + "X-Keep: yes;; Date: Tue, 02 Jan 2024 00:00:00 GMT;; Cache-Control: max-age=600;; ETag: \"v1\";; X-New: 1");
        assertEquals(expected, Validators.freshen(stored, notModified));
    }

    @Test
    void freshenKeepsEveryLineOfARepeatedField() {
        Headers stored = headers("Link: <a>;; Link: <b>;; X-A: 1");
        Headers merged = Validators.freshen(stored, headers("Link: <c>;; Link: <d>"));
        assertEquals(List.of("<c>", "<d>"), merged.all("Link"));
        assertEquals(Optional.of("1"), merged.first("X-A"));
        assertFalse(merged.all("Link").contains("<a>"));
    }
}
