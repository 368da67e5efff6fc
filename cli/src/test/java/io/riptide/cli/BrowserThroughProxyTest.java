package io.riptide.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.riptide.cli.bench.PlaceholderProxy;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A real browser loads a page with an image, a stylesheet and a script through a proxy: the page's own script
 * confirms the image decoded and the stylesheet applied. The proxy is the test stand-in until the browser proxy
 * lands; the helper is what the browser proxy's own tests will use.
 */
@Timeout(120)
class BrowserThroughProxyTest {
    private static final String PAGE = """
            <!DOCTYPE html>
            <html><head><title>riptide proxy test</title><link rel="stylesheet" href="/style.css">
            <script src="/app.js"></script></head>
            <body><h1>Through the proxy</h1><div id="box">box</div><img src="/pixel.png" alt="pixel"></body></html>
            """;
    private static final String CSS = "#box { width: 123px; background: #0a7; color: white; }\n";
    // Runs on window load, after the image and the stylesheet; writes the marker only if both really arrived.
    private static final String SCRIPT = """
            window.addEventListener('load', function () {
              var img = document.images[0];
              var styled = getComputedStyle(document.getElementById('box')).width === '123px';
              document.body.dataset.loaded = (img.complete && img.naturalWidth > 0 && styled) ? 'yes' : 'no';
            });
            """;

    private final Set<String> originSaw = ConcurrentHashMap.newKeySet();
    private HttpServer origin;
    private PlaceholderProxy proxy;
    private InetSocketAddress proxyAddress;

    @BeforeEach
    void start() throws Exception {
        Map<String, Object[]> files = Map.of(
                "/index.html", new Object[] {"text/html; charset=utf-8", PAGE.getBytes(StandardCharsets.UTF_8)},
                "/style.css", new Object[] {"text/css", CSS.getBytes(StandardCharsets.UTF_8)},
                "/app.js", new Object[] {"text/javascript", SCRIPT.getBytes(StandardCharsets.UTF_8)},
                "/pixel.png", new Object[] {"image/png", png()});
        origin = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        origin.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            originSaw.add(path);
            Object[] file = files.get(path);
            if (file == null) {
                exchange.sendResponseHeaders(404, -1);
            } else {
                exchange.getResponseHeaders().add("Content-Type", (String) file[0]);
                byte[] body = (byte[]) file[1];
                exchange.sendResponseHeaders(200, body.length);
                exchange.getResponseBody().write(body);
            }
            exchange.close();
        });
        origin.start();
        proxy = new PlaceholderProxy();
        proxyAddress = proxy.start();
    }

    @AfterEach
    void stop() {
        proxy.close();
        origin.stop(0);
    }

    private String pageUrl() {
        return "http://127.0.0.1:" + origin.getAddress().getPort() + "/index.html";
    }

    @Test
    void thePageLoadsWithItsImageStylesheetAndScriptThroughTheProxy() throws Exception {
        HeadlessChromium chromium = HeadlessChromium.throughProxy(proxyAddress, Duration.ofSeconds(60));
        String dom = chromium.dumpDom(pageUrl());
        assertTrue(dom.contains("data-loaded=\"yes\""), dom);
        assertTrue(originSaw.containsAll(List.of("/index.html", "/style.css", "/app.js", "/pixel.png")), originSaw.toString());
        // Every origin request came through the proxy: the browser never bypassed it for loopback.
        assertTrue(proxy.relayed() >= 4, "proxy relayed " + proxy.relayed());
        Path shot = Path.of("target", "chromium", "page-through-proxy.png");
        Files.deleteIfExists(shot);
        chromium.screenshot(pageUrl(), shot);
        assertTrue(Files.size(shot) > 1000, "screenshot of " + Files.size(shot) + " bytes");
    }

    private static byte[] png() throws IOException {
        BufferedImage image = new BufferedImage(40, 20, BufferedImage.TYPE_INT_RGB);
        for (int x = 0; x < 40; x++) {
            for (int y = 0; y < 20; y++) {
                image.setRGB(x, y, (x < 20 ? Color.ORANGE : Color.BLUE).getRGB());
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(image, "png", out);
        return out.toByteArray();
    }
}
