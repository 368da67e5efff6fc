package io.riptide.proxy.tls;

import java.security.KeyPair;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** Test TLS material from a {@link LocalCa}: a server's SSLContext for one name, and a client's trusting the CA alone. */
public final class TestCertificates {
    private static final char[] PASSWORD = "test".toCharArray();

    private TestCertificates() {
    }

    /** A server context presenting a certificate for {@code name} (DNS name or IP literal) signed by {@code ca}. */
    public static SSLContext server(LocalCa ca, String name) throws Exception {
        KeyPair pair = LocalCa.newP256Key();
        try (LeafCertificates leaves = new LeafCertificates(ca, 1, () -> { })) {
            X509Certificate leaf = leaves.mint(name, pair);
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            ks.setKeyEntry("server", pair.getPrivate(), PASSWORD, new Certificate[] {leaf, ca.certificate()});
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, PASSWORD);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(kmf.getKeyManagers(), null, null);
            return context;
        }
    }

    /** A client context trusting {@code ca} and nothing else. */
    public static SSLContext trusting(LocalCa ca) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        ks.setCertificateEntry("ca", ca.certificate());
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(ks);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, tmf.getTrustManagers(), null);
        return context;
    }
}
