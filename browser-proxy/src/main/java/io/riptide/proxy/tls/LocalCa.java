package io.riptide.proxy.tls;

import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.Set;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.PEMException;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;

/**
 * The user's own certificate authority for HTTPS interception: an ECDSA P-256 key and a self-signed
 * certificate that may sign server certificates only (CA:true, path length 0, keyCertSign), kept as
 * two PEM files in one directory: {@value #CERT_FILE}, which browsers are told to trust, and
 * {@value #KEY_FILE}, readable by its owner alone (0600; a key others can read is refused, as ssh
 * refuses such a key). Whoever holds the key can impersonate any site to a browser that trusts the
 * certificate, so it never leaves this machine and each user makes their own.
 *
 * @param directory   where the two files are
 * @param certificate the CA's certificate
 * @param key         the CA's private key
 */
public record LocalCa(Path directory, X509Certificate certificate, PrivateKey key) {
    public static final String CERT_FILE = "ca.pem";
    public static final String KEY_FILE = "ca-key.pem";
    /** Ten years, as mitmproxy's: a CA the user trusts once, by hand, should not lapse under them. */
    static final Duration VALIDITY = Duration.ofDays(3650);
    static final String SIGNATURE = "SHA256withECDSA";
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    /** The default directory: {@code ~/.riptide/ca}. */
    public static Path defaultDirectory() {
        return Path.of(System.getProperty("user.home"), ".riptide", "ca");
    }

    /** The certificate's file, the one to import into browsers and trust stores. */
    public Path certificateFile() {
        return directory.resolve(CERT_FILE);
    }

    /** The key's file. */
    public Path keyFile() {
        return directory.resolve(KEY_FILE);
    }

    /** Whether {@code directory} holds a CA (either of its files counts, so half a CA is not overwritten unasked). */
    public static boolean exists(Path directory) {
        return Files.exists(directory.resolve(CERT_FILE)) || Files.exists(directory.resolve(KEY_FILE));
    }

    /**
     * Makes a new CA in {@code directory} (created 0700 if missing). Refuses to replace an existing one
     * unless {@code force}: browsers trusting the old certificate would stop trusting this proxy.
     */
    public static LocalCa create(Path directory, boolean force) throws IOException {
        if (!force && exists(directory)) {
            throw new FileAlreadyExistsException(directory.resolve(CERT_FILE).toString(), null,
                    "a CA is already there; --force replaces it (and browsers must then trust the new one)");
        }
        createPrivateDirectory(directory);
        KeyPair pair = newP256Key();
        X509Certificate cert = selfSign(pair, commonName());
        // The key first, born 0600: no moment where it exists readable by others.
        writeAtomically(directory.resolve(KEY_FILE), pkcs8(pair.getPrivate()), true);
        writeAtomically(directory.resolve(CERT_FILE), pem(cert), false);
        return new LocalCa(directory, cert, pair.getPrivate());
    }

    /**
     * Loads the CA in {@code directory}.
     *
     * @throws IOException saying what to do: no CA there ({@code riptide ca init}), a key others can
     *                     read ({@code chmod 600}), or files that do not parse or do not belong together
     */
    public static LocalCa load(Path directory) throws IOException {
        Path certFile = directory.resolve(CERT_FILE);
        Path keyFile = directory.resolve(KEY_FILE);
        if (!Files.isRegularFile(certFile) || !Files.isRegularFile(keyFile)) {
            String init = directory.toAbsolutePath().normalize().equals(defaultDirectory().toAbsolutePath().normalize())
                    ? "riptide ca init" : "riptide ca init --dir " + directory;
            throw new IOException("no local CA in " + directory + " (" + CERT_FILE + " and " + KEY_FILE
                    + "): run `" + init + "` to make one, then trust its certificate in the browser as it explains");
        }
        refuseSharedKey(keyFile);
        X509Certificate cert = readCertificate(certFile);
        PrivateKey key = readKey(keyFile);
        if (!belongTogether(key, cert)) {
            throw new IOException(keyFile + " is not the key of " + certFile + ": make a new CA with `riptide ca init --force`");
        }
        if (cert.getBasicConstraints() < 0) {
            throw new IOException(certFile + " is not a CA certificate (no basicConstraints CA:true)");
        }
        return new LocalCa(directory, cert, key);
    }

    /** The certificate as PEM, as written to {@value #CERT_FILE}. */
    public String certificatePem() {
        try {
            return pem(certificate);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static KeyPair newP256Key() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
            g.initialize(new ECGenParameterSpec("secp256r1"), new SecureRandom());
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM cannot make ECDSA P-256 keys", e);
        }
    }

    /** A random positive 128-bit serial, as the CA/Browser Forum asks (at least 64 bits of randomness). */
    static BigInteger serial(SecureRandom random) {
        return new BigInteger(127, random).add(BigInteger.ONE);
    }

    private static X500Name commonName() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            host = "this machine";
        }
        // Names the machine and the day, so a user who finds it in a trust store knows where it came from.
        return new X500NameBuilder(BCStyle.INSTANCE)
                .addRDN(BCStyle.CN, "Riptide local CA (" + host + ", " + LocalDate.now(ZoneOffset.UTC) + ")")
                .addRDN(BCStyle.O, "Riptide HTTPS interception")
                .build();
    }

    private static X509Certificate selfSign(KeyPair pair, X500Name name) throws IOException {
        Instant now = Instant.now();
        try {
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(name, serial(new SecureRandom()),
                    Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(VALIDITY)), name, pair.getPublic());
            // Path length 0: it signs server certificates, never another CA.
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(0));
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            b.addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(pair.getPublic()));
            X509CertificateHolder h = b.build(new JcaContentSignerBuilder(SIGNATURE).build(pair.getPrivate()));
            return new JcaX509CertificateConverter().getCertificate(h);
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IOException("cannot make the CA certificate: " + e.getMessage(), e);
        }
    }

    private static void createPrivateDirectory(Path directory) throws IOException {
        if (Files.isDirectory(directory)) {
            return;
        }
        if (posix(directory.toAbsolutePath().getParent())) {
            Files.createDirectories(directory.toAbsolutePath().getParent());
            Files.createDirectory(directory, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } else {
            Files.createDirectories(directory);
        }
    }

    private static boolean posix(Path p) {
        Path existing = p;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        return existing != null && Files.getFileAttributeView(existing, PosixFileAttributeView.class) != null;
    }

    private static void writeAtomically(Path target, String text, boolean secret) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        Path tmp = posix(dir) && secret
                ? Files.createTempFile(dir, ".riptide-ca", ".tmp", PosixFilePermissions.asFileAttribute(OWNER_ONLY))
                : Files.createTempFile(dir, ".riptide-ca", ".tmp");
        try {
            Files.writeString(tmp, text, StandardCharsets.US_ASCII);
            if (!secret && posix(dir)) {
                Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-r--r--"));
            }
            try {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static void refuseSharedKey(Path keyFile) throws IOException {
        PosixFileAttributeView view = Files.getFileAttributeView(keyFile, PosixFileAttributeView.class);
        if (view == null) {
            return; // not a POSIX file system: nothing to check
        }
        Set<PosixFilePermission> perms = view.readAttributes().permissions();
        if (perms.contains(PosixFilePermission.GROUP_READ) || perms.contains(PosixFilePermission.OTHERS_READ)
                || perms.contains(PosixFilePermission.GROUP_WRITE) || perms.contains(PosixFilePermission.OTHERS_WRITE)) {
            throw new IOException("the CA key " + keyFile + " is accessible by other users (mode "
                    + PosixFilePermissions.toString(perms) + "): anyone who can read it can impersonate any web site to "
                    + "your browser. Run `chmod 600 " + keyFile + "`, or make a new CA with `riptide ca init --force` if "
                    + "others may have read it");
        }
    }

    private static String pem(Object o) throws IOException {
        StringWriter s = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(s)) {
            w.writeObject(o);
        }
        return s.toString();
    }

    /** The key as unencrypted PKCS#8 ({@code BEGIN PRIVATE KEY}), which openssl, certutil's pk12util and BC all read. */
    private static String pkcs8(PrivateKey key) throws IOException {
        StringWriter s = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(s)) {
            w.writeObject(new JcaPKCS8Generator(key, null));
        }
        return s.toString();
    }

    private static X509Certificate readCertificate(Path file) throws IOException {
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.US_ASCII); PEMParser p = new PEMParser(r)) {
            Object o = p.readObject();
            if (!(o instanceof X509CertificateHolder h)) {
                throw new IOException(file + " holds no PEM certificate");
            }
            return new JcaX509CertificateConverter().getCertificate(h);
        } catch (GeneralSecurityException e) {
            throw new IOException(file + " is not a readable certificate: " + e.getMessage(), e);
        }
    }

    private static PrivateKey readKey(Path file) throws IOException {
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.US_ASCII); PEMParser p = new PEMParser(r)) {
            Object o = p.readObject();
            JcaPEMKeyConverter c = new JcaPEMKeyConverter();
            if (o instanceof PrivateKeyInfo info) {
                return c.getPrivateKey(info);
            }
            if (o instanceof PEMKeyPair pair) {
                return c.getKeyPair(pair).getPrivate();
            }
            throw new IOException(file + " holds no unencrypted PEM private key");
        } catch (PEMException e) {
            throw new IOException(file + " is not a readable key: " + e.getMessage(), e);
        }
    }

    /** Whether {@code key} is the private half of {@code cert}'s key: a probe signed by one verifies with the other. */
    private static boolean belongTogether(PrivateKey key, X509Certificate cert) throws IOException {
        try {
            byte[] probe = "riptide-ca".getBytes(StandardCharsets.US_ASCII);
            Signature s = Signature.getInstance(SIGNATURE);
            s.initSign(key);
            s.update(probe);
            byte[] sig = s.sign();
            Signature v = Signature.getInstance(SIGNATURE);
            v.initVerify(cert.getPublicKey());
            v.update(probe);
            return v.verify(sig);
        } catch (GeneralSecurityException e) {
            throw new IOException("the CA key cannot sign with " + SIGNATURE + ": " + e.getMessage(), e);
        }
    }

    /** Names the files and the subject, never the key. */
    @Override
    public String toString() {
        return "LocalCa[" + certificateFile() + ", " + certificate.getSubjectX500Principal().getName() + "]";
    }
}
