package io.riptide.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.hint.HintMessages.MissHint;
import io.riptide.core.http.CanonicalUrl;
import io.riptide.core.http.Headers;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.testing.Await;
import io.riptide.proxy.cache.InsertPolicy;
import io.riptide.proxy.cache.OverlayCacheConfig;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Miss hints travel through untrusted overlay nodes and make a gateway fetch: they carry only the
 * allow-listed variant-selecting fields, normalised, whatever the origin's Vary names. One real node
 * offers the cache-manager service and records the hints.
 */
@Timeout(60)
class VaryHintTest {
    @Test
    void aHintNeverCarriesAFieldOutsideTheAllowListAndAResponseVaryingOnOneIsNotHinted() throws Exception {
        @SuppressWarnings("unchecked")
        RecordingManager<MissHint>[] manager = new RecordingManager[1];
        try (TestOrigin origin = new TestOrigin()
                .route("/keyed", x -> {
                    x.getResponseHeaders().set("Cache-Control", "max-age=60");
                    x.getResponseHeaders().set("Vary", "Accept-Language, X-Api-Key");
                    TestOrigin.send(x, 200, "for this key");
                })
                .route("/by-language", x -> {
                    x.getResponseHeaders().set("Cache-Control", "max-age=60");
                    x.getResponseHeaders().set("Vary", "Accept-Language");
                    TestOrigin.send(x, 200, "in this language");
                });
                OneNodeOverlay overlay = new OneNodeOverlay((n, provider) ->
                        manager[0] = new RecordingManager<>(n, ObjectNames.cacheManagerGuid(provider), MissHint.class));
                RiptideProxy proxy = overlay.proxy(OverlayCacheConfig.defaults().withInsertPolicy(InsertPolicy.FIRST_MISS))) {
            HttpClient client = HttpClient.newBuilder().proxy(ProxySelector.of(proxy.server().address())).build();
            for (String path : List.of("/keyed", "/by-language")) {
                HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(origin.url(path)))
                        .header("X-Api-Key", "user-token").header("Accept-Language", "EN-GB,  en;q=0.8")
                        .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode());
            }
            String byLanguage = CanonicalUrl.of(origin.url("/by-language")).value();
            Await.until(Duration.ofSeconds(10), "the cache manager hears of the miss",
                    () -> manager[0].hints.stream().anyMatch(h -> h.url().equals(byLanguage)));
            // The keyed response's hint, had there been one, went first over the same connection and would be here.
            assertEquals(1, manager[0].hints.size(), "a response varying on X-Api-Key is not hinted: " + manager[0].hints);
            MissHint hint = manager[0].hints.get(0);
            assertEquals(Headers.of("Accept-Language", "en-gb, en;q=0.8"), hint.requestHeaders(),
                    "only the selecting field, normalised");
            assertTrue(manager[0].hints.stream().noneMatch(h -> h.requestHeaders().contains("X-Api-Key")));
        }
    }
}
