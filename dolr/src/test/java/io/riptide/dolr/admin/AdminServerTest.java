package io.riptide.dolr.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The admin server over raw sockets on loopback: its pages, and what it does with bad requests and slow sources. */
class AdminServerTest {
    private final AtomicLong events = new AtomicLong();
    private AdminServer server;

    private AdminServer start(StatusSource source) {
        server = AdminServer.start("127.0.0.1", 0, new StatusReports("Test <agent>", List.of(source), Duration.ofMillis(500)));
        return server;
    }

    private StatusSource counting() {
        return () -> {
            ReportPart.Builder b = ReportPart.builder().summary("name", "<script>alert(1)</script>");
            b.table("Things", "", List.of("thing"), List.of(List.of("a&b")));
            b.metrics().counter("riptide_test_events_total", "Events seen.", events.get());
            return CompletableFuture.completedFuture(b.build());
        };
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** Sends {@code request} raw and returns everything the server sends until it closes or stays quiet. */
    private String exchange(String request) throws IOException {
        try (Socket s = new Socket("127.0.0.1", server.address().getPort())) {
            s.setSoTimeout(3000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            s.getOutputStream().flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            try {
                for (int n; (n = in.read(buf)) > 0; ) {
                    got.write(buf, 0, n);
                }
            } catch (java.net.SocketTimeoutException | java.net.SocketException e) {
                // a kept-alive connection stays open; what arrived is the answer
            }
            return got.toString(StandardCharsets.UTF_8);
        }
    }

    @Test
    void servesThePageTheJsonAndTheMetricsWithEveryValueEscaped() throws IOException {
        start(counting());
        events.set(7);
        String page = exchange("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertTrue(page.startsWith("HTTP/1.1 200 OK\r\n"), page);
        assertTrue(page.contains("content-type: text/html; charset=utf-8"), page);
        assertTrue(page.contains("<title>Test &lt;agent&gt;</title>"), page);
        assertTrue(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;") && !page.contains("<script>"), page);
        assertTrue(page.contains("<td>a&amp;b</td>"), page);
        String json = exchange("GET /status.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertTrue(json.contains("\"name\":\"\\u003cscript>alert(1)\\u003c/script>\""), json);
        String metrics = exchange("GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertTrue(metrics.contains("content-type: text/plain; version=0.0.4; charset=utf-8"), metrics);
        assertTrue(metrics.endsWith("# HELP riptide_test_events_total Events seen.\n# TYPE riptide_test_events_total counter\n"
                + "riptide_test_events_total 7\n"), metrics);
    }

    @Test
    void answersBadPathsWith404AndOtherMethodsWith405() throws IOException {
        start(counting());
        String missing = exchange("GET /admin/secrets HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertTrue(missing.startsWith("HTTP/1.1 404 Not Found\r\n"), missing);
        assertTrue(missing.contains("no page at /admin/secrets; this admin server has /status, /status.json and /metrics"), missing);
        String post = exchange("POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi");
        assertTrue(post.startsWith("HTTP/1.1 405 Method Not Allowed\r\n"), post);
        assertTrue(post.contains("allow: GET, HEAD"), post);
        String head = exchange("HEAD /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertTrue(head.startsWith("HTTP/1.1 200 OK\r\n") && head.endsWith("\r\n\r\n"), "HEAD has headers only: " + head);
    }

    @Test
    void refusesOversizedRequestsAndStaysUp() throws IOException {
        start(counting());
        String longLine = exchange("GET /" + "a".repeat(AdminServer.MAX_LINE + 10) + " HTTP/1.1\r\nHost: x\r\n\r\n");
        assertTrue(longLine.startsWith("HTTP/1.1 400 Bad Request\r\n") || longLine.isEmpty(), longLine);
        String bigHeader = exchange("GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + "b".repeat(AdminServer.MAX_HEADERS + 10) + "\r\n\r\n");
        assertTrue(bigHeader.startsWith("HTTP/1.1 400 Bad Request\r\n") || bigHeader.isEmpty(), bigHeader);
        String bigBody = exchange("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: " + (AdminServer.MAX_BODY + 1)
                + "\r\n\r\n" + "c".repeat(AdminServer.MAX_BODY + 1));
        assertTrue(bigBody.startsWith("HTTP/1.1 413 Request Entity Too Large\r\n"), bigBody);
        String after = exchange("GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertTrue(after.startsWith("HTTP/1.1 200 OK\r\n"), "still serving after bad requests: " + after);
    }

    @Test
    void aSourceThatFailsOrNeverAnswersGives503NotAHang() throws IOException {
        start(() -> new CompletableFuture<>());
        String slow = exchange("GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertTrue(slow.startsWith("HTTP/1.1 503 Service Unavailable\r\n"), slow);
        assertTrue(slow.contains("status unavailable: java.util.concurrent.TimeoutException"), slow);
        server.close();
        start(() -> CompletableFuture.failedFuture(new IllegalStateException("the overlay server is closed")));
        String failed = exchange("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertTrue(failed.startsWith("HTTP/1.1 503 Service Unavailable\r\n"), failed);
        assertTrue(failed.contains("the overlay server is closed"), failed);
    }

    @Test
    void aKeptAliveConnectionGetsItsAnswersInOrder() throws IOException {
        start(counting());
        String both = exchange("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\nGET /nothing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        int ok = both.indexOf("HTTP/1.1 200 OK");
        int missing = both.indexOf("HTTP/1.1 404 Not Found");
        assertTrue(ok == 0 && missing > ok, both);
    }

    @Test
    void aClientPipeliningManyRequestsIsCutOffNotQueued() throws IOException {
        start(counting());
        String flood = exchange("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n".repeat(40));
        long answers = flood.lines().filter(l -> l.startsWith("HTTP/1.1 ")).count();
        assertTrue(answers < 40, "at most a few of 40 pipelined requests are answered before the cut: " + answers);
        String after = exchange("GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertTrue(after.startsWith("HTTP/1.1 200 OK\r\n"), "others are still served: " + after);
    }

    @Test
    void aTakenPortIsAClearError() {
        start(counting());
        var e = org.junit.jupiter.api.Assertions.assertThrows(java.io.UncheckedIOException.class,
                () -> AdminServer.start("127.0.0.1", server.address().getPort(),
                        new StatusReports("second", List.of(counting()), Duration.ofSeconds(1))));
        assertTrue(e.getCause().getMessage().startsWith("cannot listen on 127.0.0.1:" + server.address().getPort()
                + " for the admin server"), e.getCause().getMessage());
        assertEquals(java.net.BindException.class, e.getCause().getClass());
    }
}
