package io.riptide.proxy.accesslog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.riptide.proxy.CacheLookup;
import io.riptide.proxy.ProxyConfig;
import io.riptide.proxy.ProxyServer;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The access log: Squid's native format and JSON lines, one per request, written off the event loops. */
class AccessLogTest {
    @Test
    void squidsFormatNamesTheOutcomeAsSquidsLogToolsExpect() {
        AccessRecord memoryHit = new AccessRecord(1_764_115_200_123L, 2, "127.0.0.1", "GET", "http://example.com/a.css", 200, 1024,
                "hit; detail=memory", "text/css; charset=utf-8");
        assertEquals("1764115200.123      2 127.0.0.1 TCP_MEM_HIT/200 1024 GET http://example.com/a.css - HIER_NONE/- text/css",
                AccessLogFormat.SQUID.format(memoryHit));
        assertEquals("TCP_HIT", code("hit", 200));
        assertEquals("TCP_MISS", code("fwd=miss; fwd-status=200; detail=not-found", 200));
        assertEquals("TCP_MISS", code("fwd=bypass; fwd-status=200; detail=method", 200));
        assertEquals("TCP_REFRESH_UNMODIFIED", code("fwd=stale; fwd-status=304", 200));
        assertEquals("TCP_REFRESH_MODIFIED", code("fwd=stale; fwd-status=200", 200));
        assertEquals("TCP_TUNNEL", code("tunnel", 200));
        assertEquals("NONE_NONE", code("fwd=miss; detail=not-found", 502));
        assertTrue(AccessLogFormat.SQUID.format(new AccessRecord(0, 0, "::1", "GET", "http://h:8080/x", 200, 1, "fwd=miss", null))
                .endsWith("HIER_DIRECT/h:8080 -"));
    }

    private static String code(String cacheStatus, int status) {
        return AccessLogFormat.squidCode(new AccessRecord(0, 0, "c", "GET", "http://h/", status, 0, cacheStatus, null));
    }

    @Test
    void jsonLinesCarryTheCacheStatusAsSentAndEscapeWhatTheyQuote() {
        assertEquals("{\"time\":5,\"elapsed_ms\":1,\"client\":\"10.0.0.7\",\"method\":\"GET\",\"url\":\"http://h/q?a=\\\"b\\\"\","
                        + "\"status\":200,\"bytes\":3,\"cache_status\":\"hit; detail=memory\",\"content_type\":null}",
                AccessLogFormat.JSON.format(new AccessRecord(5, 1, "10.0.0.7", "GET", "http://h/q?a=\"b\"", 200, 3,
                        "hit; detail=memory", null)));
        assertEquals(AccessLogFormat.JSON, AccessLogFormat.parse(" JSON "));
    }

    @Test
    void everyRequestThroughTheProxyIsALineInTheFile(@TempDir Path dir) throws Exception {
        HttpServer origin = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        origin.createContext("/", x -> {
            byte[] body = "hello".getBytes(StandardCharsets.UTF_8);
            x.getResponseHeaders().set("Content-Type", "text/plain");
            x.sendResponseHeaders(200, body.length);
            x.getResponseBody().write(body);
            x.close();
        });
        origin.start();
        Path file = dir.resolve("logs/access.log");
        AccessLog log = AccessLog.toFile(file, AccessLogFormat.SQUID);
        try (ProxyServer proxy = ProxyServer.start(ProxyConfig.builder().port(0).accessLog(log).build(), CacheLookup.NONE)) {
            HttpClient client = HttpClient.newBuilder().proxy(ProxySelector.of(proxy.address())).build();
            String url = "http://127.0.0.1:" + origin.getAddress().getPort() + "/page";
            for (int i = 0; i < 3; i++) {
                assertEquals("hello", client.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString()).body());
            }
        } finally {
            log.close();
            origin.stop(0);
        }
        List<String> lines = Files.readAllLines(file);
        assertEquals(3, lines.size(), String.join("\n", lines));
        for (String line : lines) {
            assertTrue(line.matches("\\d+\\.\\d{3} +\\d+ 127\\.0\\.0\\.1 TCP_MISS/200 5 GET http://127\\.0\\.0\\.1:\\d+/page - "
                    + "HIER_DIRECT/127\\.0\\.0\\.1:\\d+ text/plain"), line);
        }
        assertEquals(0, log.dropped());
    }
}
