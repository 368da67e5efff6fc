package io.riptide.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.riptide.core.testing.Await;
import io.riptide.proxy.tls.InterceptPolicy;
import io.riptide.proxy.tls.Interception;
import io.riptide.proxy.tls.LocalCa;
import io.riptide.proxy.tls.TestCertificates;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTPS interception over TCP on loopback: a browser-like client that trusts the proxy's local CA does
 * CONNECT, TLS and GET through the proxy to an HTTPS origin whose certificate a CA of its own signed.
 */
@Timeout(60)
class HttpsInterceptionTest {
    @TempDir
    Path dir;
    /** The proxy's local CA: what the browser trusts. */
    private LocalCa proxyCa;
    /** The origin's CA: what the proxy must be told to trust (--origin-ca), as no system store has it. */
    private LocalCa originCa;
    private HttpsServer origin;
    private final ExecutorService originThreads = Executors.newCachedThreadPool();
    private final AtomicInteger originRequests = new AtomicInteger();
    private final List<String> originHosts = new CopyOnWriteArrayList<>();
    private ProxyServer proxy;
    private RecordingCache cache;

    @BeforeEach
    void setUp() throws Exception {
        proxyCa = LocalCa.create(dir.resolve("proxy-ca"), false);
        originCa = LocalCa.create(dir.resolve("origin-ca"), false);
        cache = RecordingCache.missing();
    }

    /** Starts the origin with a certificate for {@code name} from its CA. */
    private void startOrigin(String name) throws Exception {
        origin = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        origin.setHttpsConfigurator(new HttpsConfigurator(TestCertificates.server(originCa, name)));
        origin.setExecutor(originThreads);
        origin.createContext("/", x -> {
            originRequests.incrementAndGet();
            originHosts.add(x.getRequestHeaders().getFirst("Host"));
            byte[] body = ("secure " + x.getRequestURI().getPath()).getBytes(StandardCharsets.UTF_8);
            x.getResponseHeaders().set("Content-Type", "text/plain");
            x.getResponseHeaders().set("Cache-Control", "max-age=60");
            x.sendResponseHeaders(200, body.length);
            try (OutputStream out = x.getResponseBody()) {
                out.write(body);
            }
        });
        origin.start();
    }

    @AfterEach
    void tearDown() {
        if (proxy != null) {
            proxy.close();
        }
        if (origin != null) {
            origin.stop(0);
        }
        originThreads.shutdownNow();
    }

    private void startProxy(String intercept, List<Path> originTrust) throws Exception {
        if (origin == null) {
            startOrigin("127.0.0.1");
        }
        Interception interception = Interception.of(InterceptPolicy.parse(List.of(intercept)), proxyCa, originTrust);
        proxy = ProxyServer.start(ProxyConfig.builder().port(0).tunnelPorts(Set.of()).interception(interception).build(), cache);
    }

    private String url(String path) {
        return "https://127.0.0.1:" + origin.getAddress().getPort() + path;
    }

    /** A client going through the proxy and trusting {@code ca} alone, as a browser with only that CA imported. */
    private HttpClient browser(LocalCa ca) throws Exception {
        return HttpClient.newBuilder().proxy(ProxySelector.of(proxy.address())).sslContext(TestCertificates.trusting(ca))
                .version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    }

    private static HttpResponse<String> get(HttpClient client, String url, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(15));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void anInterceptedRequestIsLookedUpUnderItsHttpsUrlAndAnsweredByTheVerifiedOrigin() throws Exception {
        startProxy("127.0.0.1", List.of(originCa.certificateFile()));
        HttpClient browser = browser(proxyCa);
        HttpResponse<String> r = get(browser, url("/page"));
        assertEquals(200, r.statusCode());
        assertEquals("secure /page", r.body());
        assertEquals("riptide; fwd=miss", r.headers().firstValue("Cache-Status").orElseThrow());
        assertTrue(r.headers().firstValue("Via").orElseThrow().contains("riptide"));
        assertEquals(URI.create(url("/page")), cache.lookups.get(0).url(), "the cache saw the https URL");
        Await.until("the cache hears of the origin's answer", () -> cache.originResponses.size() == 1);
        // The certificate the client accepted is the proxy's: it trusts nothing else.
        assertEquals(1, proxy.stats().intercepted());
        assertEquals(1, proxy.stats().leavesMinted());
        assertEquals(List.of("127.0.0.1:" + origin.getAddress().getPort()), originHosts);

        HttpResponse<String> again = get(browser, url("/other?q=1"));
        assertEquals("secure /other", again.body());
        assertEquals(URI.create(url("/other?q=1")), cache.lookups.get(1).url());
        assertEquals(1, proxy.stats().leavesMinted(), "one leaf per name, minted once");
        assertEquals(0, proxy.stats().tunnels());
        assertEquals(0, proxy.stats().originCertificatesRefused());
    }

    @Test
    void anOriginWhoseCertificateDoesNotVerifyGetsA502SayingWhyAndNothingIsLookedUpOrStored() throws Exception {
        startProxy("all", List.of()); // the system trust store alone: the origin's CA is in none
        HttpResponse<String> r = get(browser(proxyCa), url("/page"));
        assertEquals(502, r.statusCode());
        assertTrue(r.body().contains("the certificate of origin " + url("").replaceAll("/$", "") + " did not verify"), r.body());
        assertTrue(r.body().contains("certification path"), r.body());
        assertTrue(r.body().contains("nothing from this origin was served or cached"), r.body());
        assertTrue(r.body().contains("--origin-ca"), r.body());
        assertEquals("no-store", r.headers().firstValue("Cache-Control").orElseThrow());
        assertEquals(0, originRequests.get(), "no request reaches an origin before its certificate verified");
        assertTrue(cache.lookups.isEmpty(), "nothing looked up");
        assertTrue(cache.originResponses.isEmpty(), "nothing stored");
        assertTrue(proxy.stats().originCertificatesRefused() >= 1);
    }

    @Test
    void anOriginCertificateForAnotherNameDoesNotVerifyEither() throws Exception {
        startOrigin("other.example");
        startProxy("all", List.of(originCa.certificateFile()));
        HttpResponse<String> r = get(browser(proxyCa), url("/page"));
        assertEquals(502, r.statusCode());
        assertTrue(r.body().contains("did not verify"), r.body());
        assertTrue(r.body().contains("127.0.0.1"), r.body());
        assertEquals(0, originRequests.get());
    }

    @Test
    void aHostNotInTheListIsTunnelledUntouched() throws Exception {
        startProxy("example.org", List.of(originCa.certificateFile()));
        // A client trusting only the origin's CA succeeds: it saw the origin's own certificate, end to end.
        HttpResponse<String> r = get(browser(originCa), url("/page"));
        assertEquals(200, r.statusCode());
        assertEquals("secure /page", r.body());
        assertTrue(r.headers().firstValue("Cache-Status").isEmpty(), "the proxy never saw inside");
        assertEquals(1, proxy.stats().tunnels());
        assertEquals(0, proxy.stats().intercepted());
        assertTrue(cache.lookups.isEmpty());
        // And one trusting only the proxy's CA fails: no leaf of the proxy's was shown.
        assertThrows(SSLHandshakeException.class, () -> get(browser(proxyCa), url("/page")));
    }

    @Test
    void aBrowserThatDoesNotTrustTheLocalCaRefusesTheConnectionAndNothingIsFetched() throws Exception {
        startProxy("all", List.of(originCa.certificateFile()));
        assertThrows(SSLHandshakeException.class, () -> get(browser(originCa), url("/page")));
        assertTrue(cache.lookups.isEmpty());
        assertEquals(0, originRequests.get());
    }

    @Test
    void requestsWithCredentialsOrCookiesBypassTheCache() throws Exception {
        startProxy("127.0.0.1", List.of(originCa.certificateFile()));
        HttpClient browser = browser(proxyCa);
        HttpResponse<String> auth = get(browser, url("/private"), "Authorization", "Bearer secret");
        assertEquals(200, auth.statusCode());
        assertEquals("riptide; fwd=bypass; detail=credentials", auth.headers().firstValue("Cache-Status").orElseThrow());
        HttpResponse<String> cookie = get(browser, url("/private"), "Cookie", "session=1");
        assertEquals("riptide; fwd=bypass; detail=cookie", cookie.headers().firstValue("Cache-Status").orElseThrow());
        assertTrue(cache.lookups.isEmpty(), "neither was looked up");
        assertTrue(cache.originResponses.isEmpty(), "nor offered to the cache");
        assertEquals(2, originRequests.get());
    }

    @Test
    void aHostFieldNamingAnotherHostIsRefusedNotFollowed() throws Exception {
        startProxy("127.0.0.1", List.of(originCa.certificateFile()));
        int port = origin.getAddress().getPort();
        try (Socket raw = new Socket("127.0.0.1", proxy.address().getPort())) {
            raw.setSoTimeout(10_000);
            raw.getOutputStream().write(("CONNECT 127.0.0.1:" + port + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            BufferedReader head = new BufferedReader(new InputStreamReader(raw.getInputStream(), StandardCharsets.US_ASCII), 1);
            assertEquals("HTTP/1.1 200 Connection Established", head.readLine());
            while (!head.readLine().isEmpty()) {
                // the rest of the 200's head
            }
            SSLSocket tls = (SSLSocket) TestCertificates.trusting(proxyCa).getSocketFactory()
                    .createSocket(raw, "127.0.0.1", port, false);
            SSLParameters params = tls.getSSLParameters();
            params.setEndpointIdentificationAlgorithm("HTTPS");
            tls.setSSLParameters(params);
            tls.startHandshake();
            tls.getOutputStream().write("GET /page HTTP/1.1\r\nHost: evil.example\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            String response = new String(tls.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(response.startsWith("HTTP/1.1 400"), response);
            assertTrue(response.contains("Host: evil.example does not name 127.0.0.1:" + port), response);
        }
        assertEquals(0, originRequests.get());
        assertTrue(cache.lookups.isEmpty());
    }

    @Test
    void insideAnInterceptedConnectionTheHeadDeadlineRunsFromTheFirstRequestBytesNotFromTheHandshake() throws Exception {
        startOrigin("127.0.0.1");
        Interception interception = Interception.of(InterceptPolicy.parse(List.of("127.0.0.1")), proxyCa,
                List.of(originCa.certificateFile()));
        proxy = ProxyServer.start(ProxyConfig.builder().port(0).tunnelPorts(Set.of()).interception(interception)
                .requestHeadTimeout(Duration.ofMillis(500)).build(), cache);
        int port = origin.getAddress().getPort();
        try (Socket raw = new Socket("127.0.0.1", proxy.address().getPort())) {
            raw.setSoTimeout(10_000);
            raw.getOutputStream().write(("CONNECT 127.0.0.1:" + port + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            BufferedReader head = new BufferedReader(new InputStreamReader(raw.getInputStream(), StandardCharsets.US_ASCII), 1);
            assertEquals("HTTP/1.1 200 Connection Established", head.readLine());
            while (!head.readLine().isEmpty()) {
                // the rest of the 200's head
            }
            SSLSocket tls = (SSLSocket) TestCertificates.trusting(proxyCa).getSocketFactory()
                    .createSocket(raw, "127.0.0.1", port, false);
            tls.startHandshake();
            // Opened ahead of need and left idle, as browsers do: three deadlines pass with no request begun.
            Thread.sleep(1_500);
            String get = "GET /page HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n\r\n";
            tls.getOutputStream().write(get.getBytes(StandardCharsets.US_ASCII));
            BufferedReader in = new BufferedReader(new InputStreamReader(tls.getInputStream(), StandardCharsets.UTF_8), 1);
            assertEquals("HTTP/1.1 200 OK", in.readLine());
            int length = -1;
            for (String line; !(line = in.readLine()).isEmpty(); ) {
                if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
                    length = Integer.parseInt(line.substring(15).trim());
                }
            }
            char[] body = new char[length];
            assertEquals(length, in.read(body, 0, length));
            assertEquals("secure /page", new String(body));
            // A head begun and left unfinished is cut off.
            tls.getOutputStream().write(get.substring(0, 20).getBytes(StandardCharsets.US_ASCII));
            assertEquals("HTTP/1.1 408 Request Timeout", in.readLine());
        }
        assertEquals(1, proxy.stats().requestHeadTimeouts());
    }

    @Test
    void withoutInterceptionAConnectIsATunnelAsBefore() throws Exception {
        startOrigin("127.0.0.1");
        proxy = ProxyServer.start(ProxyConfig.builder().port(0).tunnelPorts(Set.of()).build(), cache);
        HttpResponse<String> r = get(browser(originCa), url("/page"));
        assertEquals("secure /page", r.body());
        assertEquals(1, proxy.stats().tunnels());
        assertEquals(0, proxy.stats().intercepted());
        assertTrue(cache.lookups.isEmpty());
    }
}
