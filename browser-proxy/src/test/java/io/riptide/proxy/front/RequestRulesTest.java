package io.riptide.proxy.front;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpVersion;
import io.riptide.core.http.Headers;
import io.riptide.proxy.cache.CacheStatus;
import io.riptide.proxy.cache.Cacheability;
import io.riptide.proxy.cache.ProxyRequest;
import java.net.URI;
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
        Cacheability rules = Cacheability.DEFAULTS;
        assertNull(rules.bypass(request("GET", "/")));
        assertNull(rules.bypass(request("HEAD", "/")));
        assertEquals("method", detail(rules, request("POST", "/")));
        assertEquals("credentials", detail(rules, request("GET", "/", "Authorization", "x")));
        assertEquals("cookie", detail(rules, request("GET", "/", "Cookie", "a=b")));
        assertNull(new Cacheability(false, false).bypass(request("GET", "/", "Cookie", "a=b")));
        assertEquals("no-store", detail(rules, request("GET", "/", "Cache-Control", "max-age=0, no-store")));
        assertEquals("riptide; fwd=bypass; detail=method", rules.bypass(request("PUT", "/")).render("riptide"));
    }

    @Test
    void cgiScriptsAreNeverLookedUpAndQueryUrlsOnlyWhenConfigured() {
        Cacheability rules = Cacheability.DEFAULTS;
        Cacheability queries = new Cacheability(true, true);
        for (String script : new String[] {"/cgi-bin/search", "/CGI-BIN/x", "/app/cgi-bin/a.pl", "/counter.cgi", "/Counter.CGI?x=1"}) {
            assertEquals("url-hint", detail(rules, request("GET", script)), script);
        }
        for (String page : new String[] {"/cgi-binary/a", "/docs/cgi.html", "/cgi", "/a.cgi/readme.txt", "/style.css?v=3", "/a?"}) {
            assertNull(rules.bypass(request("GET", page)), page);
        }
        assertEquals("url-hint", detail(queries, request("GET", "/style.css?v=3")));
        assertNull(queries.bypass(request("GET", "/a?")), "a bare '?' carries no variables");
        assertEquals("method", detail(queries, request("POST", "/cgi-bin/post")), "the method is the first reason");
    }

    private static ProxyRequest request(String method, String target, String... headers) {
        return new ProxyRequest(method, URI.create("http://example.com" + target), Headers.of(headers));
    }

    private static String detail(Cacheability rules, ProxyRequest request) {
        CacheStatus status = rules.bypass(request);
        return status == null ? null : status.detail();
    }
}
