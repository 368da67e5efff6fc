package io.riptide.gateway.origin;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.math.BigInteger;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/** A certificate authority made up for one test run, and origin certificates it issues. */
final class TestCa {
    private final KeyPair key;
    private final X509Certificate cert;
    private long serial = 1;

    TestCa() throws Exception {
        key = newKey();
        X500Name name = new X500Name("CN=Riptide Test CA");
        X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(name, BigInteger.valueOf(serial++),
                Date.from(Instant.now().minus(Duration.ofHours(1))), Date.from(Instant.now().plus(Duration.ofDays(1))),
                name, key.getPublic());
        b.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
        b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
        cert = sign(b);
    }

    private static KeyPair newKey() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(256);
        return g.generateKeyPair();
    }

    private X509Certificate sign(X509v3CertificateBuilder b) throws Exception {
        ContentSigner signer = new JcaContentSignerBuilder("SHA256withECDSA").build(key.getPrivate());
        return new JcaX509CertificateConverter().getCertificate(b.build(signer));
    }

    /** A server context for an origin whose certificate names {@code name} (a GeneralName such as an IP address). */
    SslContext serverFor(GeneralName name) throws Exception {
        KeyPair leafKey = newKey();
        X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(new X500Name("CN=Riptide Test CA"),
                BigInteger.valueOf(serial++), Date.from(Instant.now().minus(Duration.ofHours(1))),
                Date.from(Instant.now().plus(Duration.ofDays(1))), new X500Name("CN=origin"), leafKey.getPublic());
        b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(name));
        b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
        return SslContextBuilder.forServer(leafKey.getPrivate(), sign(b), cert).build();
    }

    /** A trust manager factory trusting only this CA. */
    TrustManagerFactory trust() throws Exception {
        KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
        ks.load(null, null);
        ks.setCertificateEntry("test-ca", cert);
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(ks);
        return tmf;
    }
}
