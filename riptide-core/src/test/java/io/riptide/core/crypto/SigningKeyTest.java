package io.riptide.core.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SigningKeyTest {
    private static final byte[] DATA = "route me to the nearest replica".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    private static SigningKey key(int seed) {
        byte[] s = new byte[32];
        Arrays.fill(s, (byte) seed);
        return SigningKey.fromSeed(s);
    }

    @Test
    void verifiesItsOwnSignature() {
        SigningKey key = SigningKey.generate(new SecureRandom());
        byte[] sig = key.sign(DATA);
        assertEquals(SigningKey.SIGNATURE_BYTES, sig.length);
        assertTrue(key.publicKey().verify(DATA, sig));
    }

    @Test
    void refusesTamperedDataOrSignatureOrTheWrongKey() {
        SigningKey key = key(1);
        byte[] sig = key.sign(DATA);
        for (int i = 0; i < DATA.length; i++) {
            byte[] tampered = DATA.clone();
            tampered[i] ^= 1;
            assertFalse(key.publicKey().verify(tampered, sig), "data byte " + i);
        }
        for (int i = 0; i < sig.length; i++) {
            byte[] tampered = sig.clone();
            tampered[i] ^= (byte) 0x80;
            assertFalse(key.publicKey().verify(DATA, tampered), "signature byte " + i);
        }
        assertFalse(key.publicKey().verify(DATA, Arrays.copyOf(sig, sig.length - 1)));
        assertFalse(key.publicKey().verify(DATA, null));
        assertFalse(key(2).publicKey().verify(DATA, sig));
    }

    @Test
    void aSeedDeterminesTheKey() {
        assertEquals(key(3).publicKey(), key(3).publicKey());
        assertArrayEquals(key(3).sign(DATA), key(3).sign(DATA), "Ed25519 signatures are deterministic");
        assertNotEquals(key(3).publicKey(), key(4).publicKey());
        assertThrows(IllegalArgumentException.class, () -> SigningKey.fromSeed(new byte[31]));
    }

    @Test
    void nodeIdIsTheFirstTwentyBytesOfTheSha256OfThePublicKey() throws Exception {
        PublicKey pub = key(5).publicKey();
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(pub.toBytes());
        assertEquals(Id.fromBytes(Arrays.copyOf(digest, Id.BYTES)), pub.nodeId());
    }

    @Test
    void publicKeyBytesRoundTrip() {
        PublicKey pub = key(6).publicKey();
        assertEquals(PublicKey.BYTES, pub.toBytes().length);
        PublicKey copy = PublicKey.fromBytes(pub.toBytes());
        assertEquals(pub, copy);
        assertEquals(pub.hashCode(), copy.hashCode());
        assertTrue(pub.toString().startsWith("ed25519:"));
        assertThrows(IllegalArgumentException.class, () -> PublicKey.fromBytes(new byte[31]));
        byte[] exposed = pub.toBytes();
        exposed[0] ^= 1;
        assertEquals(copy, pub, "toBytes hands out a copy");
    }

    @Test
    void savesAndLoadsTheSameKey() throws IOException {
        SigningKey key = SigningKey.generate(new SecureRandom());
        Path file = dir.resolve("nested/dir/node.key");
        key.save(file);
        SigningKey loaded = SigningKey.load(file);
        assertEquals(key.publicKey(), loaded.publicKey());
        assertArrayEquals(key.sign(DATA), loaded.sign(DATA));
        // Saving again over an existing file works and keeps it loadable.
        key(7).save(file);
        assertEquals(key(7).publicKey(), SigningKey.load(file).publicKey());
    }

    @Test
    void theFileIsReadableByItsOwnerOnly() throws IOException {
        Assumptions.assumeTrue(dir.getFileSystem().supportedFileAttributeViews().contains("posix"));
        Path file = dir.resolve("node.key");
        Files.writeString(file, "old");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
        key(8).save(file);
        assertEquals(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE),
                Files.getPosixFilePermissions(file));
    }

    private Path write(String... lines) throws IOException {
        Path file = dir.resolve("bad.key");
        Files.write(file, List.of(lines));
        return file;
    }

    private static String b64(byte[] b) {
        return Base64.getEncoder().encodeToString(b);
    }

    private static String privateLine(int seed) {
        byte[] s = new byte[32];
        Arrays.fill(s, (byte) seed);
        return "private: " + b64(s);
    }

    @Test
    void badBase64NamesFileAndLine() throws IOException {
        Path file = write("# header", privateLine(1), "public: !!!not base64!!!");
        IOException e = assertThrows(IOException.class, () -> SigningKey.load(file));
        assertTrue(e.getMessage().contains(file + ":3:"), e.getMessage());
    }

    @Test
    void anUnknownLineNamesFileAndLine() throws IOException {
        Path file = write("# header", "secret: abc", privateLine(1));
        IOException e = assertThrows(IOException.class, () -> SigningKey.load(file));
        assertTrue(e.getMessage().contains(file + ":2:"), e.getMessage());
    }

    @Test
    void aPrivateSeedOfTheWrongLengthNamesFileAndLine() throws IOException {
        Path file = write("# header", "", "private: " + b64(new byte[31]));
        IOException e = assertThrows(IOException.class, () -> SigningKey.load(file));
        assertTrue(e.getMessage().contains(file + ":3:"), e.getMessage());
    }

    @Test
    void aMissingPrivateLineNamesTheFile() throws IOException {
        Path file = write("# header", "public: " + b64(key(1).publicKey().toBytes()));
        IOException e = assertThrows(IOException.class, () -> SigningKey.load(file));
        assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    }

    @Test
    void aPublicLineOfAnotherKeyIsDetected() throws IOException {
        Path file = write(privateLine(1), "public: " + b64(key(2).publicKey().toBytes()));
        IOException e = assertThrows(IOException.class, () -> SigningKey.load(file));
        assertTrue(e.getMessage().contains(file + ":2:"), e.getMessage());
        assertTrue(e.getMessage().contains("does not match"), e.getMessage());
    }

    @Test
    void aPublicLineOfTheWrongLengthIsDetected() throws IOException {
        Path file = write(privateLine(1), "public: " + b64(new byte[5]));
        IOException e = assertThrows(IOException.class, () -> SigningKey.load(file));
        assertTrue(e.getMessage().contains(file + ":2:"), e.getMessage());
    }

    @Test
    void aPublicLineThatIsNoCurvePointIsAnIoExceptionToo() throws IOException {
        // Not every 32-byte string encodes a point; whatever it is, a wrong public line is a bad file.
        for (int b = 0; b < 256; b++) {
            byte[] bogus = new byte[32];
            Arrays.fill(bogus, (byte) b);
            Path file = write(privateLine(1), "public: " + b64(bogus));
            IOException e = assertThrows(IOException.class, () -> SigningKey.load(file));
            assertTrue(e.getMessage().contains(file + ":2:"), e.getMessage());
        }
    }

    @Test
    void theKeyFileNeedsNoPublicLine() throws IOException {
        Path file = write(privateLine(9));
        assertEquals(key(9).publicKey(), SigningKey.load(file).publicKey());
    }
}
