package io.riptide.gateway;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.gateway.GatewayMessages.InsertReply;
import io.riptide.core.gateway.GatewayMessages.Outcome;
import io.riptide.core.http.CachedResponse;
import io.riptide.core.http.CanonicalUrl;
import io.riptide.core.http.Freshness;
import io.riptide.core.http.Headers;
import io.riptide.core.http.HttpDates;
import io.riptide.core.http.ServeDecision.Action;
import io.riptide.core.http.ServeRules;
import io.riptide.core.object.CachedCopy;
import io.riptide.core.object.ObjectCertificate;
import io.riptide.core.object.ObjectNames;
import io.riptide.gateway.origin.OriginFetcherConfig;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The RFC 9111 storability and freshness table, rule by rule, end to end: a real origin on loopback
 * answers with the rule's headers, a requester asks the gateway to insert, and the test checks what
 * the requester is told and what a peer then reads from the overlay (the certified lifetime, the
 * variant's GUID, and how a cache must use the replica).
 */
class GatewayStorabilityTableTest {
    /** Every stored case's origin dates its Last-Modified this long before its Date: 10% of it is 1000 s. */
    private static final long MODIFIED_BEFORE = 10_000;
    private static final long TEN_PERCENT = MODIFIED_BEFORE / 10;
    private static GatewayOverlay overlay;

    @BeforeAll
    static void start() throws Exception {
        GatewayConfig config = GatewayConfig.defaults();
        config = new GatewayConfig(config.maxJobs(), config.leaseTtl(), Duration.ofMillis(300), 64 * 1024,
                config.monitorAfterStale(), config.staleWindow(), config.minMonitorInterval(), config.maxMonitorInterval(),
                config.maxMonitors(), config.publishers(), config.pushClockSkew());
        overlay = new GatewayOverlay(3, 1, config, OriginFetcherConfig.defaults().withPrivateOrigins(true).withMaxBodyBytes(64 * 1024)
                .withDeadline(Duration.ofSeconds(2)).withRate(1000, 1000));
    }

    @AfterAll
    static void stop() {
        overlay.close();
    }

    /**
     * How a peer holding the replica must use it, {@code afterSeconds} past the response, for a
     * request with {@code requestCacheControl} (empty for none).
     */
    private record Judgement(long afterSeconds, String requestCacheControl, Action expected) {
    }

    /**
     * One rule: the origin's status and headers (a function of the Date it sends), the requester's
     * headers, and either the certified lifetime and variant key of the stored object, or the words
     * the refusal must contain.
     */
    private record Rule(String name, int status, Function<Instant, List<String>> response, Headers request,
                        Long lifetime, String variant, String refusal, List<Judgement> judgements) {
        Rule asking(String... requestHeaders) {
            return new Rule(name, status, response, Headers.of(requestHeaders), lifetime, variant, refusal, judgements);
        }

        Rule underVariant(String key) {
            return new Rule(name, status, response, request, lifetime, key, refusal, judgements);
        }

        Rule judged(long afterSeconds, String requestCacheControl, Action expected) {
            List<Judgement> more = new ArrayList<>(judgements);
            more.add(new Judgement(afterSeconds, requestCacheControl, expected));
            return new Rule(name, status, response, request, lifetime, variant, refusal, more);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    private static Rule stored(String name, int status, long lifetime, Function<Instant, List<String>> response) {
        return new Rule(name, status, response, Headers.EMPTY, lifetime, "", null, List.of());
    }

    private static Rule stored(String name, int status, long lifetime, String... response) {
        return stored(name, status, lifetime, date -> List.of(response));
    }

    private static Rule refused(String name, int status, String reason, Function<Instant, List<String>> response) {
        return new Rule(name, status, response, Headers.EMPTY, null, "", reason, List.of());
    }

    private static Rule refused(String name, int status, String reason, String... response) {
        return refused(name, status, reason, date -> List.of(response));
    }

    /** Last-Modified {@link #MODIFIED_BEFORE} seconds before the Date, plus {@code more}. */
    private static Function<Instant, List<String>> modified(String... more) {
        return date -> {
            List<String> h = new ArrayList<>(List.of("Last-Modified", HttpDates.format(date.minusSeconds(MODIFIED_BEFORE))));
            h.addAll(List.of(more));
            return h;
        };
    }

    static Stream<Rule> rules() {
        Stream<Rule> table = Stream.of(
                stored("max-age", 200, 60, "Cache-Control", "max-age=60")
                        .judged(10, "", Action.SERVE_FRESH)
                        .judged(90, "max-stale=3600", Action.SERVE_STALE),
                stored("s-maxage overrides max-age in a shared cache", 200, 300, "Cache-Control", "max-age=60, s-maxage=300"),
                stored("Expires minus Date", 200, 120, date -> List.of("Expires", HttpDates.format(date.plusSeconds(120)))),
                stored("heuristic: 10% of the time since Last-Modified", 200, TEN_PERCENT, modified()),
                stored("heuristic lifetime capped at a day", 200, Freshness.DEFAULT_HEURISTIC_CAP.toSeconds(),
                        date -> List.of("Last-Modified", HttpDates.format(date.minus(Duration.ofDays(30))))),
                stored("no-cache is stored but validated before every use", 200, 60, "Cache-Control", "no-cache, max-age=60")
                        .judged(0, "", Action.VALIDATE),
                stored("must-revalidate is never served stale", 200, 60, "Cache-Control", "max-age=60, must-revalidate")
                        .judged(10, "", Action.SERVE_FRESH)
                        .judged(90, "max-stale=3600", Action.VALIDATE),
                refused("no-store", 200, "no-store", "Cache-Control", "no-store, max-age=60"),
                refused("private", 200, "private", "Cache-Control", "private, max-age=60"),
                refused("Set-Cookie", 200, "Set-Cookie", "Cache-Control", "max-age=60", "Set-Cookie", "session=abc"),
                refused("Vary: *", 200, "Vary: *", "Cache-Control", "max-age=60", "Vary", "*"),
                // Only Accept, Accept-Encoding and Accept-Language select variants: the user's key never
                // reaches the origin, and a response that varies on it is not stored.
                refused("Vary: X-Api-Key", 200, "response varies on x-api-key, which this shared cache never forwards",
                        "Cache-Control", "max-age=60", "Vary", "Accept-Encoding, X-Api-Key")
                        .asking("X-Api-Key", "user-token", "Accept-Encoding", "gzip"),
                stored("Vary: Accept-Encoding is stored under the variant's GUID", 200, 60,
                        "Cache-Control", "max-age=60", "Vary", "Accept-Encoding")
                        .asking("Accept-Encoding", "gzip").underVariant("accept-encoding=gzip"),
                stored("Cache-Control: public makes a 500 storable, heuristically fresh", 500, TEN_PERCENT,
                        modified("Cache-Control", "public")),
                refused("302 without explicit freshness", 302, "status 302 is not heuristically cacheable", modified()),
                refused("500 without explicit freshness", 500, "status 500 is not heuristically cacheable", modified()),
                // The gateway drops the user's credentials (RFC 9111 §3.5 would otherwise forbid storing
                // this max-age-only answer): the origin sees an anonymous request, and that answer is stored.
                stored("Authorization is never forwarded; the anonymous answer is stored", 200, 60,
                        "Cache-Control", "max-age=60")
                        .asking("Authorization", "Bearer user-secret"));
        // Heuristically cacheable statuses (RFC 9110 §15.1). A 301 without Location, as one with it is followed.
        Stream<Rule> statuses = Stream.of(200, 203, 204, 300, 301, 404, 405, 410, 414, 501)
                .map(s -> stored("status " + s + " is heuristically cacheable", s, TEN_PERCENT, modified()));
        return Stream.concat(table, statuses);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rules")
    void theGatewayStoresOrRefusesAsRfc9111Says(Rule rule) throws Exception {
        try (RawOrigin origin = new RawOrigin(RawOrigin.from(head -> answer(rule, head)))) {
            String url = origin.url("/rule");
            InsertReply reply = overlay.insert(url, rule.request(), false);
            assertEquals(1, origin.hits(), "one origin fetch");
            String asked = origin.requests().get(0).toLowerCase(Locale.ROOT);
            assertFalse(asked.contains("authorization") || asked.contains("x-api-key") || asked.contains("user-token"),
                    "the origin never sees the user's credentials: " + origin.requests().get(0));
            if (rule.refusal() != null) {
                assertEquals(Outcome.NOT_CACHEABLE, reply.outcome(), reply.reason());
                assertTrue(reply.reason().contains(rule.refusal()), "the requester is told why: " + reply.reason());
                return;
            }
            assertEquals(Outcome.INSERTED, reply.outcome(), reply.reason());
            String canonical = CanonicalUrl.of(url).value();
            assertEquals(ObjectNames.objectGuid(overlay.provider.publicKey(), canonical, rule.variant()), reply.guid(),
                    "stored under the GUID of its URL and variant");
            CachedCopy copy = overlay.readVerified(0, reply);
            ObjectCertificate cert = copy.object().certificate();
            assertEquals(rule.status(), cert.statusCode());
            assertEquals(rule.variant(), cert.variantKey());
            assertEquals(rule.lifetime(), cert.freshnessLifetimeSeconds(), "certified freshness lifetime");
            assertArrayEquals(bodyFor(rule.status()).getBytes(StandardCharsets.UTF_8), copy.object().response().body(),
                    "the anonymous answer is what is stored");
            ServeRules serve = new ServeRules(new Freshness());
            for (Judgement j : rule.judgements()) {
                Instant responded = Instant.ofEpochMilli(cert.responseTimeMillis());
                CachedResponse held = new CachedResponse(cert.statusCode(), cert.headers(),
                        Instant.ofEpochMilli(cert.requestTimeMillis()), responded);
                Headers request = j.requestCacheControl().isEmpty() ? Headers.EMPTY
                        : Headers.of("Cache-Control", j.requestCacheControl());
                assertEquals(j.expected(), serve.decide(held, request, responded.plusSeconds(j.afterSeconds())).action(),
                        j.afterSeconds() + " s after, asking '" + j.requestCacheControl() + "'");
            }
        }
    }

    /** The rule's response; a personalised body if credentials ever reached the origin. */
    private static byte[] answer(Rule rule, String requestHead) {
        Instant date = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        List<String> headers = new ArrayList<>(List.of("Date", HttpDates.format(date)));
        headers.addAll(rule.response().apply(date));
        String lower = requestHead.toLowerCase(Locale.ROOT);
        boolean credentials = lower.contains("\nauthorization:") || lower.contains("\nx-api-key:");
        String body = credentials ? "for the signed-in user" : bodyFor(rule.status());
        return RawOrigin.response(rule.status(), "Status " + rule.status(), body, headers.toArray(String[]::new));
    }

    private static String bodyFor(int status) {
        return status == 204 ? "" : "anonymous " + status;
    }
}
