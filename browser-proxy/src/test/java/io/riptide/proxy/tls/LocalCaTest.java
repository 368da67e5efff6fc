package io.riptide.proxy.tls;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.net.OriginTrust;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The local CA's files: made once, private key 0600, reloaded as made, never overwritten unasked, refused when shared. */
class LocalCaTest {
    @TempDir
    Path home;

    @Test
    void createsACaCertificateAndAnOwnerOnlyKeyAndLoadsThemBack() throws Exception {
        Path dir = home.resolve("riptide").resolve("ca");
        LocalCa made = LocalCa.create(dir, false);
        assertTrue(Files.isRegularFile(dir.resolve("ca.pem")));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("ca-key.pem"))));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
        assertTrue(Files.readString(dir.resolve("ca.pem")).startsWith("-----BEGIN CERTIFICATE-----"));
        assertTrue(Files.readString(dir.resolve("ca-key.pem")).startsWith("-----BEGIN PRIVATE KEY-----"));

        X509Certificate cert = made.certificate();
        assertEquals(0, cert.getBasicConstraints(), "CA:true with path length 0");
        assertTrue(cert.getKeyUsage()[5], "keyCertSign");
        assertFalse(cert.getKeyUsage()[0], "no digitalSignature: it signs certificates, never a handshake");
        assertEquals(cert.getSubjectX500Principal(), cert.getIssuerX500Principal(), "self-signed");
        cert.verify(cert.getPublicKey());
        assertTrue(cert.getNotAfter().toInstant().isAfter(Instant.now().plus(Duration.ofDays(3000))));
        assertTrue(cert.getSubjectX500Principal().getName().contains("Riptide local CA"));

        LocalCa loaded = LocalCa.load(dir);
        assertArrayEquals(made.certificate().getEncoded(), loaded.certificate().getEncoded());
        assertArrayEquals(made.key().getEncoded(), loaded.key().getEncoded());
        // What browsers import is an ordinary PEM certificate, as any X.509 reader reads it.
        assertEquals(List.of(cert), OriginTrust.readCertificates(loaded.certificateFile()));
        assertFalse(loaded.toString().contains("PRIVATE"), "the key never shows in a log line");
    }

    @Test
    void refusesToReplaceAnExistingCaUnlessForced() throws Exception {
        LocalCa first = LocalCa.create(home, false);
        FileAlreadyExistsException e = assertThrows(FileAlreadyExistsException.class, () -> LocalCa.create(home, false));
        assertTrue(e.getMessage().contains("--force"), e.getMessage());
        assertArrayEquals(first.certificate().getEncoded(), LocalCa.load(home).certificate().getEncoded(), "left as it was");
        LocalCa second = LocalCa.create(home, true);
        assertFalse(java.util.Arrays.equals(first.certificate().getEncoded(), second.certificate().getEncoded()));
        assertArrayEquals(second.certificate().getEncoded(), LocalCa.load(home).certificate().getEncoded());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(home.resolve("ca-key.pem"))));
        try (var files = Files.list(home)) {
            assertEquals(2, files.count(), "no temporary file left behind");
        }
    }

    @Test
    void refusesAKeyOtherUsersCanRead() throws Exception {
        LocalCa.create(home, false);
        Path key = home.resolve("ca-key.pem");
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-r--r--"));
        IOException e = assertThrows(IOException.class, () -> LocalCa.load(home));
        assertTrue(e.getMessage().contains("chmod 600 " + key), e.getMessage());
        assertTrue(e.getMessage().contains("rw-r--r--"), e.getMessage());
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
        LocalCa.load(home);
    }

    @Test
    void aMissingCaSaysToRunCaInit() {
        IOException e = assertThrows(IOException.class, () -> LocalCa.load(home.resolve("nothing")));
        assertTrue(e.getMessage().contains("riptide ca init --dir " + home.resolve("nothing")), e.getMessage());
    }

    @Test
    void aKeyThatIsNotTheCertificatesIsRefused() throws Exception {
        Path a = home.resolve("a");
        Path b = home.resolve("b");
        LocalCa.create(a, false);
        LocalCa.create(b, false);
        Files.copy(b.resolve("ca-key.pem"), a.resolve("ca-key.pem"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        IOException e = assertThrows(IOException.class, () -> LocalCa.load(a));
        assertTrue(e.getMessage().contains("is not the key of"), e.getMessage());
    }
}
