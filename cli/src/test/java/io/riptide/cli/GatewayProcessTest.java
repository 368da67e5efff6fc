package io.riptide.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.riptide.core.crypto.SigningKey;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code riptide gateway} as a process of its own: it joins a running overlay and serves an insert. */
class GatewayProcessTest {
    private static final Pattern LISTENING = Pattern.compile("node ([0-9a-f]{40}) listening on 127\\.0\\.0\\.1:(\\d+)");
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void aGatewayProcessJoinsAndInsertsWhatAnInspectAsksFor() throws Exception {
        HttpServer origin = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        origin.createContext("/served", exchange -> {
            byte[] body = "from a gateway process".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Cache-Control", "max-age=120");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        origin.start();
        Path key = dir.resolve("provider.key");
        SigningKey.generate(new SecureRandom()).save(key);
        try (NodeProcess node = NodeProcess.start("node", dir, "--port", "0")) {
            Matcher listening = LISTENING.matcher(node.await(l -> LISTENING.matcher(l).matches(), "its address", WAIT));
            assertTrue(listening.matches());
            String join = "127.0.0.1:" + listening.group(2);
            // The origin is on loopback, which a gateway fetches only when told to.
            try (NodeProcess gateway = NodeProcess.command("gateway", dir, "gateway", "--key", key.toString(),
                    "--port", "0", "--join", join, "--allow-private-origins")) {
                gateway.await(("joined the overlay through " + join)::equals, "that it joined", WAIT);
                gateway.await(l -> l.startsWith("private origins allowed"), "that it fetches loopback origins", WAIT);
                gateway.await(l -> l.startsWith("provider key ed25519:"), "its provider key", WAIT);

                String url = "http://127.0.0.1:" + origin.getAddress().getPort() + "/served";
                CliRun inspect = CliRun.inspectInserting(url, join, key.toString());
                String text = inspect.out();
                assertTrue(text.contains("insert     INSERTED (version 1)"), () -> inspect.err() + text);
                assertTrue(text.contains("body       22 bytes"), text);
                assertTrue(text.contains("freshness  lifetime 120 s"), text);
                assertTrue(text.contains("verified   yes"), text);

                assertTrue(gateway.stop(), "stopped on SIGTERM");
                assertTrue(gateway.lines().contains("gateway stopped"), "shut down cleanly: " + gateway.lines());
                assertFalse(gateway.stderr().contains("LEAK"), "no Netty leak reported: " + gateway.stderr());
            }
        } finally {
            origin.stop(0);
        }
    }
}
