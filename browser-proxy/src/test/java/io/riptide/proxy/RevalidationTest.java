package io.riptide.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.riptide.core.hint.HintMessages.StaleHint;
import io.riptide.core.http.CanonicalUrl;
import io.riptide.core.http.Headers;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.testing.Await;
import io.riptide.core.testing.ManualClock;
import io.riptide.proxy.cache.OverlayCacheConfig;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import io.riptide.core.http.HttpDates;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.TextStyle;
import java.util.Locale;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A verified overlay copy that needs validating is revalidated with a conditional request: what the
 * browser gets after the origin's 304, 200 or 503, and what the origin is asked. One real overlay node
 * holds the signed copies and offers the cache-manager service (recording the stale hints); the
 * proxy's clock is moved by hand to make a copy stale.
 */
@Timeout(60)
class RevalidationTest {
    private static final String COPY = "from the overlay";

    private static final ManualClock CLOCK = new ManualClock();
    /** The If-None-Match each path's requests carried at the origin ("-" for none). */
    private static final Map<String, List<String>> ASKED = new ConcurrentHashMap<>();
    @SuppressWarnings("unchecked")
    private static final RecordingManager<StaleHint>[] MANAGER = new RecordingManager[1];
    private static TestOrigin origin;
    private static OneNodeOverlay overlay;
    private static RiptideProxy proxy;
    private static HttpClient client;

    @BeforeAll
    static void start() throws Exception {
        origin = new TestOrigin()
                .route("/article", validating("\"v1\"", "new at the origin"))
                .route("/changed", validating("\"v2\"", "changed at the origin"))
                .route("/fresh", validating("\"v1\"", "new at the origin"))
                .route("/own-tag", validating("\"v1\"", "new at the origin"))
                .route("/far-clock", validating("\"v1\"", "new at the origin"))
                .route("/other-backend", otherBackend("Thu, 28 Dec 2023 00:00:00 GMT"))
                .route("/browser-current", otherBackend("Thu, 28 Dec 2023 00:00:00 GMT"))
                .route("/date-spelling", x -> {
                    asked(x);
                    if (x.getRequestHeaders().containsKey("If-Modified-Since")) {
                        // The copy's Last-Modified instant, spelled in the obsolete RFC 850 form.
                        x.getResponseHeaders().set("Last-Modified", "Wednesday, 27-Dec-23 00:00:00 GMT");
                        x.sendResponseHeaders(304, -1);
                    } else {
                        TestOrigin.send(x, 200, "new at the origin");
                    }
                })
                .route("/down", x -> {
                    asked(x);
                    TestOrigin.send(x, 503, "origin down");
                })
                .route("/down-strict", x -> {
                    asked(x);
                    TestOrigin.send(x, 503, "origin down");
                });
        overlay = new OneNodeOverlay((n, provider) -> MANAGER[0] = new RecordingManager<>(n, ObjectNames.cacheManagerGuid(provider), StaleHint.class));
        proxy = overlay.proxy(OverlayCacheConfig.defaults(), CLOCK);
        client = HttpClient.newBuilder().proxy(ProxySelector.of(proxy.server().address())).build();
    }

    @AfterAll
    static void stop() {
        proxy.close();
        overlay.close();
        origin.close();
    }

    /** An origin whose current version has entity tag {@code etag}: 304 to a request that names it, else 200 with {@code body}. */
    private static HttpHandler validating(String etag, String body) {
        return x -> {
            String inm = asked(x);
            x.getResponseHeaders().set("ETag", etag);
            x.getResponseHeaders().set("Cache-Control", "max-age=120");
            if (inm != null && List.of(inm.split(",\\s*")).contains(etag)) {
                x.sendResponseHeaders(304, -1);
            } else {
                TestOrigin.send(x, 200, body);
            }
        };
    }

    /**
     * A load-balanced origin whose backends disagree: any conditional request gets a 304 with a strong
     * entity tag "v1" and Last-Modified {@code lastModified}; an unconditional one gets 200 "current".
     */
    private static HttpHandler otherBackend(String lastModified) {
        return x -> {
            asked(x);
            x.getResponseHeaders().set("Cache-Control", "max-age=120");
            if (x.getRequestHeaders().containsKey("If-None-Match") || x.getRequestHeaders().containsKey("If-Modified-Since")) {
                x.getResponseHeaders().set("ETag", "\"v1\"");
                x.getResponseHeaders().set("Last-Modified", lastModified);
                x.sendResponseHeaders(304, -1);
            } else {
                x.getResponseHeaders().set("ETag", "\"v3\"");
                TestOrigin.send(x, 200, "current at the origin");
            }
        };
    }

    private static String asked(HttpExchange x) {
        String inm = x.getRequestHeaders().getFirst("If-None-Match");
        if (inm == null && x.getRequestHeaders().containsKey("If-Modified-Since")) {
            inm = "since " + x.getRequestHeaders().getFirst("If-Modified-Since");
        }
        ASKED.computeIfAbsent(x.getRequestURI().getPath(), p -> new CopyOnWriteArrayList<>()).add(inm == null ? "-" : inm);
        return inm;
    }

    /** Stores the overlay's copy of {@code path}: entity tag "v1", {@code cacheControl}, fetched {@code ago} before the proxy's now. */
    private static void store(String path, String cacheControl, Duration ago) throws Exception {
        overlay.store(origin.url(path), COPY, Headers.of("Cache-Control", cacheControl, "Content-Type", "text/plain", "ETag", "\"v1\""),
                CLOCK.millis() - ago.toMillis());
    }

    private static HttpResponse<String> get(String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(origin.url(path))).timeout(Duration.ofSeconds(20));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private static String cacheStatus(HttpResponse<?> r) {
        return r.headers().firstValue("Cache-Status").orElse("(none) " + r.headers().map());
    }

    @Test
    void anExpiredCopyIsRevalidatedAndAfterA304TheBrowserGetsTheOverlayBodyJustValidated() throws Exception {
        store("/article", "max-age=60", Duration.ZERO);
        HttpResponse<String> hit = get("/article");
        assertEquals("riptide; hit", cacheStatus(hit));
        assertEquals(COPY, hit.body());
        assertEquals(null, ASKED.get("/article"), "a fresh copy never reaches the origin");

        CLOCK.advance(Duration.ofSeconds(120));
        HttpResponse<String> revalidated = get("/article");
        assertEquals(200, revalidated.statusCode());
        assertEquals(COPY, revalidated.body(), "the 304 says the overlay's body is current");
        assertEquals("riptide; fwd=stale; fwd-status=304", cacheStatus(revalidated));
        assertEquals("0", revalidated.headers().firstValue("Age").orElseThrow(), "just validated");
        assertEquals("max-age=120", revalidated.headers().firstValue("Cache-Control").orElseThrow(), "updated from the 304");
        assertEquals("text/plain", revalidated.headers().firstValue("Content-Type").orElseThrow(), "kept from the copy");
        assertEquals(List.of("\"v1\""), ASKED.get("/article"), "the origin was asked about the copy's entity tag");

        String url = CanonicalUrl.of(origin.url("/article")).value();
        Await.until(Duration.ofSeconds(10), "the cache manager hears the copy is stale",
                () -> MANAGER[0].hints.stream().anyMatch(h -> h.url().equals(url)));
    }

    @Test
    void anOriginThatChangedAnswers200AndTheBrowserGetsTheNewBody() throws Exception {
        store("/changed", "max-age=60", Duration.ofSeconds(120));
        HttpResponse<String> r = get("/changed");
        assertEquals(200, r.statusCode());
        assertEquals("changed at the origin", r.body());
        assertEquals("riptide; fwd=stale; fwd-status=200", cacheStatus(r));
        assertEquals(List.of("\"v1\""), ASKED.get("/changed"));
        String url = CanonicalUrl.of(origin.url("/changed")).value();
        Await.until(Duration.ofSeconds(10), "the cache manager hears the copy is stale",
                () -> MANAGER[0].hints.stream().anyMatch(h -> h.url().equals(url)));
    }

    @Test
    void requestNoCacheRevalidatesEvenAFreshCopy() throws Exception {
        store("/fresh", "max-age=600", Duration.ZERO);
        assertEquals("riptide; hit", cacheStatus(get("/fresh")));
        HttpResponse<String> r = get("/fresh", "Cache-Control", "no-cache");
        assertEquals(COPY, r.body());
        assertEquals("riptide; fwd=request; fwd-status=304", cacheStatus(r));
        assertEquals("0", r.headers().firstValue("Age").orElseThrow());
        assertEquals(List.of("\"v1\""), ASKED.get("/fresh"));
    }

    @Test
    void theBrowsersOwnEntityTagsAreMergedAndA304ItsConditionMatchesIsPassedThrough() throws Exception {
        store("/own-tag", "max-age=60", Duration.ofSeconds(120));
        HttpResponse<String> own = get("/own-tag", "If-None-Match", "\"v1\"");
        assertEquals(304, own.statusCode(), "the browser's copy is current: it gets the 304");
        assertEquals("", own.body());
        assertEquals("riptide; fwd=stale; fwd-status=304", cacheStatus(own));

        HttpResponse<String> other = get("/own-tag", "If-None-Match", "\"v0\"");
        assertEquals(200, other.statusCode(), "the browser's version is not current, the overlay's is");
        assertEquals(COPY, other.body());
        assertEquals("riptide; fwd=stale; fwd-status=304", cacheStatus(other));
        assertEquals(List.of("\"v1\"", "\"v0\", \"v1\""), ASKED.get("/own-tag"), "the browser's tags, then the copy's");
    }

    @Test
    void a304AboutNeitherTheCopyNorTheBrowsersVersionIsAskedAgainAndTheBrowserGetsTheFullResponse() throws Exception {
        // The copy is weakly tagged; another backend answers with a strong tag (which cannot select a weakly
        // tagged copy) and a Last-Modified later than the browser's date: about neither version.
        overlay.store(origin.url("/other-backend"), COPY, Headers.of("Cache-Control", "max-age=60", "Content-Type", "text/plain",
                "ETag", "W/\"v1\"", "Last-Modified", "Wed, 27 Dec 2023 00:00:00 GMT"), CLOCK.millis() - 120_000);
        HttpResponse<String> r = get("/other-backend", "If-Modified-Since", "Tue, 26 Dec 2023 00:00:00 GMT");
        assertEquals(200, r.statusCode(), "never a 304 the browser's own date does not allow");
        assertEquals("current at the origin", r.body());
        assertEquals("\"v3\"", r.headers().firstValue("ETag").orElseThrow());
        assertEquals("riptide; fwd=stale; fwd-status=200", cacheStatus(r));
        assertEquals(List.of("W/\"v1\"", "-"), ASKED.get("/other-backend"),
                "asked with the copy's validators, then once more without any condition");
    }

    @Test
    void a304AboutTheBrowsersOwnVersionByItsDateIsPassedThrough() throws Exception {
        overlay.store(origin.url("/browser-current"), COPY, Headers.of("Cache-Control", "max-age=60", "Content-Type", "text/plain",
                "ETag", "W/\"v1\"", "Last-Modified", "Wed, 27 Dec 2023 00:00:00 GMT"), CLOCK.millis() - 120_000);
        // The 304's Last-Modified (28 Dec) is no later than the browser's date, spelled in asctime form.
        HttpResponse<String> r = get("/browser-current", "If-Modified-Since", "Fri Dec 29 00:00:00 2023");
        assertEquals(304, r.statusCode(), "the browser's version is current by its own condition");
        assertEquals("riptide; fwd=stale; fwd-status=304", cacheStatus(r));
        assertEquals(List.of("W/\"v1\""), ASKED.get("/browser-current"));
    }

    @Test
    void lastModifiedIsComparedAsADateSoAnotherSpellingOfTheSameInstantValidatesTheCopy() throws Exception {
        overlay.store(origin.url("/date-spelling"), COPY, Headers.of("Cache-Control", "max-age=60", "Content-Type", "text/plain",
                "Last-Modified", "Wed, 27 Dec 2023 00:00:00 GMT"), CLOCK.millis() - 120_000);
        HttpResponse<String> r = get("/date-spelling");
        assertEquals(200, r.statusCode());
        assertEquals(COPY, r.body(), "the 304 names the copy's Last-Modified instant");
        assertEquals("riptide; fwd=stale; fwd-status=304", cacheStatus(r));
        assertEquals(List.of("since Wed, 27 Dec 2023 00:00:00 GMT"), ASKED.get("/date-spelling"));
    }

    @Test
    void theBrowsersDatesAreReadByTheProxysClock() throws Exception {
        // An RFC 850 date's two-digit year is resolved against now (RFC 9110 §5.6.7). The proxy's clock
        // stands forty years ahead: by it the browser's date is sixty years from today, after the copy's
        // Last-Modified (thirty years from today); by the machine's clock it would be forty years ago.
        int year = LocalDate.now(ZoneOffset.UTC).getYear();
        ManualClock ahead = new ManualClock(LocalDate.of(year + 40, 1, 1).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli());
        LocalDate browserDate = LocalDate.of(year + 60, 1, 1);
        String rfc850 = browserDate.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ENGLISH)
                + String.format(Locale.ROOT, ", 01-Jan-%02d 00:00:00 GMT", browserDate.getYear() % 100);
        String modified = HttpDates.format(LocalDate.of(year + 30, 1, 1).atStartOfDay(ZoneOffset.UTC).toInstant());
        overlay.store(origin.url("/far-clock"), COPY, Headers.of("Cache-Control", "max-age=60", "Content-Type", "text/plain",
                "ETag", "\"v1\"", "Last-Modified", modified), ahead.millis() - 120_000);
        try (RiptideProxy far = overlay.proxy(OverlayCacheConfig.defaults(), ahead)) {
            HttpClient c = HttpClient.newBuilder().proxy(ProxySelector.of(far.server().address())).build();
            HttpResponse<String> r = c.send(HttpRequest.newBuilder(URI.create(origin.url("/far-clock")))
                    .header("If-Modified-Since", rfc850).timeout(Duration.ofSeconds(20)).build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            assertEquals(304, r.statusCode(), "the browser's copy, dated " + rfc850 + ", is newer than " + modified);
            assertEquals(List.of("\"v1\""), ASKED.get("/far-clock"));
        }
    }

    @Test
    void anOriginErrorIsAnsweredWithTheStaleCopyOnlyWhereItAllowsStaleIfError() throws Exception {
        store("/down", "max-age=60, stale-if-error=600", Duration.ofSeconds(120));
        HttpResponse<String> r = get("/down");
        assertEquals(200, r.statusCode());
        assertEquals(COPY, r.body());
        assertEquals("riptide; fwd=stale; fwd-status=503; detail=stale-if-error", cacheStatus(r));
        assertTrue(Long.parseLong(r.headers().firstValue("Age").orElseThrow()) >= 120, "served stale, with its age");
        assertEquals(List.of("\"v1\""), ASKED.get("/down"));

        store("/down-strict", "max-age=60, must-revalidate", Duration.ofSeconds(120));
        HttpResponse<String> strict = get("/down-strict");
        assertEquals(503, strict.statusCode(), "must-revalidate: never served stale");
        assertEquals("origin down", strict.body());
        assertEquals("riptide; fwd=stale; fwd-status=503", cacheStatus(strict));
    }
}
