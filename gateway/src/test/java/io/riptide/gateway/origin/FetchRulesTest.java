package io.riptide.gateway.origin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.http.Headers;
import io.riptide.core.testing.ManualClock;
import java.net.URI;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The fetcher's rules with no I/O: header filtering, URL naming, redirect decisions, rate buckets. */
class FetchRulesTest {
    @Test
    void credentialAndOwnedHeadersAreDropped() {
        for (String name : new String[] {"Cookie", "cookie2", "AUTHORIZATION", "Proxy-Authorization", "X-Api-Key",
                "X-Auth-Token", "X-CSRF-Token", "X-Session-Id", "Host", "Connection", "Transfer-Encoding", "Content-Length"}) {
            assertTrue(OutgoingHeaders.dropped(name), name);
        }
        for (String name : new String[] {"Accept", "Accept-Encoding", "Accept-Language", "If-None-Match",
                "If-Modified-Since", "User-Agent", "Cache-Control"}) {
            assertFalse(OutgoingHeaders.dropped(name), name);
        }
    }

    @Test
    void headerValuesThatCouldSmuggleFieldsAreRefused() {
        assertNotNull(OutgoingHeaders.problem(Headers.of("Accept", "x\r\nCookie: y")));
        assertNotNull(OutgoingHeaders.problem(Headers.of("Bad Name", "x")));
        assertNull(OutgoingHeaders.problem(Headers.of("Accept", "text/html;q=0.9, */*")));
    }

    @Test
    void canonicalUrlsDropUserinfoFragmentAndDefaultPort() {
        assertEquals(URI.create("http://example.com/a?b"), Urls.canonical(URI.create("HTTP://u:p@Example.COM:80/a?b#f")));
        assertEquals(URI.create("https://example.com:8443/"), Urls.canonical(URI.create("https://example.com:8443")));
        assertEquals(URI.create("http://[::1]:8080/x"), Urls.canonical(URI.create("http://[::1]:8080/x")));
        assertEquals("example.com:8080", Urls.hostHeader(OriginKey.of(URI.create("http://example.com:8080/"))));
        assertEquals("[::1]", Urls.hostHeader(OriginKey.of(URI.create("http://[::1]/"))));
        assertEquals("/", Urls.target(URI.create("http://example.com")));
    }

    @Test
    void redirectsResolveRelativeLocationsAndRefuseLoopsDowngradesAndExcess() throws Exception {
        URI start = URI.create("https://example.com/a/b");
        Set<URI> visited = new HashSet<>(Set.of(start));
        assertEquals(URI.create("https://example.com/a/c"), Redirects.next(start, "c", visited, 0, 5));
        assertEquals(FetchException.Reason.REDIRECT_LOOP,
                assertThrows(FetchException.class, () -> Redirects.next(start, "/a/b", visited, 1, 5)).reason());
        assertEquals(FetchException.Reason.INSECURE_REDIRECT,
                assertThrows(FetchException.class, () -> Redirects.next(start, "http://example.com/x", visited, 1, 5)).reason());
        assertEquals(FetchException.Reason.TOO_MANY_REDIRECTS,
                assertThrows(FetchException.class, () -> Redirects.next(start, "/z", visited, 5, 5)).reason());
        assertEquals(FetchException.Reason.MALFORMED_RESPONSE,
                assertThrows(FetchException.class, () -> Redirects.next(start, "http://bad host/", visited, 1, 5)).reason());
    }

    @Test
    void tokenBucketRefillsAtItsRateUpToItsBurst() {
        TokenBucket b = new TokenBucket(10, 2, 0);
        assertTrue(b.tryTake(0));
        assertTrue(b.tryTake(0));
        assertFalse(b.tryTake(0));
        assertFalse(b.tryTake(50));
        assertTrue(b.tryTake(100));
        assertTrue(b.full(10_000));
        assertFalse(b.tryTake(-5_000) && b.tryTake(-5_000) && b.tryTake(-5_000), "a clock stepping back mints nothing");
    }

    @Test
    void rateLimitIsPerHostAndForgetsIdleHosts() {
        ManualClock clock = new ManualClock(0);
        HostRateLimiter limiter = new HostRateLimiter(1, 1, 2, clock);
        assertTrue(limiter.tryAcquire("a"));
        assertFalse(limiter.tryAcquire("a"));
        assertTrue(limiter.tryAcquire("b"));
        assertFalse(limiter.tryAcquire("c"), "every tracked host is busy, so a new one is refused");
        clock.advance(1_000);
        assertTrue(limiter.tryAcquire("c"), "full buckets are forgotten to make room");
    }

    @Test
    void configRefusesAnIdleTimeoutShorterThanTheDeadline() {
        OriginFetcherConfig d = OriginFetcherConfig.defaults();
        assertThrows(IllegalArgumentException.class, () -> d.withIdleTimeout(d.deadline().minusSeconds(1)));
        assertEquals(10 * 1024 * 1024, d.maxBodyBytes());
        assertEquals("10 MiB", Failures.bytes(d.maxBodyBytes()));
        assertFalse(d.allowPrivateOrigins(), "public origins only unless asked");
        assertTrue(d.withPrivateOrigins(true).allowPrivateOrigins());
        assertEquals(d, d.withPrivateOrigins(true).withPrivateOrigins(false));
    }
}
