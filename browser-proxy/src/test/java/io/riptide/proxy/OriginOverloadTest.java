package io.riptide.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.proxy.upstream.OriginAdmission;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A burst beyond what a busy origin's connections and queue hold, as a user sees it: the proxy (one loop, one
 * connection per origin, two requests may wait) answers every request it cannot hold with 503 and {@code Retry-After}
 * while the origin is still working on the one it admitted: the first over the queue's bound is refused at once, and
 * from then on the queue counts as standing, so whatever waits longer than the target is shed too, without waiting for
 * the origin; then it serves the admitted request, and the next ones on the same connections, as usual.
 * {@code /metrics} shows the origin stage's queue, refusals, sheds and waits.
 */
@Timeout(30)
class OriginOverloadTest {
    /** Long enough that the test sees the two requests waiting before the queue counts as standing. */
    private static final Duration INTERVAL = Duration.ofSeconds(3);
    private final CountDownLatch originMayAnswer = new CountDownLatch(1);
    private TestOrigin origin;
    private ProxyServer proxy;
    private final List<RawClient> clients = new ArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        origin = new TestOrigin().route("/slow", x -> {
            try {
                originMayAnswer.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            TestOrigin.send(x, 200, "the slow page");
        });
        proxy = ProxyServer.start(ProxyConfig.builder().host("127.0.0.1").port(0).passThrough(true).loops(1)
                .upstreamConnectionsPerOrigin(1)
                .originAdmission(new OriginAdmission(2, Duration.ofMillis(5), INTERVAL)).build(), CacheLookup.NONE);
    }

    @AfterEach
    void tearDown() throws Exception {
        originMayAnswer.countDown();
        for (RawClient c : clients) {
            c.close();
        }
        if (proxy != null) {
            proxy.close();
        }
        origin.close();
    }

    private RawClient send() throws Exception {
        RawClient c = new RawClient(proxy.address());
        clients.add(c);
        c.send("GET " + origin.url("/slow") + " HTTP/1.1\r\nHost: 127.0.0.1:" + origin.port() + "\r\n\r\n");
        return c;
    }

    private String metrics() throws Exception {
        try (RawClient c = new RawClient(proxy.address())) {
            c.send("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
            return c.read().body();
        }
    }

    private static double sample(String metrics, String name) {
        Matcher m = Pattern.compile("^" + Pattern.quote(name) + " (\\S+)$", Pattern.MULTILINE).matcher(metrics);
        assertTrue(m.find(), name + " is not on /metrics:\n" + metrics);
        return Double.parseDouble(m.group(1));
    }

    private void awaitSample(String name, double value) throws Exception {
        String last = "";
        for (int i = 0; i < 200; i++) {
            last = metrics();
            if (sample(last, name) == value) {
                return;
            }
            Thread.sleep(10);
        }
        assertEquals(value, sample(last, name), name);
    }

    private static void assertShed(RawClient.Response r) {
        assertEquals(503, r.status(), r.body());
        assertEquals(String.valueOf(OriginAdmission.RETRY_AFTER_SECONDS), r.header("retry-after"));
        assertTrue(r.body().contains("is busy"), r.body());
        assertNotEquals("close", r.header("connection"), "a shed request's connection stays open for the retry");
    }

    @Test
    void aBurstBeyondTheQueueIsShedWith503AtOnceAndAdmittedRequestsAreStillServed() throws Exception {
        RawClient admitted = send();
        awaitSample("riptide_stage_threads{stage=\"origin\"}", 1);
        RawClient waiting1 = send();
        RawClient waiting2 = send();
        awaitSample("riptide_stage_queue_length{stage=\"origin\"}", 2);

        List<RawClient> over = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            over.add(send());
        }
        // Answered while the origin still holds the admitted request: nobody waits for it to be shed.
        for (RawClient c : over) {
            assertShed(c.read());
        }
        assertShed(waiting1.read());
        assertShed(waiting2.read());
        assertEquals(1, originMayAnswer.getCount(), "every 503 came before the origin answered anything");

        originMayAnswer.countDown();
        assertEquals("the slow page", admitted.read().body());
        // The shed clients' connections serve their retries.
        for (RawClient c : List.of(waiting1, over.get(0))) {
            c.send("GET " + origin.url("/slow") + " HTTP/1.1\r\nHost: 127.0.0.1:" + origin.port() + "\r\n\r\n");
            RawClient.Response r = c.read();
            assertEquals(200, r.status(), r.body());
            assertEquals("the slow page", r.body());
        }

        String m = metrics();
        double refused = sample(m, "riptide_stage_refused_total{stage=\"origin\"}");
        double shed = sample(m, "riptide_stage_shed_total{stage=\"origin\"}");
        assertTrue(refused >= 1, m);
        assertEquals(6, refused + shed, m);
        assertEquals(0, sample(m, "riptide_stage_queue_length{stage=\"origin\"}"), m);
        assertEquals(0, sample(m, "riptide_stage_threads{stage=\"origin\"}"), m);
        // Admitted at once (3) or shed after waiting: every one that left the queue has its wait counted.
        assertEquals(3 + shed, sample(m, "riptide_stage_wait_seconds_count{stage=\"origin\"}"), m);
        assertTrue(sample(m, "riptide_stage_wait_seconds_sum{stage=\"origin\"}") > 0, m);
        assertEquals(6, sample(m, "riptide_proxy_requests_total{result=\"shed\"}"), m);
        // The lookup bound is a stage too; in pass-through mode nothing is looked up.
        assertEquals(0, sample(m, "riptide_stage_accepted_total{stage=\"lookup\"}"), m);
    }
}
