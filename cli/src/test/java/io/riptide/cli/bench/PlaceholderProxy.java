package io.riptide.cli.bench;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Test stand-in for a proxy under test, checking the benchmark harnesses apart from the browser proxy: a blocking,
 * thread-per-connection forward proxy that relays GETs over one keep-alive upstream connection per client connection,
 * and serves from memory any URL given to {@link #makeHits}. Only for exercising the harnesses; its figures say nothing about Riptide.
 */
public final class PlaceholderProxy implements HitProxyUnderTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Set<String> HOP_BY_HOP = Set.of("connection", "keep-alive", "proxy-connection", "transfer-encoding",
            "content-length");
    private final Map<String, HttpResponse> hits = new ConcurrentHashMap<>();
    private final Set<Socket> clients = ConcurrentHashMap.newKeySet();
    private final AtomicLong relayed = new AtomicLong();
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private ServerSocket server;

    @Override
    public InetSocketAddress start() throws IOException {
        server = new ServerSocket(0, 128, InetAddress.getLoopbackAddress());
        threads.execute(this::acceptLoop);
        return new InetSocketAddress("127.0.0.1", server.getLocalPort());
    }

    @Override
    public void makeHits(List<URI> urls) throws IOException {
        for (URI url : urls) {
            try (HttpConnection origin = HttpConnection.open(new InetSocketAddress(url.getHost(), url.getPort()), TIMEOUT)) {
                hits.put(url.toString(), origin.get(url.getRawPath(), url.getAuthority()));
            }
        }
    }

    /** How many requests it forwarded to an origin (hits excluded). */
    public long relayed() {
        return relayed.get();
    }

    @Override
    public String name() {
        return "placeholder";
    }

    @Override
    public void close() {
        try {
            if (server != null) {
                server.close();
            }
        } catch (IOException e) {
            // already closed
        }
        clients.forEach(PlaceholderProxy::closeQuietly);
        threads.shutdownNow();
        try {
            threads.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                client.setTcpNoDelay(true);
                clients.add(client);
                threads.execute(() -> serve(client));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void serve(Socket client) {
        Map<String, HttpConnection> upstream = new HashMap<>();
        try (client) {
            InputStream in = new BufferedInputStream(client.getInputStream());
            OutputStream out = client.getOutputStream();
            for (String head = HttpWire.readHead(in); head != null; head = HttpWire.readHead(in)) {
                String[] requestLine = HttpWire.firstLine(head).split(" ");
                URI url = URI.create(requestLine[1]);
                HttpResponse response = hits.get(url.toString());
                if (response == null) {
                    HttpConnection origin = upstream.computeIfAbsent(url.getAuthority(), a -> open(url));
                    String path = url.getRawQuery() == null ? url.getRawPath() : url.getRawPath() + "?" + url.getRawQuery();
                    response = origin.get(path, url.getAuthority());
                    relayed.incrementAndGet();
                }
                out.write(relayHead(response).getBytes(StandardCharsets.ISO_8859_1));
                out.write(response.body());
                out.flush();
            }
        } catch (IOException | RuntimeException e) {
            // the client went away or sent something this stand-in does not handle: drop the connection
        } finally {
            upstream.values().forEach(HttpConnection::close);
            clients.remove(client);
        }
    }

    private static HttpConnection open(URI url) {
        try {
            return HttpConnection.open(new InetSocketAddress(url.getHost(), url.getPort() < 0 ? 80 : url.getPort()), TIMEOUT);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String relayHead(HttpResponse response) {
        StringBuilder head = new StringBuilder();
        String[] lines = response.head().split("\r\n");
        head.append(lines[0]).append("\r\n");
        for (int i = 1; i < lines.length; i++) {
            String name = lines[i].substring(0, Math.max(0, lines[i].indexOf(':'))).trim().toLowerCase(Locale.ROOT);
            if (!HOP_BY_HOP.contains(name)) {
                head.append(lines[i]).append("\r\n");
            }
        }
        return head.append("Content-Length: ").append(response.body().length).append("\r\n\r\n").toString();
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // already closed
        }
    }
}
