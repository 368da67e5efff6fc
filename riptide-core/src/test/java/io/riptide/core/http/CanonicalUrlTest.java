package io.riptide.core.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Aliases of one URL share one canonical form (RFC 3986 §6, RFC 9110 §4.2.3); what cannot be cached is rejected. */
class CanonicalUrlTest {
    @ParameterizedTest(name = "[{index}] {0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            HTTP://Example.COM:80/a/./b/../c?x=%7e#frag  | http://example.com/a/c?x=~
            http://example.com                           | http://example.com/
            http://example.com?q                         | http://example.com/?q
            https://example.com:443/                     | https://example.com/
            https://example.com:80/                      | https://example.com:80/
            http://example.com:443/                      | http://example.com:443/
            http://example.com:/                         | http://example.com/
            http://example.com:0080/                     | http://example.com/
            http://example.com:8080/x                    | http://example.com:8080/x
            http://user:secret@example.com/private       | http://example.com/private
            http://example.com/a/b/c/./../../g           | http://example.com/a/g
            http://example.com/mid/content=5/../6        | http://example.com/mid/6
            http://example.com/../../a                   | http://example.com/a
            http://example.com/a/b/..                    | http://example.com/a/
            http://example.com/a/.                       | http://example.com/a/
            http://example.com/%2e%2E/a                  | http://example.com/a
            http://example.com/%7Euser/%41%62c           | http://example.com/~user/Abc
            http://example.com/a%2fb%3f                  | http://example.com/a%2Fb%3F
            http://example.com/a%2Fb                     | http://example.com/a%2Fb
            http://example.com/a b/ü?q=ü r               | http://example.com/a%20b/%C3%BC?q=%C3%BC%20r
            http://example.com/100%/x                    | http://example.com/100%25/x
            http://example.com/{x}^`                     | http://example.com/%7Bx%7D%5E%60
            http://example.com/a%7cb                     | http://example.com/a%7Cb
            http://example.com/p?a=1&b=2/?c              | http://example.com/p?a=1&b=2/?c
            http://example.com/p?b=2&a=1                 | http://example.com/p?b=2&a=1
            http://example.com/p?                        | http://example.com/p?
            http://bücher.example/                       | http://xn--bcher-kva.example/
            http://B%C3%BCcher.example/                  | http://xn--bcher-kva.example/
            http://[2001:DB8::1]:8080/                   | http://[2001:db8::1]:8080/
            http://[::1]/                                | http://[::1]/
            http://192.168.0.1:80/                       | http://192.168.0.1/
            '  http://example.com/  '                    | http://example.com/
            http://example.com/a#b?c                     | http://example.com/a
            """)
    void canonicalises(String url, String canonical) {
        assertEquals(canonical, CanonicalUrl.of(url).value());
        assertEquals(canonical, CanonicalUrl.of(canonical).value(), "canonical forms are fixed points");
    }

    @ParameterizedTest(name = "[{index}] {0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            ftp://example.com/                   | only http and https
            mailto:a@example.com                 | only http and https
            /relative/path                       | only http and https
            example.com/a                        | only http and https
            http:example.com                     | no host
            http:///path                         | no host
            http://user@/path                    | no host
            http://example.com:99999/            | invalid port
            http://example.com:8a/               | invalid port
            http://exa mple.com/                 | invalid host
            http://example.com:80:80/            | invalid host
            http://[::1/                         | invalid IP literal
            http://%ZZ.com/                      | malformed percent-escape
            http://%FF.com/                      | not valid UTF-8
            """)
    void rejects(String url, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CanonicalUrl.of(url));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }

    @Test
    void rejectsControlCharacters() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> CanonicalUrl.of("http://example.com/a\r\nX-Injected: 1"));
        assertTrue(e.getMessage().contains("control character"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> CanonicalUrl.of("http://example.com/\u0000"));
        assertThrows(IllegalArgumentException.class, () -> CanonicalUrl.of("http://example.com/\u007f"));
    }

    @Test
    void rejectsOverlongUrls() {
        String base = "http://example.com/";
        String ok = base + "a".repeat(CanonicalUrl.MAX_LENGTH - base.length());
        assertEquals(ok, CanonicalUrl.of(ok).value());
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> CanonicalUrl.of(ok + "a"));
        assertTrue(e.getMessage().contains("longer than 8192"), e.getMessage());
        String expands = base + "\u00fc".repeat(CanonicalUrl.MAX_LENGTH / 4);
        assertThrows(IllegalArgumentException.class, () -> CanonicalUrl.of(expands), "too long once percent-encoded");
    }
}
