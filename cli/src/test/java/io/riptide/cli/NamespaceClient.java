package io.riptide.cli;

import io.riptide.cli.demo.SampleSite;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * The origin and the browser of {@link DiscoveryInNamespaceTest}, as a main to run inside its network
 * namespace: {@code origin} serves the sample site until killed; {@code fetch PROXYPORT URL SECONDS}
 * gets URL through the proxy on 127.0.0.1:PROXYPORT until it is an overlay hit or the time is up,
 * printing one line per response, and exits 0 on a hit, 1 without one.
 */
final class NamespaceClient {
    private NamespaceClient() {
    }

    public static void main(String[] args) throws Exception {
        if (args[0].equals("origin")) {
            try (SampleSite site = new SampleSite(0)) {
                System.out.println("origin " + site.url("/"));
                System.out.flush();
                new CountDownLatch(1).await();
            }
        }
        int proxyPort = Integer.parseInt(args[1]);
        URI url = URI.create(args[2]);
        long deadline = System.nanoTime() + Duration.ofSeconds(Long.parseLong(args[3])).toNanos();
        HttpClient browser = HttpClient.newBuilder().proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", proxyPort)))
                .connectTimeout(Duration.ofSeconds(5)).build();
        for (int i = 1; System.nanoTime() - deadline < 0; i++) {
            HttpResponse<byte[]> r = browser.send(HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(20)).GET().build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            String status = r.headers().firstValue("Cache-Status").orElse("(none)");
            System.out.println("response " + i + ": " + r.statusCode() + ", " + r.body().length + " bytes, Cache-Status: " + status);
            System.out.flush();
            if (status.equals("riptide; hit")) {
                System.exit(0);
            }
            Thread.sleep(500);
        }
        System.exit(1);
    }
}
