package io.riptide.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The open-loop generator keeps its schedule whatever the server does, and charges a slow server for the wait of
 * every request that should have gone out meanwhile. Each run is one second at a low rate against a JDK server.
 */
@Timeout(30)
class OpenLoopLoadTest {
    private HttpServer server;
    private final List<Long> arrivals = new CopyOnWriteArrayList<>();

    private InetSocketAddress serve(int bodyBytes, long serviceMillis) throws Exception {
        return serve(bodyBytes, serviceMillis, 0);
    }

    /** Every {@code shedEvery}-th request (0: none) is answered 503 with Retry-After, as admission control sheds. */
    private InetSocketAddress serve(int bodyBytes, long serviceMillis, int shedEvery) throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        byte[] body = new byte[bodyBytes];
        server.createContext("/", exchange -> {
            arrivals.add(System.nanoTime());
            if (shedEvery > 0 && arrivals.size() % shedEvery == 0) {
                byte[] why = "busy".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                exchange.getResponseHeaders().set("Retry-After", "1");
                exchange.sendResponseHeaders(503, why.length);
                exchange.getResponseBody().write(why);
                exchange.close();
                return;
            }
            if (serviceMillis > 0) {
                try {
                    Thread.sleep(serviceMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start(); // no executor: one thread serves every request, one at a time
        return new InetSocketAddress("127.0.0.1", server.getAddress().getPort());
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void sendsRateTimesDurationRequestsSpreadOverTheWholeSecond() throws Exception {
        InetSocketAddress address = serve(100, 0);
        long start = System.nanoTime();
        OpenLoopLoad.Result r = new OpenLoopLoad(200, Duration.ofSeconds(1), 2, 16).run(address, "/obj", "127.0.0.1", 100);
        double took = (System.nanoTime() - start) / 1e9;
        assertEquals(200, r.scheduled());
        assertEquals(200, r.completed(), r.toString());
        assertEquals(0, r.errors());
        assertEquals(200, r.latencyNanos().getTotalCount());
        assertEquals(200, arrivals.size());
        assertTrue(r.p50Ms() > 0 && r.p50Ms() <= r.p99Ms() && r.p99Ms() <= r.p999Ms(), r.p50Ms() + " " + r.p99Ms() + " " + r.p999Ms());
        assertEquals(200, r.achievedRate(), 1e-9);
        // On schedule: the requests arrive over the second (the last is due at 0.995 s), not in a burst.
        double spread = (arrivals.get(arrivals.size() - 1) - arrivals.get(0)) / 1e9;
        assertTrue(spread > 0.9 && spread < 1.5, "arrivals spread over " + spread + " s");
        assertTrue(took > 0.95 && took < 5, "took " + took + " s");
        assertTrue(r.connectionsUsed() >= 2 && r.connectionsUsed() <= 16, r.toString());
        assertEquals(0, r.queued(), "the server kept up: no request waited for a connection");
    }

    @Test
    void aServerSlowerThanTheScheduleIsChargedForTheRequestsWaiting() throws Exception {
        // 20 ms a request on one connection serves 50 a second; the schedule asks for 100, so a backlog builds.
        InetSocketAddress address = serve(10, 20);
        OpenLoopLoad.Result r = new OpenLoopLoad(100, Duration.ofSeconds(1), 1, 1).run(address, "/obj", "127.0.0.1", 10);
        assertEquals(100, r.scheduled());
        assertEquals(100, r.completed(), r.toString());
        assertEquals(1, r.connectionsUsed());
        assertTrue(r.saturated() && r.queued() > 40, "requests queued for the one connection: " + r.queued());
        // A closed loop would see about 20 ms each; measured from the intended send times, the last requests waited
        // for the whole backlog: about a second.
        assertTrue(r.p50Ms() > 200, "p50 " + r.p50Ms());
        assertTrue(r.p99Ms() > 700, "p99 " + r.p99Ms());
    }

    @Test
    void wrongAnswersAreErrorsNotLatencies() throws Exception {
        InetSocketAddress address = serve(100, 0);
        OpenLoopLoad.Result r = new OpenLoopLoad(50, Duration.ofSeconds(1), 1, 4).run(address, "/obj", "127.0.0.1", 99);
        assertEquals(50, r.scheduled());
        assertEquals(0, r.completed());
        assertEquals(50, r.errors());
        assertEquals(0, r.latencyNanos().getTotalCount());
    }

    @Test
    void a503WithRetryAfterIsCountedAsShedAndTheConnectionServesOn() throws Exception {
        InetSocketAddress address = serve(100, 0, 4);
        OpenLoopLoad.Result r = new OpenLoopLoad(100, Duration.ofSeconds(1), 1, 4).run(address, "/obj", "127.0.0.1", 100);
        assertEquals(100, r.scheduled());
        assertEquals(25, r.shed(), r.toString());
        assertEquals(75, r.completed(), r.toString());
        assertEquals(0, r.errors(), "shed requests are neither errors nor unanswered");
        assertEquals(25, r.shedLatencyNanos().getTotalCount());
        assertEquals(75, r.latencyNanos().getTotalCount(), "only what was served has a served latency");
        long[] offered = r.perSecond().offered();
        assertEquals(100, offered[0]);
        assertEquals(100, java.util.Arrays.stream(r.perSecond().completed()).sum() + java.util.Arrays.stream(r.perSecond().shed()).sum());
    }
}
