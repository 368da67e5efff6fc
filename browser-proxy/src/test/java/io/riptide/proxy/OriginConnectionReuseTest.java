package io.riptide.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ProxySelector;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Kept-alive origin connections that the origin closes: the proxy retries a bodiless request on a
 * fresh connection and every browser gets the origin's answer. The origin here answers the first
 * request on each connection with keep-alive, then closes the connection when the next one arrives,
 * as origins with short keep-alive timers do. Before, the retry re-added the same handler to the new
 * connection (which Netty refuses): the request hung until the response timeout, or got a 502.
 */
@Timeout(60)
class OriginConnectionReuseTest {
    /** An origin that serves one request per connection and then hangs up on the next. */
    private static final class OneShotOrigin implements AutoCloseable {
        final ServerSocket server = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
        final AtomicInteger answered = new AtomicInteger();
        final ExecutorService pool = Executors.newCachedThreadPool();

        OneShotOrigin() throws IOException {
            pool.execute(() -> {
                while (!server.isClosed()) {
                    try {
                        Socket s = server.accept();
                        pool.execute(() -> serve(s));
                    } catch (IOException e) {
                        return;
                    }
                }
            });
        }

        private void serve(Socket s) {
            try (s) {
                BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.ISO_8859_1));
                String path = readHead(in);
                if (path == null) {
                    return;
                }
                byte[] body = ("answer for " + path).getBytes(StandardCharsets.UTF_8);
                OutputStream out = s.getOutputStream();
                out.write(("HTTP/1.1 200 OK\r\nContent-Length: " + body.length + "\r\nCache-Control: no-store\r\n"
                        + "Connection: keep-alive\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
                out.write(body);
                out.flush();
                answered.incrementAndGet();
                readHead(in); // the next request on this connection: hang up without an answer
            } catch (IOException e) {
                // the proxy closed first
            }
        }

        private static String readHead(BufferedReader in) throws IOException {
            String line = in.readLine();
            if (line == null) {
                return null;
            }
            String path = line.split(" ")[1];
            while ((line = in.readLine()) != null && !line.isEmpty()) {
                // headers; GETs have no body
            }
            return path;
        }

        String url(String path) {
            return "http://127.0.0.1:" + server.getLocalPort() + path;
        }

        @Override
        public void close() throws IOException {
            server.close();
            pool.shutdownNow();
        }
    }

    @Test
    void sequentialRequestsOverConnectionsTheOriginClosesAllGetTheOriginsAnswer() throws Exception {
        try (OneShotOrigin origin = new OneShotOrigin();
                ProxyServer proxy = ProxyServer.start(ProxyConfig.builder().port(0).passThrough(true).build(), CacheLookup.NONE)) {
            HttpClient client = HttpClient.newBuilder().proxy(ProxySelector.of(proxy.address())).build();
            for (int i = 0; i < 8; i++) {
                HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(origin.url("/page/" + i)))
                        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode(), "request " + i + ": " + r.body());
                assertEquals("answer for /page/" + i, r.body());
            }
        }
    }

    @Test
    void manyConcurrentMissesOverPooledConnectionsAllGetTheOriginsAnswer() throws Exception {
        try (OneShotOrigin origin = new OneShotOrigin();
                ProxyServer proxy = ProxyServer.start(ProxyConfig.builder().port(0).passThrough(true).build(), CacheLookup.NONE)) {
            HttpClient client = HttpClient.newBuilder().proxy(ProxySelector.of(proxy.address())).build();
            for (int round = 0; round < 4; round++) {
                List<CompletableFuture<HttpResponse<String>>> pending = new ArrayList<>();
                for (int i = 0; i < 40; i++) {
                    pending.add(client.sendAsync(HttpRequest.newBuilder(URI.create(origin.url("/r" + round + "/" + i)))
                            .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString()));
                }
                for (int i = 0; i < pending.size(); i++) {
                    HttpResponse<String> r = pending.get(i).get();
                    assertEquals(200, r.statusCode(), "round " + round + " request " + i + ": " + r.body());
                    assertEquals("answer for /r" + round + "/" + i, r.body());
                }
            }
        }
    }
}
