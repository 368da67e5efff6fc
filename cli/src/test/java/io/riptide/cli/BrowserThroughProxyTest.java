package io.riptide.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.cli.demo.LoopbackRiptide;
import io.riptide.cli.demo.SampleSite;
import io.riptide.proxy.cache.InsertPolicy;
import io.riptide.proxy.cache.OverlayCacheConfig;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A real browser (headless Chromium) loads a page with an image, a style sheet and a script through
 * Riptide's browser proxy: completely the first time, from the origin; and completely the second time
 * with none of those resources reaching the origin, because the overlay served them.
 */
@Timeout(180)
class BrowserThroughProxyTest {
    private static final List<String> RESOURCES = List.of("/index.html", "/style.css", "/app.js", "/pixel.png");

    /**
     * Chromium asks for the gzip variant and {@code makeHit} for the identity one; under the shipped
     * second-sight policy Chromium's first load would be only its variant's first sighting, so these
     * browser tests, which are about the overlay serving a page, ask for an insert on every miss.
     */
    static final OverlayCacheConfig FIRST_MISS_OVERLAY_ONLY = LoopbackRiptide.OVERLAY_ONLY.withInsertPolicy(InsertPolicy.FIRST_MISS);

    @Test
    void thePageLoadsCompletelyAndTheSecondLoadComesFromTheOverlay() throws Exception {
        try (SampleSite site = new SampleSite(0); LoopbackRiptide riptide = new LoopbackRiptide(3, 1, 0, FIRST_MISS_OVERLAY_ONLY)) {
            HeadlessChromium chromium = HeadlessChromium.throughProxy(riptide.proxyAddress(), Duration.ofSeconds(60));
            String page = site.url("/index.html");
            String dom = chromium.dumpDom(page);
            assertTrue(dom.contains("data-loaded=\"yes\""), "the image decoded and the style sheet applied:\n" + dom);
            for (String path : RESOURCES) {
                // The browser's request through the proxy, and perhaps already the gateway's fetch to insert it.
                assertTrue(site.requests(path) >= 1, path + " came from the origin the first time");
            }
            // The first load's misses asked the gateway to insert each resource; wait until the overlay has them all.
            for (String path : RESOURCES) {
                assertTrue(riptide.makeHit(URI.create(site.url(path)), Duration.ofSeconds(20)), path + " inserted");
            }
            int[] before = RESOURCES.stream().mapToInt(site::requests).toArray();
            String again = chromium.dumpDom(page);
            assertTrue(again.contains("data-loaded=\"yes\""), "the second load is complete too:\n" + again);
            for (int i = 0; i < RESOURCES.size(); i++) {
                assertEquals(before[i], site.requests(RESOURCES.get(i)), RESOURCES.get(i) + " was served from the overlay");
            }
            assertTrue(riptide.proxy().server().stats().hits() >= RESOURCES.size(), "the proxy counted the hits");
            Path shot = Path.of("target", "chromium", "page-through-riptide.png");
            Files.deleteIfExists(shot);
            chromium.screenshot(page, shot);
            assertTrue(Files.size(shot) > 1000, "screenshot of " + Files.size(shot) + " bytes");
        }
    }
}
