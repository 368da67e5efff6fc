package io.riptide.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.riptide.proxy.cache.OverlayCacheConfig;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Request directives (RFC 9111 §5.2.1) against a copy kept in the proxy's memory tier: the tier's
 * shortcut serves only requests without directives, and every directive gets the full judgement.
 */
@Timeout(60)
class MemoryTierDirectivesTest {
    private static HttpResponse<String> fetch(RiptideProxy proxy, String url, String... headers) throws Exception {
        HttpClient client = HttpClient.newBuilder().proxy(ProxySelector.of(proxy.server().address())).build();
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String status(HttpResponse<?> r) {
        return r.headers().firstValue("Cache-Status").orElse("");
    }

    @Test
    void directivesThatAskForValidationGoToTheOriginAndTheOthersAreServedFromMemory() throws Exception {
        try (TestOrigin origin = new TestOrigin().route("/page", x -> TestOrigin.send(x, 200, "from the origin"));
                OneNodeOverlay overlay = new OneNodeOverlay()) {
            overlay.store(origin.url("/page"), "from the overlay"); // fresh for 600 s
            try (RiptideProxy proxy = overlay.proxy(OverlayCacheConfig.defaults())) {
                String url = origin.url("/page");
                fetch(proxy, url);
                assertEquals("riptide; hit; detail=memory", status(fetch(proxy, url)));

                // §5.2.1.4 no-cache, §5.2.1.1 max-age=0, Pragma: the copy is validated with the origin first.
                assertEquals("riptide; fwd=request; fwd-status=200", status(fetch(proxy, url, "Cache-Control", "no-cache")));
                assertEquals("riptide; fwd=request; fwd-status=200", status(fetch(proxy, url, "Cache-Control", "max-age=0")));
                assertEquals("riptide; fwd=request; fwd-status=200", status(fetch(proxy, url, "Pragma", "no-cache")));
                // §5.2.1.3 min-fresh beyond what is left of the lifetime.
                assertEquals("riptide; fwd=request; fwd-status=200", status(fetch(proxy, url, "Cache-Control", "min-fresh=3600")));
                int asked = origin.requests.get();
                assertEquals(4, asked, "each of those asked the origin once");

                // Directives the copy satisfies: answered from memory, the origin not asked.
                assertEquals("riptide; hit; detail=memory", status(fetch(proxy, url, "Cache-Control", "max-age=300")));
                assertEquals("riptide; hit; detail=memory", status(fetch(proxy, url, "Cache-Control", "min-fresh=60")));
                HttpResponse<String> onlyIfCached = fetch(proxy, url, "Cache-Control", "only-if-cached");
                assertEquals("from the overlay", onlyIfCached.body());
                assertEquals("riptide; hit; detail=memory", status(onlyIfCached)); // §5.2.1.7
                assertEquals(asked, origin.requests.get());
            }
        }
    }
}
