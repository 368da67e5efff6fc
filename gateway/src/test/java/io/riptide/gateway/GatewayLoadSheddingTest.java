package io.riptide.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.gateway.GatewayMessages.InsertReply;
import io.riptide.core.gateway.GatewayMessages.Outcome;
import io.riptide.core.stage.StageConfig;
import io.riptide.dolr.server.ServerSettings;
import io.riptide.gateway.origin.OriginFetcherConfig;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A full gateway sheds load: past its job limit, or with its signing stage full, it refuses new
 * inserts at once with a reason the requester can read, and takes them again once it has room.
 */
class GatewayLoadSheddingTest {
    private static final int MAX_JOBS = 2;
    private static GatewayOverlay overlay;

    @BeforeAll
    static void start() throws Exception {
        GatewayConfig d = GatewayConfig.defaults();
        // Results stay "recent" for the default 5 s: a refusal for load must not be replayed that long.
        GatewayConfig config = new GatewayConfig(MAX_JOBS, d.leaseTtl(), d.recentResults(), 64 * 1024,
                d.monitorAfterStale(), d.staleWindow(), d.minMonitorInterval(), d.maxMonitorInterval(), d.maxMonitors(),
                d.publishers(), d.pushClockSkew());
        // One signing thread and room for as many waiting tasks as jobs, so the test can fill the stage.
        overlay = new GatewayOverlay(3, 1, config, OriginFetcherConfig.defaults().withPrivateOrigins(true).withRate(1000, 1000),
                node -> node.withStages(List.of(StageConfig.of(ServerSettings.CRYPTO_STAGE, MAX_JOBS, 1, 1),
                        StageConfig.of(ServerSettings.DISK_STAGE, 256, 1, 2))));
    }

    @AfterAll
    static void stop() {
        overlay.close();
    }

    @Test
    void pastItsJobLimitTheGatewayRefusesAtOnceAndRecoversWhenJobsFinish() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (RawOrigin origin = new RawOrigin((head, out) -> {
            if (head.startsWith("GET /slow")) {
                release.await(20, TimeUnit.SECONDS); // holds the request until the test lets it go
            }
            out.write(RawOrigin.response(200, "OK", "body", "Cache-Control", "max-age=60"));
        })) {
            CompletableFuture<InsertReply> slow1 = overlay.insertVia(0, origin.url("/slow/1"));
            CompletableFuture<InsertReply> slow2 = overlay.insertVia(0, origin.url("/slow/2"));
            awaitHits(origin, MAX_JOBS);

            InsertReply refused = overlay.insert(origin.url("/next"), false);
            assertEquals(Outcome.OVERLOADED, refused.outcome(), refused.reason());
            assertEquals("gateway busy: " + MAX_JOBS + " inserts in progress", refused.reason());
            assertFalse(slow1.isDone() || slow2.isDone(), "refused while the slow inserts were still held, not after them");
            assertEquals(MAX_JOBS, origin.hits(), "a refused insert costs the origin nothing");

            release.countDown();
            assertEquals(Outcome.INSERTED, slow1.get(30, TimeUnit.SECONDS).outcome());
            assertEquals(Outcome.INSERTED, slow2.get(30, TimeUnit.SECONDS).outcome());
            InsertReply retried = overlay.insert(origin.url("/next"), false);
            assertEquals(Outcome.INSERTED, retried.outcome(), retried.reason());
            assertEquals(1, retried.version());
        } finally {
            release.countDown();
        }
    }

    @Test
    void withItsSigningStageFullTheGatewayRefusesAndSignsAgainOnceItDrains() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (RawOrigin origin = new RawOrigin(RawOrigin.always(
                RawOrigin.response(200, "OK", "body", "Cache-Control", "max-age=60")))) {
            // Stand-ins for a burst of signing work: one runs on the stage's only thread, the rest fill its queue.
            CountDownLatch running = new CountDownLatch(1);
            CountDownLatch drained = new CountDownLatch(1 + MAX_JOBS);
            assertTrue(occupyCryptoStage(running, release, drained), "the first stand-in is taken");
            assertTrue(running.await(10, TimeUnit.SECONDS), "the stage's thread runs it");
            for (int i = 0; i < MAX_JOBS; i++) {
                assertTrue(occupyCryptoStage(new CountDownLatch(1), release, drained), "the others wait in the stage's queue");
            }

            String url = origin.url("/signed");
            InsertReply refused = overlay.insert(url, false);
            assertEquals(Outcome.OVERLOADED, refused.outcome(), refused.reason());
            assertEquals("gateway busy: the signing stage is full", refused.reason());

            release.countDown();
            assertTrue(drained.await(10, TimeUnit.SECONDS), "the stand-ins finish");
            InsertReply retried = overlay.insert(url, false);
            assertEquals(Outcome.INSERTED, retried.outcome(), "not the refusal replayed: " + retried.reason());
            assertEquals(1, retried.version());
            assertEquals(2, origin.hits());
        } finally {
            release.countDown();
        }
    }

    /**
     * Submits a task to the gateway's crypto stage that blocks until {@code release} and then counts
     * down {@code finished}; false if the stage refused it.
     */
    private static boolean occupyCryptoStage(CountDownLatch running, CountDownLatch release, CountDownLatch finished)
            throws Exception {
        return overlay.gateways.get(0).call(node -> node.env().submit(ServerSettings.CRYPTO_STAGE, () -> {
            running.countDown();
            return release.await(30, TimeUnit.SECONDS);
        }, (done, error) -> finished.countDown())).get(10, TimeUnit.SECONDS);
    }

    private static void awaitHits(RawOrigin origin, int hits) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (origin.hits() < hits && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertEquals(hits, origin.hits(), "the slow inserts reached the origin");
    }
}
