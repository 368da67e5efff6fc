package io.riptide.cli;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The origin and the users of {@link WanInABoxTest}, as a main to run inside one stub's namespace.
 *
 * <ul>
 *   <li>{@code origin HOST OBJECTS BYTES}: serves {@code /obj/0} .. {@code /obj/OBJECTS-1}, each BYTES
 *       long and fresh for an hour, on HOST and a free port; prints {@code origin URL}, then one
 *       {@code fetch PATH from ADDRESS} line per request, so the test counts fetches per object and per
 *       stub (the stub is in the address), until killed.
 *   <li>{@code crowd PROXYPORT BYTES CONCURRENCY REQUESTS URL...}: one request per URL in turn (the first
 *       readers), then REQUESTS more, CONCURRENCY at a time, round robin over the URLs, all through the
 *       proxy on 127.0.0.1:PROXYPORT; prints one {@code response} line each and exits 0 when every one
 *       was a 200 with the object's BYTES bytes, 1 otherwise. Every request has a timeout, so the run is bounded.
 * </ul>
 */
final class WanAgent {
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private WanAgent() {
    }

    public static void main(String[] args) throws Exception {
        if (args[0].equals("origin")) {
            origin(args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]));
        } else if (args[0].equals("crowd")) {
            int ok = crowd(Integer.parseInt(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]),
                    Integer.parseInt(args[4]), Arrays.asList(args).subList(5, args.length));
            System.exit(ok);
        } else {
            throw new IllegalArgumentException("origin or crowd, not " + args[0]);
        }
    }

    private static void origin(String host, int objects, int bytes) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(host, 0), 64);
        server.createContext("/obj/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            synchronized (System.out) {
                System.out.println("fetch " + path + " from " + exchange.getRemoteAddress().getAddress().getHostAddress());
                System.out.flush();
            }
            int n = index(path, objects);
            if (n < 0) {
                exchange.sendResponseHeaders(404, -1);
                exchange.close();
                return;
            }
            byte[] body = body(n, bytes);
            exchange.getResponseHeaders().add("Content-Type", "application/octet-stream");
            exchange.getResponseHeaders().add("Cache-Control", "max-age=3600");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.setExecutor(Executors.newFixedThreadPool(8));
        server.start();
        System.out.println("origin http://" + host + ":" + server.getAddress().getPort() + "/");
        System.out.flush();
        new CountDownLatch(1).await();
    }

    private static int index(String path, int objects) {
        try {
            int n = Integer.parseInt(path.substring("/obj/".length()));
            return n >= 0 && n < objects ? n : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Object N's body: incompressible-looking bytes, different per object, so no layer can dedupe them. */
    static byte[] body(int n, int bytes) {
        byte[] b = new byte[bytes];
        long x = 0x9E3779B97F4A7C15L * (n + 1);
        for (int i = 0; i < bytes; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            b[i] = (byte) x;
        }
        return b;
    }

    private static int crowd(int proxyPort, int bytes, int concurrency, int requests, List<String> urls) throws Exception {
        HttpClient browser = HttpClient.newBuilder().proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", proxyPort)))
                .connectTimeout(Duration.ofSeconds(5)).build();
        boolean allOk = true;
        // The first readers, one after another: the proxy does not merge concurrent misses for one URL
        // (each would be an origin fetch of its own), so a crowd that arrives at once on a URL nobody has
        // read yet costs the origin one fetch per request in flight; see WanInABoxTest.
        for (String url : urls) {
            allOk &= report("first", get(browser, url, bytes));
        }
        ExecutorService pool = Executors.newFixedThreadPool(concurrency);
        try {
            List<Future<String>> answers = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                String url = urls.get(i % urls.size());
                answers.add(pool.submit(() -> get(browser, url, bytes)));
            }
            for (Future<String> a : answers) {
                allOk &= report("crowd", a.get(REQUEST_TIMEOUT.toSeconds() * 2, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }
        return allOk ? 0 : 1;
    }

    private static boolean report(String phase, String line) {
        System.out.println("response " + phase + " " + line);
        System.out.flush();
        return line.startsWith("200 ok ");
    }

    /** "200 ok BYTES CACHE-STATUS URL", or what went wrong instead. */
    private static String get(HttpClient browser, String url, int bytes) {
        try {
            HttpResponse<byte[]> r = browser.send(HttpRequest.newBuilder(URI.create(url)).timeout(REQUEST_TIMEOUT).GET().build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            String status = r.headers().firstValue("Cache-Status").orElse("(none)");
            int n = Integer.parseInt(url.substring(url.lastIndexOf('/') + 1));
            boolean right = r.statusCode() == 200 && Arrays.equals(r.body(), body(n, bytes));
            return r.statusCode() + (right ? " ok " : " wrong ") + r.body().length + " " + status.replace(' ', '_') + " " + url;
        } catch (Exception e) {
            return "failed " + e.toString().replace('\n', ' ') + " " + url;
        }
    }
}
