package io.riptide.core.http;

import static io.riptide.core.http.StorabilityTest.headers;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Vary: secondary keys and variant matching (RFC 9111 §4.1). */
class VariantsTest {
    @ParameterizedTest(name = "[{index}] Vary {0} + {1} -> {2}")
    @CsvSource(delimiter = '|', nullValues = "never", textBlock = """
            ''                                   | Accept-Encoding: gzip                          | ''
            Accept-Encoding                      | Accept-Encoding: gzip                          | accept-encoding=gzip
            accept-encoding                      | ACCEPT-ENCODING: GZip                          | accept-encoding=gzip
            Accept-Encoding                      | Accept-Encoding: gzip ,   br                   | accept-encoding=gzip,br
            Accept-Encoding                      | Accept-Encoding: gzip;; Accept-Encoding: br    | accept-encoding=gzip,br
            Accept-Encoding                      | Accept: */*                                    | accept-encoding
            Accept-Encoding                      | Accept-Encoding:                               | accept-encoding=
            Accept-Language, Accept-Encoding     | Accept-Encoding: br;; Accept-Language: en-GB   | accept-encoding=br&accept-language=en-gb
            Accept-Encoding;; Vary: Accept-Encoding | Accept-Encoding: br                         | accept-encoding=br
            Accept                               | Accept: text/html; q=0.9,  */*                 | accept=text/html;q%3D0.9,*/*
            X-Token                              | X-Token: a&b=c%d                               | x-token=a%26b%3Dc%25d
            Accept, *                            | Accept: */*                                    | never
            """)
    void keys(String vary, String request, String key) {
        Headers response = vary.isEmpty() ? Headers.EMPTY : headers("Vary: " + vary);
        assertEquals(Optional.ofNullable(key), Variants.key(response, headers(request)).map(VariantKey::toString));
    }

    @ParameterizedTest(name = "[{index}] stored with {0}, new request {1} -> {2}")
    @CsvSource(delimiter = '|', textBlock = """
            Accept-Encoding: gzip              | Accept-Encoding: gzip                | true
            Accept-Encoding: gzip, br          | Accept-Encoding: gzip,br             | true
            Accept-Encoding: gzip              | Accept-Encoding: br                  | false
            Accept-Encoding: gzip              | Accept: */*                          | false
            Accept: */*                        | Accept: */*                          | true
            Accept-Encoding:                   | Accept: */*                          | false
            Accept-Encoding: br, gzip          | Accept-Encoding: gzip, br            | false
            """)
    void matches(String storedRequest, String newRequest, boolean matches) {
        Headers response = headers("Vary: Accept-Encoding");
        VariantKey stored = Variants.key(response, headers(storedRequest)).orElseThrow();
        assertEquals(matches, Variants.matches(response, stored, headers(newRequest)));
    }

    @Test
    void varyStarNeverMatches() {
        Headers response = headers("Vary: *");
        assertFalse(Variants.matches(response, VariantKey.NONE, Headers.EMPTY));
    }

    @Test
    void noVaryMatchesEverything() {
        assertTrue(Variants.matches(Headers.EMPTY, VariantKey.NONE, headers("Accept: x")));
        assertEquals(List.of("accept", "accept-encoding"), Variants.varyFields(headers("Vary: Accept-Encoding, ACCEPT;; Vary: accept")));
    }

    @Test
    void aRecordsFieldNamesGiveTheSameKeyAsTheResponsesVary() {
        Headers request = Headers.of("Accept-Encoding", "GZip, br", "Accept-Language", "en");
        Headers response = Headers.of("Vary", "Accept-Language, Accept-Encoding");
        assertEquals(Variants.key(response, request), Variants.key(List.of("accept-encoding", "accept-language"), request));
        assertEquals(Variants.key(response, request), Variants.key(List.of("Accept-Language", "Accept-Encoding"), request));
    }

    @Test
    void selectingFieldsAreOnlyTheAllowListNormalisedWhateverVaryNames() {
        Headers request = Headers.of("accept", "Text/CSS", "Accept-Encoding", "gzip,   BR", "Accept-Language", " fr ",
                "User-Agent", "test", "X-Api-Key", "user-token", "Cookie", "session=secret", "Authorization", "Bearer x");
        assertEquals(Headers.of("Accept-Encoding", "gzip, br"),
                Variants.selectingFields(request, Optional.of(List.of("accept-encoding"))));
        assertEquals(Headers.EMPTY, Variants.selectingFields(request,
                Optional.of(List.of("User-Agent", "X-Api-Key", "Cookie", "Authorization"))),
                "no field outside the allow-list leaves, even when varied on");
        assertEquals(Headers.of("Accept-Language", "fr"),
                Variants.selectingFields(request, Optional.of(List.of("X-Api-Key", "Accept-Language"))));
        assertEquals(Headers.of("Accept", "text/css", "Accept-Encoding", "gzip, br", "Accept-Language", "fr"),
                Variants.selectingFields(request, Optional.empty()), "Vary unknown: the allow-list");
        assertEquals(Headers.EMPTY, Variants.selectingFields(request, Optional.of(List.of())), "no Vary: nothing selects");
        Headers huge = Headers.of("Accept-Language", "en;q=0.9, ".repeat(40) + "fr", "Accept", "text/html");
        assertEquals(Headers.of("Accept", "text/html"), Variants.selectingFields(huge, Optional.empty()),
                "a value longer than " + Variants.MAX_SELECTING_VALUE + " characters is not passed on");
        // The normalised fields select the same variant as the browser's own.
        List<String> vary = List.of("accept", "accept-encoding", "accept-language");
        assertEquals(Variants.key(vary, request), Variants.key(vary, Variants.selectingFields(request, Optional.empty())));
    }

    @Test
    void unforwardedAreTheVaryFieldsOutsideTheAllowList() {
        assertEquals(List.of(), Variants.unforwarded(List.of("accept-encoding", "Accept-Language", "accept")));
        assertEquals(List.of("user-agent", "x-api-key"), Variants.unforwarded(List.of("X-Api-Key", "accept", "User-Agent")));
    }
}
