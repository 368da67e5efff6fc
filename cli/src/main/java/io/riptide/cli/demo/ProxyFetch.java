package io.riptide.cli.demo;

import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * {@code ProxyFetch PROXYPORT URL}: one GET of URL through the proxy on 127.0.0.1:PROXYPORT, printing
 * {@code STATUS, BYTES bytes, Cache-Status: ...}; how {@code riptide demo --wan} browses inside a campus's
 * network namespace, where its proxy is.
 */
final class ProxyFetch {
    private ProxyFetch() {
    }

    public static void main(String[] args) throws Exception {
        HttpClient browser = HttpClient.newBuilder().proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", Integer.parseInt(args[0]))))
                .connectTimeout(Duration.ofSeconds(5)).build();
        HttpResponse<byte[]> r = browser.send(HttpRequest.newBuilder(URI.create(args[1])).timeout(Duration.ofSeconds(20)).GET().build(),
                HttpResponse.BodyHandlers.ofByteArray());
        System.out.println(r.statusCode() + ", " + r.body().length + " bytes, Cache-Status: "
                + r.headers().firstValue("Cache-Status").orElse("(none)"));
    }
}
