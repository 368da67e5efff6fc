package io.riptide.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.netty.channel.nio.NioEventLoopGroup;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.http.CanonicalUrl;
import io.riptide.core.id.Id;
import io.riptide.core.object.KeyRecords;
import io.riptide.core.object.KeyRotation;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.object.ProviderTrust;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.dolr.DolrCodec;
import io.riptide.dolr.admin.AdminServer;
import io.riptide.dolr.admin.StatusReports;
import io.riptide.dolr.location.LocateResult;
import io.riptide.dolr.server.OverlayServer;
import io.riptide.dolr.server.ServerSettings;
import io.riptide.gateway.Gateway;
import io.riptide.gateway.GatewayConfig;
import io.riptide.gateway.admin.RevokeAction;
import io.riptide.gateway.origin.OriginFetcher;
import io.riptide.gateway.origin.OriginFetcherConfig;
import io.riptide.gateway.origin.OriginTls;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code riptide keygen --rotate} and {@code riptide revoke} (against a live gateway over TCP), and their errors. */
class RevokeCommandTest {
    @TempDir
    Path dir;

    @Test
    void keygenRotateWritesTheNewKeyAndACertificateThatChains() throws Exception {
        Path old = dir.resolve("provider.key");
        assertEquals(0, new CliRun().run("keygen", "--out", old.toString()));
        Path next = dir.resolve("provider-2.key");
        CliRun rotate = new CliRun();
        assertEquals(0, rotate.run("keygen", "--rotate", old.toString(), "--out", next.toString()), rotate.err());
        Path cert = dir.resolve("provider-2.key.cert");
        assertTrue(rotate.out().contains("Wrote rotation certificate to " + cert.toAbsolutePath()), rotate.out());
        assertTrue(rotate.out().contains("--key-certificate " + cert), rotate.out());
        KeyRecords first = KeyRecords.load(cert);
        SigningKey oldKey = SigningKey.load(old);
        SigningKey nextKey = SigningKey.load(next);
        assertEquals(1, first.rotations().size());
        KeyRotation r = first.rotations().get(0);
        assertEquals(oldKey.publicKey(), r.oldKey());
        assertEquals(nextKey.publicKey(), r.newKey());
        assertTrue(r.signatureValid());

        // A second rotation carries the first on: a proxy trusting the first key trusts the third.
        Path third = dir.resolve("provider-3.key");
        assertEquals(0, new CliRun().run("keygen", "--rotate", next.toString(), "--out", third.toString()));
        KeyRecords chain = KeyRecords.load(dir.resolve("provider-3.key.cert"));
        assertEquals(2, chain.rotations().size());
        ProviderTrust trust = ProviderTrust.of(Set.of(oldKey.publicKey()));
        trust.learn(chain);
        assertTrue(trust.trusts(SigningKey.load(third).publicKey()));

        CliRun exists = new CliRun();
        assertEquals(2, exists.run("keygen", "--rotate", old.toString(), "--out", next.toString()));
        assertTrue(exists.err().contains("already exists"), exists.err());
        CliRun missing = new CliRun();
        assertEquals(2, missing.run("keygen", "--rotate", dir.resolve("nope.key").toString(), "--out",
                dir.resolve("x.key").toString()));
        assertTrue(missing.err().contains("--rotate: no key file at"), missing.err());
        assertFalse(Files.exists(dir.resolve("x.key")), "nothing written on a usage error");
        CliRun certAlone = new CliRun();
        assertEquals(2, certAlone.run("keygen", "--out", dir.resolve("y.key").toString(), "--certificate", "c"));
        assertTrue(certAlone.err().contains("--certificate needs --rotate"), certAlone.err());

        // A gateway refuses a certificate that is not its key's, before it starts anything.
        CliRun wrongCert = new CliRun();
        assertEquals(2, wrongCert.run("gateway", "--key", old.toString(), "--key-certificate", cert.toString(), "--port", "0"));
        assertTrue(wrongCert.err().contains("does not certify the --key"), wrongCert.err());
    }

    @Test
    void revokesAProviderKeyAtALiveGatewayAndRefusesWhatHasNoStanding() throws Exception {
        HttpServer origin = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        origin.createContext("/page", exchange -> {
            byte[] body = "signed by a key about to go".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Cache-Control", "max-age=300");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        origin.start();
        SigningKey provider = SigningKey.generate(new SecureRandom());
        Path keyFile = dir.resolve("provider.key");
        provider.save(keyFile);
        SigningKey stranger = SigningKey.generate(new SecureRandom());
        Path strangerFile = dir.resolve("stranger.key");
        stranger.save(strangerFile);
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
                     Map.of(RevokeAction.PATH, new RevokeAction(gateway, () -> agent[0])))) {
            assertTrue(gateway.awaitJoined(Duration.ofSeconds(20)));
            Thread.sleep(500); // the gateway offers its service once joined
            String url = "http://127.0.0.1:" + origin.getAddress().getPort() + "/page";
            CliRun inserted = CliRun.inspectInserting(url, node.address().toString(), keyFile.toString());
            assertTrue(inserted.out().contains("insert     INSERTED (version 1)"), inserted.out() + inserted.err());

            // Someone else's key, and a key revoked by one that never certified it: refused, nothing published.
            CliRun foreign = new CliRun();
            assertEquals(1, foreign.run("revoke", "--key", strangerFile.toString(), "--admin", admin.hostPort()));
            assertTrue(foreign.err().contains("is not a key of this gateway's provider"), foreign.err());
            CliRun noStanding = new CliRun();
            assertEquals(1, noStanding.run("revoke", "--key", provider.publicKey().toString(), "--by", strangerFile.toString(),
                    "--admin", admin.hostPort()));
            assertTrue(noStanding.err().contains("nor certified it"), noStanding.err());

            Path saved = dir.resolve("revocation.records");
            CliRun revoke = new CliRun();
            assertEquals(0, revoke.run("revoke", "--key", keyFile.toString(), "--admin", admin.hostPort(), "--out",
                    saved.toString()), revoke.err());
            assertTrue(revoke.out().contains(provider.publicKey() + " revoked"), revoke.out());
            assertTrue(revoke.out().contains("sent down 1 dissemination tree(s)"), revoke.out());
            assertTrue(revoke.out().contains("WARNING: this gateway signs with the revoked key"), revoke.out());
            assertEquals(provider.publicKey(), KeyRecords.load(saved).revocations().get(0).revokedKey());

            // The overlay now answers the object's name, and the key-records name, with the revocation.
            for (Id guid : List.of(ObjectNames.objectGuid(provider.publicKey(), CanonicalUrl.of(url).value(), ""),
                    ObjectNames.keyRecordsGuid(provider.publicKey()))) {
                CompletableFuture<LocateResult> read = new CompletableFuture<>();
                node.call(n -> {
                    n.read(guid, 16, read::complete);
                    return null;
                });
                byte[] data = read.get(20, TimeUnit.SECONDS).data();
                assertTrue(KeyRecords.isKeyRecords(data), "the revocation is read at " + guid.shortHex());
                assertEquals(provider.publicKey(), KeyRecords.fromBytes(data).revocations().get(0).revokedKey());
            }

            CliRun inspect = new CliRun();
            inspect.run("inspect", url, "--join", node.address().toString(), "--provider", provider.publicKey().toString());
            assertTrue(inspect.out().contains("revoked    " + provider.publicKey() + " by itself"), inspect.out() + inspect.err());
            assertTrue(inspect.out().contains("key records in place of the object"), inspect.out());

            CliRun again = new CliRun();
            assertEquals(0, again.run("revoke", "--key", keyFile.toString(), "--admin", admin.hostPort()), again.err());
            assertTrue(again.out().contains("was already revoked"), again.out());
        } finally {
            fetcher.close();
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
            origin.stop(0);
        }
    }

    @Test
    void saysWhatIsWrongWithTheCommandLine() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        Path key = dir.resolve("provider.key");
        SigningKey.generate(new SecureRandom()).save(key);
        CliRun nobody = new CliRun();
        assertEquals(1, nobody.run("revoke", "--key", key.toString(), "--admin", "127.0.0.1:" + closed));
        assertTrue(nobody.err().contains("no gateway answers at 127.0.0.1:" + closed), nobody.err());

        CliRun publicOnly = new CliRun();
        assertEquals(2, publicOnly.run("revoke", "--key", SigningKey.generate(new SecureRandom()).publicKey().toString()));
        assertTrue(publicOnly.err().contains("a public key cannot sign its own revocation"), publicOnly.err());
        CliRun certAlone = new CliRun();
        assertEquals(2, certAlone.run("revoke", "--key", key.toString(), "--certificate", key.toString()));
        assertTrue(certAlone.err().contains("--certificate goes with --by"), certAlone.err());
        CliRun missing = new CliRun();
        assertEquals(2, missing.run("revoke", "--key", dir.resolve("nope.key").toString()));
        assertTrue(missing.err().contains("--key: no key file at"), missing.err());
    }
}
