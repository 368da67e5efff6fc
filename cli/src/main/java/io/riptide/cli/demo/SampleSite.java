package io.riptide.cli.demo;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small web site on 127.0.0.1 for the demo and the browser tests: a page with an image, a style
 * sheet and a script, all cacheable, and a counter of the requests that reached it (so a second
 * load served from the overlay shows as no new origin requests). Like most real sites, it gzips its
 * style sheet and script for clients that accept gzip and says {@code Vary: Accept-Encoding}, so the
 * overlay holds one variant per encoding.
 */
public final class SampleSite implements AutoCloseable {
    /** A 1x1 PNG. */
    private static final byte[] PIXEL = Base64.getDecoder().decode(
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==");
    private static final String PAGE = """
            <!doctype html>
            <html><head><meta charset="utf-8"><title>Riptide sample page</title>
            <link rel="stylesheet" href="/style.css"></head>
            <body><h1>Served through Riptide</h1>
            <p>This page, its picture, style sheet and script come through the browser proxy.</p>
            <img id="pixel" src="/pixel.png" width="40" height="40" alt="a pixel">
            <script src="/app.js"></script></body></html>
            """;
    private static final String CSS = "h1 { color: rgb(0, 90, 160); } img { border: 2px solid rgb(0, 90, 160); }\n";
    private static final String SCRIPT = """
            window.addEventListener('load', function () {
              var img = document.getElementById('pixel');
              var h1 = document.querySelector('h1');
              var styled = getComputedStyle(h1).color === 'rgb(0, 90, 160)';
              if (img.complete && img.naturalWidth > 0 && styled) {
                document.body.setAttribute('data-loaded', 'yes');
              }
            });
            """;
    private static final Map<String, Resource> RESOURCES = Map.of(
            "/", new Resource("text/html; charset=utf-8", PAGE.getBytes(StandardCharsets.UTF_8)),
            "/index.html", new Resource("text/html; charset=utf-8", PAGE.getBytes(StandardCharsets.UTF_8)),
            "/style.css", new Resource("text/css", CSS.getBytes(StandardCharsets.UTF_8), true),
            "/app.js", new Resource("application/javascript", SCRIPT.getBytes(StandardCharsets.UTF_8), true),
            "/pixel.png", new Resource("image/png", PIXEL));

    /** One file of the site; a {@code compressible} one is gzipped for clients that accept it. */
    private record Resource(String type, byte[] body, boolean compressible) {
        Resource(String type, byte[] body) {
            this(type, body, false);
        }
    }

    private final HttpServer server;
    private final AtomicInteger requests = new AtomicInteger();
    private final java.util.concurrent.ConcurrentHashMap<String, AtomicInteger> byPath = new java.util.concurrent.ConcurrentHashMap<>();

    private final String host;

    /** Starts the site on {@code port} of 127.0.0.1 (0: any free port). */
    public SampleSite(int port) throws IOException {
        this("127.0.0.1", port);
    }

    /** Starts the site on {@code port} of {@code host} (an IPv4 address; port 0: any free port). */
    public SampleSite(String host, int port) throws IOException {
        // Without TCP_NODELAY the JDK server and delayed ACKs add about 40 ms to every response.
        System.setProperty("sun.net.httpserver.nodelay", "true");
        this.host = host;
        server = HttpServer.create(new InetSocketAddress(host, port), 64);
        server.createContext("/", this::serve);
        server.start();
    }

    private void serve(HttpExchange exchange) throws IOException {
        requests.incrementAndGet();
        byPath.computeIfAbsent(exchange.getRequestURI().getPath(), p -> new AtomicInteger()).incrementAndGet();
        Resource r = RESOURCES.get(exchange.getRequestURI().getPath());
        byte[] body = r == null ? "not found\n".getBytes(StandardCharsets.UTF_8) : r.body();
        exchange.getResponseHeaders().add("Content-Type", r == null ? "text/plain" : r.type());
        exchange.getResponseHeaders().add("Cache-Control", "max-age=300");
        if (r != null && r.compressible()) {
            exchange.getResponseHeaders().add("Vary", "Accept-Encoding");
            if (acceptsGzip(exchange)) {
                exchange.getResponseHeaders().add("Content-Encoding", "gzip");
                body = gzip(body);
            }
        }
        exchange.sendResponseHeaders(r == null ? 404 : 200, body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }

    // Enough of RFC 9110 §12.5.3 for a demo: "gzip" listed without q=0.
    private static boolean acceptsGzip(HttpExchange exchange) {
        for (String value : exchange.getRequestHeaders().getOrDefault("Accept-Encoding", java.util.List.of())) {
            for (String coding : value.split(",")) {
                String[] parts = coding.strip().split(";");
                if (parts[0].strip().equalsIgnoreCase("gzip")
                        && !(parts.length > 1 && parts[1].replace(" ", "").matches("q=0(\\.0*)?"))) {
                    return true;
                }
            }
        }
        return false;
    }

    private static byte[] gzip(byte[] data) throws IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        try (java.util.zip.GZIPOutputStream gz = new java.util.zip.GZIPOutputStream(out)) {
            gz.write(data);
        }
        return out.toByteArray();
    }

    /** The URL of {@code path} on this site. */
    public String url(String path) {
        return "http://" + host + ":" + server.getAddress().getPort() + path;
    }

    /** Requests that reached the site so far. */
    public int requests() {
        return requests.get();
    }

    /** Requests for {@code path} that reached the site so far. */
    public int requests(String path) {
        AtomicInteger n = byPath.get(path);
        return n == null ? 0 : n.get();
    }

    @Override
    public void close() {
        server.stop(0);
    }

    /**
     * {@code SampleSite HOST}: the site on HOST and a free port, printing {@code origin URL}, until killed;
     * how {@code riptide demo --wan} runs it inside its ISP's network namespace.
     */
    public static void main(String[] args) throws Exception {
        try (SampleSite site = new SampleSite(args[0], 0)) {
            System.out.println("origin " + site.url("/"));
            System.out.flush();
            new java.util.concurrent.CountDownLatch(1).await();
        }
    }
}
