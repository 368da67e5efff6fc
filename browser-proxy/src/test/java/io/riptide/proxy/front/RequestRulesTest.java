package io.riptide.proxy.front;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import org.junit.jupiter.api.Test;

/** The per-request rules: hop-by-hop stripping, Via, target parsing and the cacheability verdict. */
class RequestRulesTest {
    @Test
    void stripsHopByHopFieldsIncludingThoseConnectionNames() {
        HttpHeaders h = new DefaultHttpHeaders()
                .add("Connection", "keep-alive, X-Hop").add("X-Hop", "1").add("Keep-Alive", "timeout=5")
                .add("Proxy-Connection", "keep-alive").add("Proxy-Authorization", "Basic x").add("TE", "trailers")
                .add("Upgrade", "h2c").add("Expect", "100-continue").add("Content-Length", "3").add("Accept", "*/*");
        HopByHop.stripRequest(h);
        assertEquals(2, h.size(), h.toString());
        assertEquals("3", h.get("Content-Length"));
        assertEquals("*/*", h.get("Accept"));
    }

    @Test
    void appendsViaToAnyExistingValue() {
        HttpHeaders h = new DefaultHttpHeaders().add("Via", "1.0 other");
        HopByHop.addVia(h, HttpVersion.HTTP_1_1, "riptide");
        assertEquals("1.0 other, 1.1 riptide", h.get("Via"));
    }

    @Test
    void parsesAbsoluteFormTargets() {
        Target t = Target.parse("http://example.com:8080/a/b?c=d");
        assertEquals("example.com", t.origin().host());
        assertEquals(8080, t.origin().port());
        assertEquals("/a/b?c=d", t.originForm());
        assertEquals("example.com:8080", t.hostHeader());
        Target bare = Target.parse("http://example.com");
        assertEquals(80, bare.origin().port());
        assertEquals("/", bare.originForm());
        assertEquals("example.com", bare.hostHeader());
        assertThrows(IllegalArgumentException.class, () -> Target.parse("https://example.com/"));
        assertThrows(IllegalArgumentException.class, () -> Target.parse("ftp://example.com/"));
    }

    @Test
    void onlyPublicGetAndHeadAreCacheable() {
        HttpHeaders none = new DefaultHttpHeaders();
        assertTrue(Cacheability.of(HttpMethod.GET, "/", none, true, false).cacheable());
        assertTrue(Cacheability.of(HttpMethod.HEAD, "/", none, true, false).cacheable());
        assertEquals("method", Cacheability.of(HttpMethod.POST, "/", none, true, false).detail());
        assertEquals("credentials",
                Cacheability.of(HttpMethod.GET, "/", new DefaultHttpHeaders().add("Authorization", "x"), true, false).detail());
        HttpHeaders cookie = new DefaultHttpHeaders().add("Cookie", "a=b");
        assertEquals("cookie", Cacheability.of(HttpMethod.GET, "/", cookie, true, false).detail());
        assertTrue(Cacheability.of(HttpMethod.GET, "/", cookie, false, false).cacheable());
        assertFalse(Cacheability.of(HttpMethod.GET, "/", new DefaultHttpHeaders().add("Cache-Control", "max-age=0, no-store"), true, false)
                .cacheable());
    }

    @Test
    void cgiScriptsAreNeverLookedUpAndQueryUrlsOnlyWhenConfigured() {
        HttpHeaders none = new DefaultHttpHeaders();
        for (String script : new String[] {"/cgi-bin/search", "/CGI-BIN/x", "/app/cgi-bin/a.pl", "/counter.cgi", "/Counter.CGI?x=1"}) {
            assertEquals("url-hint", Cacheability.of(HttpMethod.GET, script, none, true, false).detail(), script);
        }
        for (String page : new String[] {"/cgi-binary/a", "/docs/cgi.html", "/cgi", "/a.cgi/readme.txt", "/style.css?v=3", "/a?"}) {
            assertTrue(Cacheability.of(HttpMethod.GET, page, none, true, false).cacheable(), page);
        }
        assertEquals("url-hint", Cacheability.of(HttpMethod.GET, "/style.css?v=3", none, true, true).detail());
        assertTrue(Cacheability.of(HttpMethod.GET, "/a?", none, true, true).cacheable(), "a bare '?' carries no variables");
        assertEquals("method", Cacheability.of(HttpMethod.POST, "/cgi-bin/post", none, true, true).detail(),
                "the method is the first reason");
    }
}
