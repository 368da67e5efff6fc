package io.riptide.gateway.origin;

import static io.riptide.gateway.origin.Outcomes.failure;
import static io.riptide.gateway.origin.Outcomes.response;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.riptide.gateway.origin.FetchException.Reason;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.concurrent.TimeUnit;
import org.bouncycastle.asn1.x509.GeneralName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** HTTPS origins: the chain and the host name are both checked. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class OriginTlsTest {
    private static EventLoopGroup group;
    private static TestCa ca;

    @BeforeAll
    static void start() throws Exception {
        group = new NioEventLoopGroup(2);
        ca = new TestCa();
    }

    @AfterAll
    static void stop() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private static OriginFetcher fetcher(OriginTls tls) {
        return new OriginFetcher(group, OriginFetcherConfig.defaults().withPrivateOrigins(true), tls, Clock.systemUTC());
    }

    @Test
    void fetchesFromAnOriginWhoseCertificateIsTrustedAndNamesIt() throws Exception {
        try (OriginFetcher f = fetcher(OriginTls.trusting(ca.trust()));
                TestOrigin origin = new TestOrigin(group, ca.serverFor(new GeneralName(GeneralName.iPAddress, "127.0.0.1")),
                        TestOrigin.ok("secure"))) {
            OriginResponse r = response(f.fetch(OriginRequest.get(origin.url("/s"))));
            assertEquals("secure", new String(r.body(), StandardCharsets.UTF_8));
            assertEquals("https", r.url().getScheme());
            response(f.fetch(OriginRequest.get(origin.url("/s2"))));
            assertEquals(1, f.metrics().connectionsReused(), "TLS connections are kept alive too");
        }
    }

    @Test
    void refusesACertificateTheDefaultTrustStoreDoesNotTrust() throws Exception {
        try (OriginFetcher f = fetcher(OriginTls.systemDefault());
                TestOrigin origin = new TestOrigin(group, ca.serverFor(new GeneralName(GeneralName.iPAddress, "127.0.0.1")),
                        TestOrigin.ok("secure"))) {
            FetchException e = failure(f.fetch(OriginRequest.get(origin.url("/s"))), Reason.TLS_FAILED);
            assertTrue(e.getMessage().startsWith("TLS handshake with origin " + origin.url("/s") + " failed"), e.getMessage());
            assertTrue(e.getMessage().contains("certification path"), e.getMessage());
            assertTrue(origin.seen().isEmpty(), "no request may be sent before the certificate is validated");
        }
    }

    @Test
    void refusesATrustedCertificateForAnotherHost() throws Exception {
        try (OriginFetcher f = fetcher(OriginTls.trusting(ca.trust()));
                TestOrigin origin = new TestOrigin(group, ca.serverFor(new GeneralName(GeneralName.dNSName, "other.example")),
                        TestOrigin.ok("secure"))) {
            FetchException e = failure(f.fetch(OriginRequest.get(origin.url("/s"))), Reason.TLS_FAILED);
            assertTrue(e.getMessage().contains("127.0.0.1"), e.getMessage());
            assertTrue(origin.seen().isEmpty());
        }
    }

    @Test
    void refusesARedirectFromHttpsToHttp() throws Exception {
        try (OriginFetcher f = fetcher(OriginTls.trusting(ca.trust()));
                TestOrigin plain = new TestOrigin(group, null, TestOrigin.ok("insecure"));
                TestOrigin origin = new TestOrigin(group, ca.serverFor(new GeneralName(GeneralName.iPAddress, "127.0.0.1")),
                        (ctx, req) -> ctx.writeAndFlush(TestOrigin.response(HttpResponseStatus.FOUND, "",
                                "Location", plain.url("/x").toString())))) {
            FetchException e = failure(f.fetch(OriginRequest.get(origin.url("/s"))), Reason.INSECURE_REDIRECT);
            assertTrue(e.getMessage().contains("https to http"), e.getMessage());
            assertTrue(plain.seen().isEmpty());
        }
    }
}
