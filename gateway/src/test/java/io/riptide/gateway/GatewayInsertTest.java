package io.riptide.gateway;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.gateway.GatewayMessages.InsertReply;
import io.riptide.core.gateway.GatewayMessages.Outcome;
import io.riptide.core.object.CachedCopy;
import io.riptide.core.object.Heartbeat;
import io.riptide.gateway.origin.OriginFetcherConfig;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The gateway over real TCP on loopback, against a real origin server: insert, refresh, collapse, refuse. */
class GatewayInsertTest {
    private static final GatewayConfig CONFIG = new GatewayConfig(256, Duration.ofSeconds(15), Duration.ofMillis(300),
            64 * 1024, 3, Duration.ofMinutes(1), Duration.ofSeconds(1), Duration.ofHours(1), 100, java.util.Map.of(),
            Duration.ofMinutes(5));
    private static GatewayOverlay overlay;

    @BeforeAll
    static void start() throws Exception {
        overlay = new GatewayOverlay(5, 2, CONFIG, OriginFetcherConfig.defaults().withPrivateOrigins(true).withMaxBodyBytes(64 * 1024)
                .withDeadline(Duration.ofSeconds(2)).withRate(1000, 1000));
    }

    @AfterAll
    static void stop() {
        overlay.close();
    }

    @Test
    void aCacheableResponseIsInsertedAndFoundByGuidFromAnotherNode() throws Exception {
        try (RawOrigin origin = new RawOrigin(RawOrigin.always(RawOrigin.response(200, "OK", "hello, riptide",
                "Cache-Control", "max-age=60", "Content-Type", "text/plain")))) {
            InsertReply reply = overlay.insert(origin.url("/hello"), false);
            assertEquals(Outcome.INSERTED, reply.outcome(), reply.reason());
            assertEquals(1, reply.version());
            CachedCopy copy = overlay.readVerified(2, reply);
            assertArrayEquals("hello, riptide".getBytes(StandardCharsets.UTF_8), copy.object().response().body());
            assertEquals(60, copy.object().certificate().freshnessLifetimeSeconds());
            assertEquals("text/plain", copy.object().certificate().headers().first("Content-Type").orElseThrow());
            assertTrue(origin.requests().get(0).startsWith("GET /hello HTTP/1.1"));
        }
    }

    @Test
    void aRequesterThatWaitsForTheFetchGetsTheSignedCopyInTheReplyAndOthersDoNot() throws Exception {
        try (RawOrigin origin = new RawOrigin(RawOrigin.always(RawOrigin.response(200, "OK", "carried back",
                "Cache-Control", "max-age=60", "Content-Type", "text/plain")))) {
            InsertReply reply = overlay.insert(origin.url("/carried"), io.riptide.core.http.Headers.EMPTY, false, true);
            assertEquals(Outcome.INSERTED, reply.outcome(), reply.reason());
            assertTrue(reply.copy().length > 0, "the copy came with the answer");
            CachedCopy carried = CachedCopy.fromBytes(reply.copy(), 1 << 20);
            assertTrue(overlay.verifier().verify(carried.object(), reply.guid()).ok(), "it verifies as the provider's");
            assertArrayEquals("carried back".getBytes(StandardCharsets.UTF_8), carried.object().response().body());
            assertEquals(reply.version(), carried.object().certificate().version());
            assertArrayEquals(reply.copy(), overlay.readVerified(2, reply).toBytes(), "the very copy the overlay holds");
            // The same URL again, answered without a fetch (the recent result): the copy still comes; a manager's
            // request (no wish) gets the outcome alone.
            InsertReply again = overlay.insert(origin.url("/carried"), io.riptide.core.http.Headers.EMPTY, false, true);
            assertEquals(reply.version(), again.version(), again.reason());
            assertArrayEquals(reply.copy(), again.copy());
            assertEquals(0, overlay.insert(origin.url("/carried"), false).copy().length);
            assertEquals(1, origin.requests().size(), "one origin fetch for all three");
        }
        // A URL that varies: the copy is the variant the request selected, under its own GUID.
        try (RawOrigin origin = new RawOrigin(RawOrigin.always(RawOrigin.response(200, "OK", "zipped",
                "Cache-Control", "max-age=60", "Vary", "Accept-Encoding")))) {
            String url = origin.url("/varies");
            InsertReply reply = overlay.insert(url, io.riptide.core.http.Headers.of("Accept-Encoding", "gzip"), false, true);
            assertEquals(Outcome.INSERTED, reply.outcome(), reply.reason());
            CachedCopy carried = CachedCopy.fromBytes(reply.copy(), 1 << 20);
            assertEquals(reply.guid(), carried.object().certificate().guid());
            assertTrue(!reply.guid().equals(io.riptide.core.object.ObjectNames.objectGuid(overlay.provider.publicKey(),
                    io.riptide.core.http.CanonicalUrl.of(url).value(), "")), "a variant's GUID, not the base one");
            assertTrue(overlay.verifier().verify(carried.object(), reply.guid()).ok());
        }
    }

    @Test
    void anUnchangedRefetchGivesAHeartbeatAndAChangedOneVersionTwo() throws Exception {
        String[] body = {"first"};
        try (RawOrigin origin = new RawOrigin(RawOrigin.from(head -> head.contains("If-None-Match: \"" + body[0] + "\"")
                ? RawOrigin.response(304, "Not Modified", "", "ETag", "\"" + body[0] + "\"")
                : RawOrigin.response(200, "OK", body[0], "Cache-Control", "max-age=5", "ETag", "\"" + body[0] + "\"")))) {
            String url = origin.url("/page");
            InsertReply v1 = overlay.insert(url, false);
            assertEquals(Outcome.INSERTED, v1.outcome(), v1.reason());
            Thread.sleep(400); // past the window in which a finished result answers new requests
            // A re-check is asked for as a stale copy: a requester that merely missed is answered from the fresh copy.
            InsertReply again = overlay.insert(url, true);
            assertEquals(Outcome.UNCHANGED, again.outcome(), again.reason());
            assertEquals(1, again.version());
            assertTrue(origin.requests().get(1).contains("If-None-Match: \"first\""), "the refetch was conditional");
            CachedCopy confirmed = overlay.readVerified(1, again);
            assertEquals(1, confirmed.object().certificate().version());
            Heartbeat heartbeat = overlay.verifiedHeartbeat(confirmed);
            assertEquals(1, heartbeat.version());
            assertTrue(heartbeat.issuedAtMillis() > confirmed.object().certificate().responseTimeMillis(),
                    "the heartbeat vouches for version 1 later than its certificate did");

            body[0] = "second";
            Thread.sleep(400);
            InsertReply v2 = overlay.insert(url, true);
            assertEquals(Outcome.INSERTED, v2.outcome(), v2.reason());
            assertEquals(2, v2.version());
            CachedCopy copy = overlay.readVerified(3, v2);
            assertEquals(2, copy.object().certificate().version());
            assertArrayEquals("second".getBytes(StandardCharsets.UTF_8), copy.object().response().body());
        }
    }

    /**
     * The node's version floor remembers versions the overlay no longer shows (a gateway restarted
     * over its disk store, replicas that missed an update): the next version is signed above it, so
     * no version number is signed twice; and the gateway's own signing raises it.
     */
    @Test
    void aGatewayNeverSignsAVersionAtOrBelowItsNodesFloor() throws Exception {
        try (RawOrigin origin = new RawOrigin(RawOrigin.always(RawOrigin.response(200, "OK", "floored",
                "Cache-Control", "max-age=60", "Content-Type", "text/plain")))) {
            String url = origin.url("/floored");
            io.riptide.core.id.Id guid = io.riptide.core.object.ObjectNames.objectGuid(overlay.provider.publicKey(),
                    io.riptide.core.http.CanonicalUrl.of(url).value(), "");
            for (var gateway : overlay.gateways) {
                gateway.call(node -> {
                    node.versionFloor().raise(guid, 5);
                    return null;
                }).get(10, TimeUnit.SECONDS);
            }
            InsertReply reply = overlay.insertVia(0, url, false);
            assertEquals(Outcome.INSERTED, reply.outcome(), reply.reason());
            assertEquals(6, reply.version(), "above the floor, though the overlay held nothing");
            assertEquals(6L, (long) overlay.gateways.get(0).call(node -> node.versionFloor().floor(guid)).get(10, TimeUnit.SECONDS),
                    "its own version raised the floor");
            assertEquals(6, overlay.readVerified(1, reply).object().certificate().version());
        }
    }

    @Test
    void aRequesterThatMissedAFreshCopyStoredOnTheGatewayDoesNotCostAnOriginFetch() throws Exception {
        try (RawOrigin origin = new RawOrigin(RawOrigin.always(RawOrigin.response(200, "OK", "steady",
                "Cache-Control", "max-age=60")))) {
            String url = origin.url("/steady");
            InsertReply v1 = overlay.insert(url, false);
            assertEquals(Outcome.INSERTED, v1.outcome(), v1.reason());
            Thread.sleep(400); // past the window in which a finished result answers new requests
            InsertReply again = overlay.insert(url, false);
            assertEquals(Outcome.UNCHANGED, again.outcome(), again.reason());
            assertEquals(1, again.version());
            assertEquals(1, origin.hits(), "fresh for 60 s: the origin is not asked again");
        }
    }

    @Test
    void twoHundredConcurrentInsertsThroughTwoGatewaysFetchTheOriginOnce() throws Exception {
        try (RawOrigin origin = new RawOrigin((head, out) -> {
            Thread.sleep(300); // a slow origin, so that all the requests overlap
            out.write(RawOrigin.response(200, "OK", "popular", "Cache-Control", "max-age=60"));
        })) {
            String url = origin.url("/popular");
            List<CompletableFuture<InsertReply>> replies = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                replies.add(overlay.insertVia(i % 2, url));
            }
            for (CompletableFuture<InsertReply> f : replies) {
                InsertReply r = f.get(30, TimeUnit.SECONDS);
                assertEquals(Outcome.INSERTED, r.outcome(), r.reason());
                assertEquals(1, r.version());
            }
            assertEquals(1, origin.hits(), "one origin fetch for 200 requests through two gateways");
        }
    }

    @Test
    void responsesASharedCacheMayNotStoreAreRefusedWithTheReason() throws Exception {
        String[][] cases = {
            {"Cache-Control", "no-store", "no-store"},
            {"Cache-Control", "private, max-age=60", "private"},
            {"Set-Cookie", "session=abc", "Set-Cookie"},
            {"Vary", "*", "Vary"},
        };
        for (String[] c : cases) {
            try (RawOrigin origin = new RawOrigin(RawOrigin.always(RawOrigin.response(200, "OK", "secret", c[0], c[1])))) {
                InsertReply reply = overlay.insert(origin.url("/x"), false);
                assertEquals(Outcome.NOT_CACHEABLE, reply.outcome(), c[0] + ": " + c[1]);
                assertTrue(reply.reason().contains(c[2]), "reason names " + c[2] + ": " + reply.reason());
            }
        }
    }

    @Test
    void aBadOriginGivesAClearFailureAndLeavesThePreviousVersionInPlace() throws Exception {
        try (RawOrigin origin = new RawOrigin(RawOrigin.always(RawOrigin.response(200, "OK", "good", "Cache-Control", "max-age=60")))) {
            String url = origin.url("/fragile");
            InsertReply good = overlay.insert(url, false);
            assertEquals(Outcome.INSERTED, good.outcome());
            byte[] big = RawOrigin.response(200, "OK", "x".repeat(100 * 1024), "Cache-Control", "max-age=60");
            Object[][] failures = {
                {RawOrigin.always(big), "larger"},
                {RawOrigin.always("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nonly a little".getBytes(StandardCharsets.ISO_8859_1)),
                    "closed"},
                {RawOrigin.always("NOT HTTP AT ALL\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1)), "malformed"},
                {(RawOrigin.Answer) (head, out) -> Thread.sleep(5000), "deadline"},
                {RawOrigin.always(RawOrigin.response(302, "Found", "", "Location", "/fragile")), "redirect"},
            };
            for (Object[] f : failures) {
                origin.answer((RawOrigin.Answer) f[0]);
                Thread.sleep(400);
                InsertReply failed = overlay.insert(url, true);
                assertEquals(Outcome.ORIGIN_FAILED, failed.outcome(), failed.reason());
                assertTrue(failed.reason().toLowerCase().contains((String) f[1]), "reason says '" + f[1] + "': " + failed.reason());
                assertEquals(1, failed.version(), "the good version is still current");
                CachedCopy still = overlay.readVerified(4, good);
                assertArrayEquals("good".getBytes(StandardCharsets.UTF_8), still.object().response().body());
            }
        }
    }

    @Test
    void aUrlThatIsNotHttpIsRejected() throws Exception {
        InsertReply reply = overlay.insert("ftp://example.org/file", false);
        assertEquals(Outcome.REJECTED, reply.outcome());
        assertTrue(reply.reason().contains("ftp"), reply.reason());
    }
}
