package io.riptide.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.netty.channel.nio.NioEventLoopGroup;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.http.CanonicalUrl;
import io.riptide.core.id.Id;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.object.Tombstone;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.dolr.DolrCodec;
import io.riptide.dolr.admin.AdminAction;
import io.riptide.dolr.admin.AdminServer;
import io.riptide.dolr.admin.StatusReports;
import io.riptide.dolr.location.LocateResult;
import io.riptide.dolr.server.OverlayServer;
import io.riptide.dolr.server.ServerSettings;
import io.riptide.gateway.Gateway;
import io.riptide.gateway.GatewayConfig;
import io.riptide.gateway.admin.PurgeAction;
import io.riptide.gateway.origin.OriginFetcher;
import io.riptide.gateway.origin.OriginFetcherConfig;
import io.riptide.gateway.origin.OriginTls;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code riptide purge} against a live gateway over TCP, and the errors an operator can meet. */
class PurgeCommandTest {
    @TempDir
    Path dir;

    @Test
    void purgesACachedUrlAtALiveGatewayAndSaysWhatItDid() throws Exception {
        HttpServer origin = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        origin.createContext("/page", exchange -> {
            byte[] body = "take me down".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Cache-Control", "max-age=300");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        origin.start();
        SigningKey provider = SigningKey.generate(new SecureRandom());
        provider.save(dir.resolve("provider.key"));
        NioEventLoopGroup group = new NioEventLoopGroup(2);
        OriginFetcher fetcher = new OriginFetcher(group, OriginFetcherConfig.defaults().withPrivateOrigins(true),
                OriginTls.systemDefault(), Clock.systemUTC());
        Gateway[] agent = new Gateway[1];
        try (OverlayServer node = OverlayServer.start(ServerSettings.of(SigningKey.generate(new SecureRandom()),
                new NodeAddress("127.0.0.1", 0)), group);
             OverlayServer gateway = OverlayServer.start(ServerSettings.of(SigningKey.generate(new SecureRandom()),
                     new NodeAddress("127.0.0.1", 0)).joining(node.address()).withApplication(n -> {
                         agent[0] = (Gateway) Gateway.factory(provider, fetcher::fetch, GatewayConfig.defaults()).apply(n);
                         return agent[0];
                     }, DolrCodec.create()), group);
             AdminServer admin = AdminServer.start("127.0.0.1", 0, new StatusReports("gateway", List.of(), Duration.ofSeconds(1)),
                     Map.of(PurgeAction.PATH, new PurgeAction(gateway, () -> agent[0])))) {
            assertTrue(gateway.awaitJoined(Duration.ofSeconds(20)));
            Thread.sleep(500); // the gateway offers its service once joined
            String url = "http://127.0.0.1:" + origin.getAddress().getPort() + "/page";
            String key = dir.resolve("provider.key").toString();
            CliRun inserted = CliRun.inspectInserting(url, node.address().toString(), key);
            assertTrue(inserted.out().contains("insert     INSERTED (version 1)"), inserted.out() + inserted.err());

            CliRun purge = new CliRun();
            assertEquals(0, purge.run("purge", url, "--admin", admin.hostPort()), purge.err());
            assertTrue(purge.out().contains(url + " purged: tombstone version 2"), purge.out());
            Id guid = ObjectNames.objectGuid(provider.publicKey(), CanonicalUrl.of(url).value(), "");
            CompletableFuture<LocateResult> read = new CompletableFuture<>();
            node.call(n -> {
                n.read(guid, 16, read::complete);
                return null;
            });
            assertTrue(Tombstone.is(read.get(20, TimeUnit.SECONDS).data()), "the overlay now serves the tombstone");

            CliRun again = new CliRun();
            assertEquals(0, again.run("purge", url, "--admin", admin.hostPort()), again.err());
            assertTrue(again.out().contains("already purged (tombstone version 2)"), again.out());

            CliRun never = new CliRun();
            assertEquals(1, never.run("purge", url + "?never-cached", "--admin", admin.hostPort()));
            assertTrue(never.err().contains("nothing cached for " + url + "?never-cached"), never.err());

            CliRun notAUrl = new CliRun();
            assertEquals(1, notAUrl.run("purge", "ftp://example.org/x", "--admin", admin.hostPort()));
            assertTrue(notAUrl.err().contains("HTTP 400: not a URL this gateway caches"), notAUrl.err());

            // Without the admin field (as a web page's form post would come) the action is refused.
            HttpResponse<String> bare = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://" + admin.hostPort() + "/purge?url=" + url)).POST(HttpRequest.BodyPublishers.noBody())
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(403, bare.statusCode());
            assertTrue(bare.body().contains(AdminAction.HEADER), bare.body());
        } finally {
            fetcher.close();
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
            origin.stop(0);
        }
    }

    @Test
    void saysWhenNoGatewayAnswers() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        CliRun run = new CliRun();
        assertEquals(1, run.run("purge", "http://example.org/", "--admin", "127.0.0.1:" + closed));
        assertTrue(run.err().contains("no gateway answers at 127.0.0.1:" + closed), run.err());
        assertTrue(run.err().contains("--admin-port"), run.err());

        try (AdminServer plainNode = AdminServer.start("127.0.0.1", 0,
                new StatusReports("node", List.of(), Duration.ofSeconds(1)))) {
            CliRun node = new CliRun();
            assertEquals(1, node.run("purge", "http://example.org/", "--admin", plainNode.hostPort()));
            assertTrue(node.err().contains("is not a gateway's"), node.err());
        }
        CliRun usage = new CliRun();
        assertEquals(2, usage.run("purge", "http://example.org/", "--admin", "nowhere"));
        assertTrue(usage.err().contains("--admin: "), usage.err());
    }
}
