package io.riptide.core.net;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * Whom a client trusts when it speaks TLS to origins: the JDK's default trust store (cacerts, or
 * whatever {@code javax.net.ssl.trustStore} names), plus extra certificate authorities read from PEM
 * files, for private deployments and for tests with an origin of their own. The gateway's fetcher and
 * the browser proxy's interception share it, so both judge an origin by the same anchors.
 */
public final class OriginTrust {
    private OriginTrust() {
    }

    /** The JDK's default trust store alone: what a client on the open web should trust. */
    public static TrustManagerFactory system() {
        try {
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init((KeyStore) null);
            return tmf;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot load the JDK's default trust store: " + e.getMessage(), e);
        }
    }

    /**
     * The JDK's default trust store plus every certificate in {@code pemFiles} as an extra anchor;
     * with no files, the same as {@link #system()}.
     *
     * @throws IOException with the file and what is wrong with it, when one cannot be read or holds no certificate
     */
    public static TrustManagerFactory systemPlus(List<Path> pemFiles) throws IOException {
        if (pemFiles.isEmpty()) {
            return system();
        }
        try {
            KeyStore anchors = KeyStore.getInstance(KeyStore.getDefaultType());
            anchors.load(null, null);
            int n = 0;
            for (X509Certificate c : defaultAnchors()) {
                anchors.setCertificateEntry("system-" + n++, c);
            }
            for (Path file : pemFiles) {
                for (X509Certificate c : readCertificates(file)) {
                    anchors.setCertificateEntry("extra-" + n++, c);
                }
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(anchors);
            return tmf;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot build a trust store: " + e.getMessage(), e);
        }
    }

    /** The certificates in a PEM (or DER) file, in order. */
    public static List<X509Certificate> readCertificates(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IOException("no certificate file at " + file);
        }
        List<X509Certificate> certs = new ArrayList<>();
        try (InputStream in = Files.newInputStream(file)) {
            for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                certs.add((X509Certificate) c);
            }
        } catch (CertificateException e) {
            throw new IOException(file + " is not a PEM certificate file: " + e.getMessage(), e);
        }
        if (certs.isEmpty()) {
            throw new IOException(file + " holds no certificate (expected -----BEGIN CERTIFICATE-----)");
        }
        return certs;
    }

    private static List<X509Certificate> defaultAnchors() {
        for (TrustManager tm : system().getTrustManagers()) {
            if (tm instanceof X509TrustManager x) {
                return List.of(x.getAcceptedIssuers());
            }
        }
        return List.of();
    }
}
