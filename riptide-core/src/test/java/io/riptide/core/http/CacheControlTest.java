package io.riptide.core.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Cache-Control parsing: each directive, junk, duplicates, quoting and case. */
class CacheControlTest {
    private static OptionalLong opt(String s) {
        return s == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(s));
    }

    @ParameterizedTest(name = "[{index}] max-age of \"{0}\" is {1}")
    @CsvSource(delimiter = '|', nullValues = "none", textBlock = """
            max-age=60                  | 60
            MAX-AGE=60                  | 60
            max-age="60"                | 60
            max-age = 60                | 60
            max-age=-1                  | 0
            max-age=abc                 | 0
            max-age                     | 0
            max-age=1.5                 | 0
            max-age=99999999999999999999| 2147483648
            max-age=60, max-age=60      | 60
            max-age=60, max-age=10      | 0
            public                      | none
            """)
    void maxAge(String value, String expected) {
        assertEquals(opt(expected), CacheControl.parse(value).maxAge());
    }

    @ParameterizedTest(name = "[{index}] s-maxage of \"{0}\" is {1}")
    @CsvSource(delimiter = '|', nullValues = "none", textBlock = """
            s-maxage=30                 | 30
            s-maxage=x                  | 0
            s-maxage=30, s-maxage=40    | 0
            max-age=30                  | none
            """)
    void sMaxAge(String value, String expected) {
        assertEquals(opt(expected), CacheControl.parse(value).sMaxAge());
    }

    @ParameterizedTest(name = "[{index}] \"{0}\"")
    @CsvSource(delimiter = '|', textBlock = """
            no-store          | no-store
            NO-STORE          | no-store
            no-cache          | no-cache
            private           | private
            public            | public
            must-revalidate   | must-revalidate
            proxy-revalidate  | proxy-revalidate
            must-understand   | must-understand
            no-transform      | no-transform
            immutable         | immutable
            only-if-cached    | only-if-cached
            """)
    void flags(String value, String directive) {
        CacheControl cc = CacheControl.parse("x-junk, " + value + ", =5, ,");
        assertEquals(directive.equals("no-store"), cc.noStore());
        assertEquals(directive.equals("no-cache"), cc.noCache());
        assertEquals(directive.equals("private"), cc.isPrivate());
        assertEquals(directive.equals("public"), cc.isPublic());
        assertEquals(directive.equals("must-revalidate"), cc.mustRevalidate());
        assertEquals(directive.equals("proxy-revalidate"), cc.proxyRevalidate());
        assertEquals(directive.equals("must-understand"), cc.mustUnderstand());
        assertEquals(directive.equals("no-transform"), cc.noTransform());
        assertEquals(directive.equals("immutable"), cc.immutable());
        assertEquals(directive.equals("only-if-cached"), cc.onlyIfCached());
    }

    @ParameterizedTest(name = "[{index}] \"{0}\"")
    @CsvSource(delimiter = '|', textBlock = """
            'private="Set-Cookie, X-User"'         | false | set-cookie x-user | false |
            private=set-cookie                     | false | set-cookie        | false |
            'private, private="x"'                 | true  | x                 | false |
            'no-cache="Set-Cookie"'                | false |                   | false | set-cookie
            'no-cache, no-cache="a,b"'             | false |                   | true  | a b
            """)
    void qualifiedFieldLists(String value, boolean isPrivate, String privateFields, boolean noCache, String noCacheFields) {
        CacheControl cc = CacheControl.parse(value);
        assertEquals(isPrivate, cc.isPrivate());
        assertEquals(set(privateFields), cc.privateFields());
        assertEquals(noCache, cc.noCache());
        assertEquals(set(noCacheFields), cc.noCacheFields());
    }

    private static Set<String> set(String spaced) {
        return spaced == null ? Set.of() : Set.of(spaced.split(" "));
    }

    @ParameterizedTest(name = "[{index}] \"{0}\"")
    @CsvSource(delimiter = '|', nullValues = "none", textBlock = """
            stale-while-revalidate=30                           | 30   | none | none | none
            stale-while-revalidate=30, stale-while-revalidate=5 | 5    | none | none | none
            stale-while-revalidate=x                            | none | none | none | none
            stale-if-error=600                                  | none | 600  | none | none
            max-stale                                           | none | none | 9223372036854775807 | none
            max-stale=10                                        | none | none | 10   | none
            max-stale, max-stale=10                             | none | none | 10   | none
            max-stale=junk                                      | none | none | none | none
            min-fresh=20                                        | none | none | none | 20
            min-fresh=20, min-fresh=50                          | none | none | none | 50
            min-fresh=-3                                        | none | none | none | none
            """)
    void staleAndRequestLimits(String value, String swr, String sie, String maxStale, String minFresh) {
        CacheControl cc = CacheControl.parse(value);
        assertEquals(opt(swr), cc.staleWhileRevalidate());
        assertEquals(opt(sie), cc.staleIfError());
        assertEquals(opt(maxStale), cc.maxStale());
        assertEquals(opt(minFresh), cc.minFresh());
    }

    @ParameterizedTest(name = "[{index}] Cache-Control {0}, Pragma {1} -> no-cache {2}")
    @CsvSource(delimiter = '|', nullValues = "none", textBlock = """
            none       | no-cache | true
            none       | NO-CACHE | true
            none       | other    | false
            max-age=5  | no-cache | false
            no-cache   | none     | true
            """)
    void pragmaOnlyWithoutCacheControl(String cacheControl, String pragma, boolean noCache) {
        Headers h = Headers.EMPTY;
        if (cacheControl != null) {
            h = h.with("Cache-Control", cacheControl);
        }
        if (pragma != null) {
            h = h.with("Pragma", pragma);
        }
        assertEquals(noCache, CacheControl.ofRequest(h).noCache());
        assertFalse(CacheControl.ofResponse(Headers.of("Pragma", "no-cache")).noCache(), "Pragma is request-only");
    }

    @org.junit.jupiter.api.Test
    void severalFieldLinesCombine() {
        CacheControl cc = CacheControl.ofResponse(Headers.of("Cache-Control", "public", "cache-control", "max-age=9"));
        assertTrue(cc.isPublic());
        assertEquals(OptionalLong.of(9), cc.maxAge());
    }
}
