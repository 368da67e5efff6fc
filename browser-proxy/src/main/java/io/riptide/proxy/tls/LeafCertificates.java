package io.riptide.proxy.tls;

import com.github.benmanes.caffeine.cache.AsyncLoadingCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.AsyncMapping;
import io.netty.util.NetUtil;
import io.netty.util.concurrent.Promise;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Server certificates for intercepted hosts, signed by the {@link LocalCa}: one per name a browser
 * asks for (its SNI, or the CONNECT host when it sends none, as for an IP address), with that name as
 * the only subject alternative name (DNS, or IP for an IP literal), an ECDSA P-256 key of its own and
 * a short validity ({@value #VALIDITY_DAYS} days; kept in the cache for a third of that, so a cached
 * leaf always has days left). Minting a leaf (a key pair and a signature, about a millisecond) runs on
 * a thread of its own, never on an event loop; the TLS handshake waits for it through Netty's
 * {@link AsyncMapping}. The cache (Caffeine, bounded by count) also makes concurrent handshakes for
 * one new name wait for one mint rather than make several. Close it to stop the minting thread.
 */
public final class LeafCertificates implements AutoCloseable {
    static final int VALIDITY_DAYS = 3;
    private static final Duration VALIDITY = Duration.ofDays(VALIDITY_DAYS);
    /** Leaves are dated an hour back: a browser whose clock runs a little behind still accepts them. */
    private static final Duration BACKDATE = Duration.ofHours(1);
    private static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

    private final LocalCa ca;
    private final Runnable minted;
    private final SecureRandom random = new SecureRandom();
    private final ExecutorService minter;
    private final AsyncLoadingCache<String, SslContext> cache;

    /**
     * Leaves of {@code ca}, at most {@code maxCached} kept; {@code minted} runs (on the minting
     * thread) once per leaf made, for the proxy's counters.
     */
    public LeafCertificates(LocalCa ca, int maxCached, Runnable minted) {
        this.ca = ca;
        this.minted = minted;
        this.minter = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "riptide-leaf-minter");
            t.setDaemon(true);
            return t;
        });
        this.cache = Caffeine.newBuilder()
                .maximumSize(maxCached)
                .expireAfterWrite(VALIDITY.dividedBy(3))
                .executor(minter)
                .buildAsync(this::context);
    }

    /** The CA the leaves are signed by. */
    public LocalCa ca() {
        return ca;
    }

    /** The server context for {@code name}, minted if it is not cached. */
    public CompletableFuture<SslContext> forName(String name) {
        return cache.get(name);
    }

    /**
     * The SNI mapping for one intercepted connection: the browser's SNI name, or {@code connectHost}
     * when it sent none.
     */
    public AsyncMapping<String, SslContext> mapping(String connectHost) {
        return (String sni, Promise<SslContext> promise) -> {
            String name = sni == null || sni.isEmpty() ? connectHost : sni;
            forName(name).whenComplete((context, error) -> {
                if (error != null) {
                    promise.tryFailure(error);
                } else {
                    promise.trySuccess(context);
                }
            });
            return promise;
        };
    }

    /** Mints the leaf for {@code name} and a server context presenting it with the CA's certificate. */
    private SslContext context(String name) throws GeneralSecurityException, SSLException {
        KeyPair pair = LocalCa.newP256Key();
        X509Certificate leaf = mint(name, pair);
        SslContext context = SslContextBuilder.forServer(pair.getPrivate(), leaf, ca.certificate())
                .sslProvider(SslProvider.JDK)
                .protocols(PROTOCOLS)
                .build();
        minted.run();
        return context;
    }

    /** A leaf for {@code name} over {@code pair}'s public key, signed by the CA. */
    X509Certificate mint(String name, KeyPair pair) throws GeneralSecurityException {
        String host = name.startsWith("[") && name.endsWith("]") ? name.substring(1, name.length() - 1) : name;
        boolean ip = NetUtil.isValidIpV4Address(host) || NetUtil.isValidIpV6Address(host);
        GeneralName san = new GeneralName(ip ? GeneralName.iPAddress : GeneralName.dNSName, host);
        Instant now = Instant.now();
        Instant notAfter = now.plus(VALIDITY);
        Instant caEnds = ca.certificate().getNotAfter().toInstant();
        if (notAfter.isAfter(caEnds)) {
            notAfter = caEnds;
        }
        X500Name subject = new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.CN, host)
                .addRDN(BCStyle.O, "Riptide HTTPS interception").build();
        try {
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(ca.certificate(), LocalCa.serial(random),
                    Date.from(now.minus(BACKDATE)), Date.from(notAfter), subject, pair.getPublic());
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
            b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
            b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(san));
            b.addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(pair.getPublic()));
            b.addExtension(Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(ca.certificate()));
            return new JcaX509CertificateConverter().getCertificate(
                    b.build(new JcaContentSignerBuilder(LocalCa.SIGNATURE).build(ca.key())));
        } catch (OperatorCreationException | java.io.IOException e) {
            throw new GeneralSecurityException("cannot mint a certificate for " + name + ": " + e.getMessage(), e);
        }
    }

    /** Leaves in the cache now (for tests and the status page). */
    public long cached() {
        return cache.synchronous().estimatedSize();
    }

    @Override
    public void close() {
        minter.shutdownNow();
        try {
            minter.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
