package io.riptide.proxy.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.handler.ssl.SslContext;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertPathValidator;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Leaves minted per name: the name as the only SAN, the CA as issuer, a short validity, one mint per name. */
@Timeout(30)
class LeafCertificatesTest {
    @TempDir
    static Path dir;
    private static LocalCa ca;

    @BeforeAll
    static void makeCa() throws Exception {
        ca = LocalCa.create(dir, false);
    }

    private static X509Certificate mint(String name) throws Exception {
        try (LeafCertificates leaves = new LeafCertificates(ca, 8, () -> { })) {
            return leaves.mint(name, LocalCa.newP256Key());
        }
    }

    @Test
    void aDnsNameIsTheLeafsOnlySubjectAlternativeName() throws Exception {
        X509Certificate leaf = mint("www.example.org");
        assertEquals(List.of(List.of(2, "www.example.org")), sans(leaf));
        assertEquals(ca.certificate().getSubjectX500Principal(), leaf.getIssuerX500Principal());
        leaf.verify(ca.certificate().getPublicKey());
        assertEquals(-1, leaf.getBasicConstraints(), "not a CA");
        assertTrue(leaf.getKeyUsage()[0], "digitalSignature");
        assertEquals(List.of("1.3.6.1.5.5.7.3.1"), leaf.getExtendedKeyUsage(), "serverAuth");
        Instant now = Instant.now();
        assertTrue(leaf.getNotBefore().toInstant().isBefore(now));
        assertTrue(leaf.getNotAfter().toInstant().isBefore(now.plus(Duration.ofDays(LeafCertificates.VALIDITY_DAYS)).plusSeconds(60)));
        assertTrue(leaf.getNotAfter().toInstant().isAfter(now.plus(Duration.ofDays(LeafCertificates.VALIDITY_DAYS - 1))));
        assertEquals("EC", leaf.getPublicKey().getAlgorithm());
    }

    @Test
    void anIpLiteralGetsAnIpAddressSubjectAlternativeName() throws Exception {
        assertEquals(List.of(List.of(7, "127.0.0.1")), sans(mint("127.0.0.1")));
        assertEquals(List.of(List.of(7, "0:0:0:0:0:0:0:1")), sans(mint("::1")));
    }

    @Test
    void theLeafValidatesAsAServerCertificateForItsNameUnderTheCa() throws Exception {
        X509Certificate leaf = mint("shop.example");
        // PKIX path validation with the CA as the only anchor: what a browser trusting it does.
        PKIXParameters params = new PKIXParameters(Set.of(new TrustAnchor(ca.certificate(), null)));
        params.setRevocationEnabled(false);
        CertPathValidator.getInstance("PKIX").validate(
                CertificateFactory.getInstance("X.509").generateCertPath(List.of(leaf)), params);
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        ks.setCertificateEntry("ca", ca.certificate());
        TrustManagerFactory tmf = TrustManagerFactory.getInstance("PKIX");
        tmf.init(ks);
        ((X509TrustManager) tmf.getTrustManagers()[0]).checkServerTrusted(new X509Certificate[] {leaf, ca.certificate()}, "ECDHE_ECDSA");
    }

    @Test
    void eachNameIsMintedOnceAndCached() throws Exception {
        AtomicInteger minted = new AtomicInteger();
        try (LeafCertificates leaves = new LeafCertificates(ca, 8, minted::incrementAndGet)) {
            List<CompletableFuture<SslContext>> same = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                same.add(leaves.forName("a.example"));
            }
            SslContext first = same.get(0).get(10, TimeUnit.SECONDS);
            for (CompletableFuture<SslContext> f : same) {
                assertSame(first, f.get(10, TimeUnit.SECONDS), "concurrent handshakes for one name share one mint");
            }
            assertTrue(first.isServer());
            SslContext other = leaves.forName("b.example").get(10, TimeUnit.SECONDS);
            assertNotSame(first, other);
            assertEquals(2, minted.get());
            assertSame(first, leaves.forName("a.example").get(10, TimeUnit.SECONDS));
            assertEquals(2, minted.get());
        }
    }

    @Test
    void theCacheIsBounded() throws Exception {
        try (LeafCertificates leaves = new LeafCertificates(ca, 4, () -> { })) {
            for (int i = 0; i < 20; i++) {
                leaves.forName("h" + i + ".example").get(10, TimeUnit.SECONDS);
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (leaves.cached() > 4 && System.nanoTime() < deadline) {
                Thread.sleep(20); // Caffeine evicts asynchronously, on the minting thread
            }
            assertTrue(leaves.cached() <= 4, "cached " + leaves.cached());
        }
    }

    @Test
    void aLeafNeverOutlivesItsCa() throws Exception {
        X509Certificate leaf = mint("x.example");
        assertFalse(leaf.getNotAfter().after(ca.certificate().getNotAfter()));
    }

    private static List<List<Object>> sans(X509Certificate c) throws Exception {
        Collection<List<?>> names = c.getSubjectAlternativeNames();
        List<List<Object>> out = new ArrayList<>();
        for (List<?> n : names) {
            out.add(List.of(n.get(0), n.get(1)));
        }
        return out;
    }
}
