package io.riptide.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.netty.channel.nio.NioEventLoopGroup;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.http.CanonicalUrl;
import io.riptide.core.id.Id;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.dolr.DolrCodec;
import io.riptide.dolr.location.LocateResult;
import io.riptide.dolr.server.OverlayServer;
import io.riptide.dolr.server.ServerSettings;
import io.riptide.gateway.Gateway;
import io.riptide.gateway.GatewayConfig;
import io.riptide.gateway.origin.OriginFetcher;
import io.riptide.gateway.origin.OriginFetcherConfig;
import io.riptide.gateway.origin.OriginTls;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code riptide gateway} and {@code riptide inspect}: their help, their usage errors, and inspect against a live gateway. */
class GatewayAndInspectCommandTest {
    @TempDir
    Path dir;

    private final CliRun cli = new CliRun();

    @Test
    void helpExplainsTheOptions() {
        assertEquals(0, cli.run("gateway", "--help"));
        for (String expected : new String[] {"--key", "provider", "--port", "--join", "--publisher", "HOST=KEY", "--max-object-mb",
            "default: 8"}) {
            assertTrue(cli.out().contains(expected), "gateway help mentions " + expected + ":\n" + cli.out());
        }
        assertEquals(0, cli.run("inspect", "--help"));
        for (String expected : new String[] {"URL", "--join", "--provider", "--insert", "--variant", "Exit codes"}) {
            assertTrue(cli.out().contains(expected), "inspect help mentions " + expected);
        }
    }

    @Test
    void usageErrorsSayWhatIsWrong() throws Exception {
        SigningKey.generate(new SecureRandom()).save(dir.resolve("p.key"));
        assertEquals(2, cli.run("inspect", "ftp://example.org/x", "--join", "127.0.0.1:1", "--provider", dir.resolve("p.key").toString()));
        assertTrue(cli.err().contains("URL: "), cli.err());
        assertEquals(2, cli.run("inspect", "http://example.org/", "--join", "nowhere", "--provider", dir.resolve("p.key").toString()));
        assertTrue(cli.err().contains("--join: expected HOST:PORT, got 'nowhere'"), cli.err());
        assertEquals(2, cli.run("gateway", "--key", dir.resolve("g.key").toString(), "--port", "0", "--max-object-mb", "99"));
        assertTrue(cli.err().contains("--max-object-mb must be between 1 and 14, got 99"), cli.err());
        assertEquals(2, cli.run("gateway", "--key", dir.resolve("g.key").toString(), "--port", "0", "--store-policy", "setmem"));
        assertTrue(cli.err().contains("riptide gateway: --store-policy configures the disk store: give --store DIR too"), cli.err());
        assertEquals(2, cli.run("gateway", "--key", dir.resolve("g.key").toString(), "--port", "0",
                "--publisher", "news.example.org=ed25519:not-a-key"));
        assertTrue(cli.err().contains("riptide gateway: --publisher: not an Ed25519 public key"), cli.err());
    }

    @Test
    void inspectInsertsThroughTheGatewayAndShowsTheVerifiedObject() throws Exception {
        HttpServer origin = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        String[] content = {"inspect me"};
        origin.createContext("/page", exchange -> {
            byte[] body = content[0].getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Cache-Control", "max-age=300");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        origin.createContext("/varying", exchange -> {
            byte[] body = "it depends".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Cache-Control", "max-age=300");
            exchange.getResponseHeaders().add("Vary", "Accept-Encoding");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        origin.start();
        SigningKey provider = SigningKey.generate(new SecureRandom());
        provider.save(dir.resolve("provider.key"));
        NioEventLoopGroup group = new NioEventLoopGroup(2);
        // The origin is on loopback, which a gateway fetches only when private origins are allowed.
        OriginFetcher fetcher = new OriginFetcher(group, OriginFetcherConfig.defaults().withPrivateOrigins(true),
                OriginTls.systemDefault(), Clock.systemUTC());
        try (OverlayServer node = OverlayServer.start(ServerSettings.of(SigningKey.generate(new SecureRandom()),
                new NodeAddress("127.0.0.1", 0)), group);
             OverlayServer gateway = OverlayServer.start(ServerSettings.of(SigningKey.generate(new SecureRandom()),
                     new NodeAddress("127.0.0.1", 0)).joining(node.address())
                     .withApplication(Gateway.factory(provider, fetcher::fetch, quickToRefetch()), DolrCodec.create()), group)) {
            assertTrue(gateway.awaitJoined(Duration.ofSeconds(20)));
            Thread.sleep(500); // the gateway offers its service once joined
            String url = "http://127.0.0.1:" + origin.getAddress().getPort() + "/page";
            String join = node.address().toString();
            String key = dir.resolve("provider.key").toString();
            CliRun inserted = CliRun.inspectInserting(url, join, key);
            assertTrue(inserted.out().contains("verified   yes"), () -> inserted.err() + inserted.out());
            String text = inserted.out();
            assertTrue(text.contains("insert     INSERTED (version 1)"), text);
            assertTrue(text.contains("version    1"), text);
            assertTrue(text.toLowerCase().contains("header     cache-control: max-age=300"), text);
            assertTrue(text.contains("body       10 bytes"), text);
            assertTrue(text.contains("freshness  lifetime 300 s"), text);
            assertTrue(text.contains("verified   yes"), text);
            assertTrue(text.contains("replicas   1 found"), text);
            assertTrue(text.contains("@" + gateway.address() + ": version 1 (current)"), text);
            assertTrue(text.contains("current    version 1"), text);

            // A node keeps a copy of version 1 while the gateway inserts version 2: inspect shows both holders.
            Id guid = ObjectNames.objectGuid(provider.publicKey(), CanonicalUrl.of(url).value(), "");
            CompletableFuture<LocateResult> v1 = new CompletableFuture<>();
            node.call(n -> {
                n.read(guid, 16, v1::complete);
                return null;
            });
            assertTrue(node.storeReplica(guid, v1.get(20, TimeUnit.SECONDS).data()).get(10, TimeUnit.SECONDS));
            content[0] = "inspect me again";
            Thread.sleep(300); // past the gateway's recent-results window
            CliRun updated = CliRun.inspectInserting(url, join, key);
            String both = updated.out();
            assertTrue(both.contains("insert     INSERTED (version 2)"), both);
            assertTrue(both.contains("replicas   2 found"), both);
            assertTrue(both.contains("@" + gateway.address() + ": version 2 (current)"), both);
            assertTrue(both.contains("@" + node.address() + ": version 1 (superseded by version 2)"), both);
            assertTrue(both.contains("current    version 2 (the newest that verifies, held by 1 of 2)"), both);

            // A varying URL: its base GUID holds the provider's variant record, each variant its own GUID.
            CliRun varying = new CliRun();
            String varyingUrl = "http://127.0.0.1:" + origin.getAddress().getPort() + "/varying";
            assertEquals(0, varying.run("inspect", varyingUrl, "--join", join, "--provider", key, "--insert"), varying.err());
            assertTrue(varying.out().contains("varies on  accept-encoding (variant record version 1"), varying.out());
            assertTrue(varying.out().contains("verified   yes"), varying.out());
            CliRun variant = new CliRun();
            assertEquals(0, variant.run("inspect", varyingUrl, "--join", join, "--provider", key, "--variant", "accept-encoding"),
                    variant.err());
            assertTrue(variant.out().contains("body       10 bytes"), "the variant inspect inserted, without Accept-Encoding: "
                    + variant.out());

            CliRun missing = new CliRun();
            assertEquals(3, missing.run("inspect", url + "?other", "--join", join, "--provider", key), missing.err());
            assertTrue(missing.out().contains("replica    none found (NOT_FOUND)"), missing.out());
        } finally {
            fetcher.close();
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
            origin.stop(0);
        }
    }

    /** Gateway defaults, but a finished insert answers new requests for only 100 ms, so a test may refetch soon. */
    private static GatewayConfig quickToRefetch() {
        GatewayConfig d = GatewayConfig.defaults();
        return new GatewayConfig(d.maxJobs(), d.leaseTtl(), Duration.ofMillis(100), d.maxObjectBytes(), d.monitorAfterStale(),
                d.staleWindow(), d.minMonitorInterval(), d.maxMonitorInterval(), d.maxMonitors(), d.publishers(), d.pushClockSkew());
    }
}
