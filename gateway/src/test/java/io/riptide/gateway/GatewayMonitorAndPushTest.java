package io.riptide.gateway;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.crypto.SigningKey;
import io.riptide.core.gateway.GatewayMessages.InsertReply;
import io.riptide.core.gateway.GatewayMessages.Outcome;
import io.riptide.core.gateway.GatewayMessages.PublisherPush;
import io.riptide.core.http.Headers;
import io.riptide.core.object.CachedCopy;
import io.riptide.core.object.Heartbeat;
import io.riptide.core.object.ObjectCertificate;
import io.riptide.dolr.location.LocateResult;
import io.riptide.gateway.origin.OriginFetcherConfig;
import io.riptide.gateway.push.PushSignatures;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Monitors that push updates into the overlay unasked, and publishers' signed pushes. */
class GatewayMonitorAndPushTest {
    private static final SigningKey PUBLISHER = SigningKey.generate(new SecureRandom());
    private static GatewayOverlay overlay;

    @BeforeAll
    static void start() throws Exception {
        GatewayConfig config = GatewayConfig.defaults()
                .withMonitoring(3, Duration.ofMillis(500), Duration.ofSeconds(2))
                .withPublisher("127.0.0.1", PUBLISHER.publicKey());
        config = new GatewayConfig(config.maxJobs(), config.leaseTtl(), Duration.ofMillis(100), config.maxObjectBytes(),
                config.monitorAfterStale(), config.staleWindow(), config.minMonitorInterval(), config.maxMonitorInterval(),
                config.maxMonitors(), config.publishers(), config.pushClockSkew());
        overlay = new GatewayOverlay(4, 1, config, OriginFetcherConfig.defaults().withPrivateOrigins(true).withRate(1000, 1000));
    }

    @AfterAll
    static void stop() {
        overlay.close();
    }

    private static long versionAt(InsertReply reply) throws Exception {
        LocateResult read = overlay.read(0, reply.guid());
        return CachedCopy.fromBytes(read.data(), 1 << 20).object().certificate().version();
    }

    @Test
    void aUrlThatKeepsGoingStaleGetsAMonitorThatInsertsUpdatesUnasked() throws Exception {
        String[] body = {"v1"};
        try (RawOrigin origin = new RawOrigin(RawOrigin.from(head ->
                RawOrigin.response(200, "OK", body[0], "Cache-Control", "max-age=1")))) {
            String url = origin.url("/news");
            InsertReply first = overlay.insert(url, false);
            assertEquals(Outcome.INSERTED, first.outcome(), first.reason());
            reportStaleThrice(url);
            int hitsBefore = origin.hits();
            body[0] = "v2";
            // The monitor polls every half freshness lifetime (bounded below by 500 ms): the update lands unasked.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            long version = 1;
            while (System.nanoTime() < deadline && version < 2) {
                Thread.sleep(200);
                version = versionAt(first);
            }
            assertEquals(2, version, "the monitor inserted the new version");
            assertTrue(origin.hits() > hitsBefore);
        }
    }

    /**
     * Three requesters report {@code url} stale to the gateway, which installs a monitor for it.
     * Sent straight to it, and each answer checked: a fresh-clone CI run once saw no monitor after
     * three anycast reports whose answers went unchecked, so this test no longer also depends on
     * anycast finding the gateway in time on a loaded machine.
     */
    private static void reportStaleThrice(String url) throws Exception {
        int before = overlay.gatewayApps.get(0).monitors().size();
        for (int i = 0; i < 3; i++) {
            Thread.sleep(150);
            InsertReply reply = overlay.insertVia(0, url, true); // "I found it stale"
            assertTrue(reply.outcome() != Outcome.UNREACHABLE, "stale report " + i + " answered: " + reply.reason());
        }
        assertEquals(before + 1, overlay.gatewayApps.get(0).monitors().size(), "three stale reports install a monitor");
    }

    @Test
    void aMonitoredUrlThatHasNotChangedGetsSignedHeartbeatsThatKeepItsVersionCurrent() throws Exception {
        try (RawOrigin origin = new RawOrigin(RawOrigin.from(head -> head.contains("If-None-Match: \"same\"")
                ? RawOrigin.response(304, "Not Modified", "", "ETag", "\"same\"")
                : RawOrigin.response(200, "OK", "unchanging", "Cache-Control", "max-age=1", "ETag", "\"same\"")))) {
            String url = origin.url("/steady");
            InsertReply first = overlay.insert(url, false);
            assertEquals(Outcome.INSERTED, first.outcome(), first.reason());
            reportStaleThrice(url);
            int hitsWithMonitor = origin.hits();
            long monitoredSince = System.currentTimeMillis();

            // Nobody asks any more: only the monitor's polls can bring a newer heartbeat, and the one
            // that matters comes after the certificate alone would have gone stale.
            ObjectCertificate cert = awaitHeartbeatAfter(first, monitoredSince).object().certificate();
            long staleAt = cert.responseTimeMillis() + cert.freshnessLifetimeSeconds() * 1000;
            CachedCopy copy = awaitHeartbeatAfter(first, Math.max(monitoredSince, staleAt));
            Heartbeat heartbeat = overlay.verifiedHeartbeat(copy);
            assertEquals(cert, copy.object().certificate(), "still the first certificate");
            assertEquals(1, cert.version(), "the version stays the same");
            assertEquals(1, heartbeat.version());
            assertArrayEquals(bytes("unchanging"), copy.object().response().body());
            assertTrue(heartbeat.issuedAtMillis() > staleAt,
                    "the heartbeat vouches for version 1 past the time its certificate alone would have gone stale");
            assertTrue(origin.hits() > hitsWithMonitor, "the monitor polled the origin");
            List<String> polls = origin.requests().subList(hitsWithMonitor, origin.hits());
            assertTrue(polls.stream().allMatch(r -> r.contains("If-None-Match: \"same\"")), "the polls were conditional");

            CachedCopy later = awaitHeartbeatAfter(first, heartbeat.issuedAtMillis());
            assertTrue(overlay.verifiedHeartbeat(later).issuedAtMillis() > heartbeat.issuedAtMillis(),
                    "each poll extends the replica's freshness again");
            assertEquals(1, later.object().certificate().version());
        }
    }

    /** The replica of {@code reply}'s object, once it carries a heartbeat issued after {@code afterMillis}. */
    private static CachedCopy awaitHeartbeatAfter(InsertReply reply, long afterMillis) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        CachedCopy copy = null;
        while (System.nanoTime() < deadline) {
            Thread.sleep(200);
            LocateResult read = overlay.read(0, reply.guid());
            copy = CachedCopy.fromBytes(read.data(), 1 << 20);
            if (copy.heartbeat().isPresent() && copy.heartbeat().get().issuedAtMillis() > afterMillis) {
                return copy;
            }
        }
        throw new AssertionError("no heartbeat issued after " + afterMillis + " ms reached the replica; last: " + copy);
    }

    private static InsertReply push(PublisherPush p) throws Exception {
        CompletableFuture<InsertReply> f = new CompletableFuture<>();
        overlay.pushFromClient(p, f::complete);
        return f.get(20, TimeUnit.SECONDS);
    }

    @Test
    void aPublisherPushesANewVersionAndForgedOrReplayedPushesAreRefused() throws Exception {
        String url = "http://127.0.0.1:1/pushed";
        long now = System.currentTimeMillis();
        Headers headers = Headers.of("Cache-Control", "max-age=30", "Content-Type", "text/plain");
        InsertReply accepted = push(PushSignatures.sign(PUBLISHER, 0, url, 200, headers, bytes("fresh news"), now));
        assertEquals(Outcome.INSERTED, accepted.outcome(), accepted.reason());
        LocateResult read = overlay.read(1, accepted.guid());
        assertArrayEquals(bytes("fresh news"), CachedCopy.fromBytes(read.data(), 1 << 20).object().response().body());

        InsertReply replay = push(PushSignatures.sign(PUBLISHER, 0, url, 200, headers, bytes("fresh news"), now));
        assertEquals(Outcome.REJECTED, replay.outcome());
        assertTrue(replay.reason().contains("replay"), replay.reason());

        SigningKey stranger = SigningKey.generate(new SecureRandom());
        InsertReply forged = push(PushSignatures.sign(stranger, 0, url, 200, headers, bytes("fake"), now + 1));
        assertEquals(Outcome.REJECTED, forged.outcome());
        assertTrue(forged.reason().contains("not the publisher's key"), forged.reason());

        PublisherPush good = PushSignatures.sign(PUBLISHER, 0, url, 200, headers, bytes("real"), now + 2);
        PublisherPush tampered = new PublisherPush(0, url, 200, headers, bytes("tampered"), good.publisherKey(),
                good.timestampMillis(), good.signature());
        InsertReply bad = push(tampered);
        assertEquals(Outcome.REJECTED, bad.outcome());
        assertTrue(bad.reason().contains("bad signature"), bad.reason());

        InsertReply otherHost = push(PushSignatures.sign(PUBLISHER, 0, "http://example.org/x", 200, headers, bytes("x"), now + 3));
        assertEquals(Outcome.REJECTED, otherHost.outcome());
        assertTrue(otherHost.reason().contains("no publisher is configured for example.org"), otherHost.reason());

        InsertReply v2 = push(PushSignatures.sign(PUBLISHER, 0, url, 200, headers, bytes("newer news"), now + 4));
        assertEquals(Outcome.INSERTED, v2.outcome(), v2.reason());
        assertEquals(2, v2.version());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
