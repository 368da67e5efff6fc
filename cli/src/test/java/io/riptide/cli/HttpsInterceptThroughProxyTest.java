package io.riptide.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.netty.handler.ssl.JdkSslContext;
import io.riptide.cli.demo.LoopbackRiptide;
import io.riptide.core.net.OriginTrust;
import io.riptide.gateway.origin.OriginTls;
import io.riptide.proxy.tls.InterceptPolicy;
import io.riptide.proxy.tls.Interception;
import io.riptide.proxy.tls.LeafCertificates;
import io.riptide.proxy.tls.LocalCa;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Headless Chromium, trusting the proxy's local CA through an NSS database this test makes (and
 * nothing else: no --ignore-certificate-errors), loads an https page from a loopback https origin
 * through the proxy with {@code --intercept}: the first load misses and reaches the origin; once the
 * gateway (trusting the origin's own CA) inserted the page and its style sheet, the second load comes
 * from the overlay without reaching the origin.
 */
@Timeout(240)
class HttpsInterceptThroughProxyTest {
    private static final List<String> RESOURCES = List.of("/index.html", "/style.css");

    @TempDir
    Path dir;

    @Test
    void anHttpsPageMissesFirstThenComesFromTheOverlay() throws Exception {
        LocalCa proxyCa = LocalCa.create(dir.resolve("proxy-ca"), false);
        LocalCa originCa = LocalCa.create(dir.resolve("origin-ca"), false);
        Path home = dir.resolve("home");
        makeNssDatabase(home, proxyCa.certificateFile());
        Interception interception = Interception.of(InterceptPolicy.parse(List.of("127.0.0.1")), proxyCa,
                List.of(originCa.certificateFile()));
        OriginTls gatewayTls = OriginTls.trusting(OriginTrust.systemPlus(List.of(originCa.certificateFile())));
        try (HttpsSite site = new HttpsSite(originCa);
                LoopbackRiptide riptide = new LoopbackRiptide(3, 1, 0, gatewayTls,
                        b -> b.interception(interception).tunnelPorts(Set.of()), BrowserThroughProxyTest.FIRST_MISS_OVERLAY_ONLY)) {
            String page = site.url("/index.html");
            HeadlessChromium chromium = HeadlessChromium.throughProxy(riptide.proxyAddress(), Duration.ofSeconds(60));
            // Without the NSS database Chromium refuses the proxy's certificate: it is the database that makes it trusted.
            String refused = chromium.withHome(Files.createDirectories(dir.resolve("empty-home"))).dumpDom(page);
            assertFalse(refused.contains("hello over https"), "an untrusted CA must not load:\n" + refused);
            var stats = riptide.proxy().server().stats();
            assertTrue(stats.intercepted() >= 1, "its CONNECT was intercepted");
            assertEquals(0, stats.misses() + stats.hits() + stats.bypasses(), "but no request followed the refused certificate");
            assertEquals(0, site.proxied("/index.html"), "nothing was fetched for a browser that refused the certificate");

            HeadlessChromium trusting = chromium.withHome(home);
            String dom = trusting.dumpDom(page);
            assertTrue(dom.contains("hello over https"), "the page loaded over the intercepted connection:\n" + dom);
            assertTrue(dom.contains("data-styled=\"yes\""), "and its style sheet applied:\n" + dom);
            for (String path : RESOURCES) {
                assertTrue(site.proxied(path) >= 1, path + " came from the origin the first time, through the proxy");
            }
            long missesAfterFirst = riptide.proxy().server().stats().misses();
            assertTrue(missesAfterFirst >= RESOURCES.size(), "the first load missed: " + missesAfterFirst);
            assertTrue(riptide.proxy().server().stats().intercepted() >= 1);

            // The misses asked the gateway to insert each; wait until the overlay answers for them all.
            HttpClient browser = HttpClient.newBuilder().proxy(ProxySelector.of(riptide.proxyAddress()))
                    .sslContext(trusting(proxyCa)).version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
            for (String path : RESOURCES) {
                assertTrue(makeHit(browser, URI.create(site.url(path)), Duration.ofSeconds(30)), path + " inserted and served as a hit");
            }
            assertTrue(site.gatewayFetches() >= RESOURCES.size(), "the gateway fetched them over verified TLS");
            Map<String, Integer> before = site.snapshot();
            long hitsBefore = riptide.proxy().server().stats().hits();
            String again = trusting.dumpDom(page);
            assertTrue(again.contains("hello over https") && again.contains("data-styled=\"yes\""), "the second load is complete:\n" + again);
            assertEquals(before, site.snapshot(), "the second load reached the origin for nothing");
            assertTrue(riptide.proxy().server().stats().hits() >= hitsBefore + RESOURCES.size(), "the proxy counted the hits");
        }
    }

    /** Fetches {@code url} until its Cache-Status says it came from the overlay. */
    private static boolean makeHit(HttpClient browser, URI url, Duration timeout) throws Exception {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            HttpResponse<String> r = browser.send(HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(20)).build(),
                    HttpResponse.BodyHandlers.ofString());
            String status = r.headers().firstValue("Cache-Status").orElse("");
            if (status.contains("hit") && !status.contains("detail=private")) {
                return true;
            }
            Thread.sleep(100);
        }
        return false;
    }

    /** An NSS database in {@code home/.pki/nssdb} trusting {@code caPem} to identify web sites, as a user's certutil makes it. */
    private static void makeNssDatabase(Path home, Path caPem) throws IOException, InterruptedException {
        Path db = Files.createDirectories(home.resolve(".pki").resolve("nssdb"));
        run(List.of("certutil", "-N", "-d", "sql:" + db, "--empty-password"));
        run(List.of("certutil", "-A", "-d", "sql:" + db, "-t", "C,,", "-n", "riptide-test", "-i", caPem.toString()));
    }

    private static void run(List<String> command) throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new AssertionError("certutil is not installed: apt-get install libnss3-tools (.ci/run does)", e);
        }
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + output);
        }
    }

    private static SSLContext trusting(LocalCa ca) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        ks.setCertificateEntry("ca", ca.certificate());
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(ks);
        SSLContext c = SSLContext.getInstance("TLS");
        c.init(null, tmf.getTrustManagers(), null);
        return c;
    }

    /**
     * A small https site on 127.0.0.1 whose certificate its own CA signed; it counts the requests a
     * proxy forwarded (they carry Via) per path, and the gateway's fetches (which carry none).
     */
    private static final class HttpsSite implements AutoCloseable {
        private final HttpsServer server;
        private final ExecutorService threads = Executors.newCachedThreadPool();
        private final Map<String, AtomicInteger> proxied = new ConcurrentHashMap<>();
        private final AtomicInteger gateway = new AtomicInteger();

        HttpsSite(LocalCa ca) throws Exception {
            SSLContext tls;
            try (LeafCertificates leaves = new LeafCertificates(ca, 1, () -> { })) {
                tls = ((JdkSslContext) leaves.forName("127.0.0.1").get(10, TimeUnit.SECONDS)).context();
            }
            server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.setHttpsConfigurator(new HttpsConfigurator(tls));
            server.setExecutor(threads);
            route("/index.html", "text/html", "<!doctype html><html><head><link rel=\"stylesheet\" href=\"/style.css\"></head>"
                    + "<body><p id=\"msg\">hello over https</p><script>"
                    + "window.addEventListener('load', () => { if (getComputedStyle(document.getElementById('msg')).color"
                    + " === 'rgb(0, 128, 0)') document.body.dataset.styled = 'yes'; });</script></body></html>");
            route("/style.css", "text/css", "#msg { color: rgb(0, 128, 0); }");
            server.start();
        }

        private void route(String path, String type, String body) {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            server.createContext(path, x -> {
                if (x.getRequestHeaders().containsKey("Via")) {
                    proxied.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
                } else {
                    gateway.incrementAndGet();
                }
                x.getResponseHeaders().set("Content-Type", type);
                x.getResponseHeaders().set("Cache-Control", "max-age=300");
                x.sendResponseHeaders(200, bytes.length);
                try (OutputStream out = x.getResponseBody()) {
                    out.write(bytes);
                }
            });
        }

        String url(String path) {
            return "https://127.0.0.1:" + server.getAddress().getPort() + path;
        }

        int proxied(String path) {
            AtomicInteger n = proxied.get(path);
            return n == null ? 0 : n.get();
        }

        int gatewayFetches() {
            return gateway.get();
        }

        Map<String, Integer> snapshot() {
            Map<String, Integer> m = new java.util.TreeMap<>();
            proxied.forEach((k, v) -> m.put(k, v.get()));
            m.put("(gateway)", gateway.get());
            return m;
        }

        @Override
        public void close() {
            server.stop(0);
            threads.shutdownNow();
        }
    }
}
