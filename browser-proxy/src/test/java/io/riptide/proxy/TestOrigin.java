package io.riptide.proxy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/** A local origin on loopback that records which client connections (by remote port) reached it. */
final class TestOrigin implements AutoCloseable {
    private final HttpServer server;
    private final ExecutorService pool = Executors.newCachedThreadPool();
    final Set<Integer> connections = ConcurrentHashMap.newKeySet();
    final AtomicInteger requests = new AtomicInteger();
    /** Requests a proxy forwarded (they carry its Via); a gateway's fetches, which carry none, are not counted. */
    final AtomicInteger proxied = new AtomicInteger();

    TestOrigin() throws IOException {
        System.setProperty("sun.net.httpserver.nodelay", "true");
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(pool);
        server.start();
    }

    TestOrigin route(String path, HttpHandler handler) {
        server.createContext(path, exchange -> {
            requests.incrementAndGet();
            if (exchange.getRequestHeaders().containsKey("Via")) {
                proxied.incrementAndGet();
            }
            connections.add(exchange.getRemoteAddress().getPort());
            try {
                handler.handle(exchange);
            } finally {
                exchange.close();
            }
        });
        return this;
    }

    String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    int port() {
        return server.getAddress().getPort();
    }

    static void send(HttpExchange x, int status, String body) throws IOException {
        byte[] b = body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        x.getResponseHeaders().set("Content-Type", "text/plain");
        x.sendResponseHeaders(status, b.length == 0 ? -1 : b.length);
        if (b.length > 0) {
            x.getResponseBody().write(b);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        pool.shutdownNow();
    }
}
