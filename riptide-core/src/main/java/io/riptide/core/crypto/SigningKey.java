package io.riptide.core.crypto;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;

/**
 * An Ed25519 key pair (Bouncy Castle): signs, and saves to or loads from a small text file.
 *
 * <p>The file holds the 32-byte private seed and the public key, base64, one per labelled line; it is
 * written readable by its owner only. Loading checks that the two belong together.
 */
public final class SigningKey {
    /** Bytes in an Ed25519 signature. */
    public static final int SIGNATURE_BYTES = Ed25519PrivateKeyParameters.SIGNATURE_SIZE;
    private static final String HEADER = "# Riptide Ed25519 key. Keep this file private.";
    private static final String PRIVATE_LABEL = "private: ";
    private static final String PUBLIC_LABEL = "public: ";

    private final Ed25519PrivateKeyParameters privateKey;
    private final PublicKey publicKey;

    private SigningKey(Ed25519PrivateKeyParameters privateKey) {
        this.privateKey = privateKey;
        this.publicKey = PublicKey.fromBytes(privateKey.generatePublicKey().getEncoded());
    }

    /** A fresh key pair from {@code random}. */
    public static SigningKey generate(SecureRandom random) {
        return new SigningKey(new Ed25519PrivateKeyParameters(random));
    }

    /**
     * The key pair whose private seed is {@code seed} (32 bytes). Used by the simulator to give nodes
     * deterministic keys; real nodes use {@link #generate}.
     */
    public static SigningKey fromSeed(byte[] seed) {
        if (seed.length != Ed25519PrivateKeyParameters.KEY_SIZE) {
            throw new IllegalArgumentException("an Ed25519 seed is 32 bytes, got " + seed.length);
        }
        return new SigningKey(new Ed25519PrivateKeyParameters(seed, 0));
    }

    public PublicKey publicKey() {
        return publicKey;
    }

    /** The signature of this key over {@code data}. */
    public byte[] sign(byte[] data) {
        Ed25519Signer signer = new Ed25519Signer();
        signer.init(true, privateKey);
        signer.update(data, 0, data.length);
        return signer.generateSignature();
    }

    /** Writes the key to {@code file}, creating it readable by its owner only where the file system allows. */
    public void save(Path file) throws IOException {
        String text = HEADER + "\n"
                + PRIVATE_LABEL + Base64.getEncoder().encodeToString(privateKey.getEncoded()) + "\n"
                + PUBLIC_LABEL + Base64.getEncoder().encodeToString(publicKey.toBytes()) + "\n";
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.deleteIfExists(file);
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException e) {
            Files.createFile(file);
        }
        Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.TRUNCATE_EXISTING);
    }

    /** Reads a key written by {@link #save}; the error names the file and line that is wrong. */
    public static SigningKey load(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        byte[] seed = null;
        byte[] pub = null;
        int pubLine = 0;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            String where = file + ":" + (i + 1) + ": ";
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (line.startsWith(PRIVATE_LABEL)) {
                seed = base64(line.substring(PRIVATE_LABEL.length()), where);
                if (seed.length != Ed25519PrivateKeyParameters.KEY_SIZE) {
                    throw new IOException(where + "the private seed is " + seed.length + " bytes, expected "
                            + Ed25519PrivateKeyParameters.KEY_SIZE);
                }
            } else if (line.startsWith(PUBLIC_LABEL)) {
                pub = base64(line.substring(PUBLIC_LABEL.length()), where);
                pubLine = i + 1;
            } else {
                throw new IOException(where + "expected 'private: ' or 'public: ', got '" + line + "'");
            }
        }
        if (seed == null) {
            throw new IOException(file + ": no 'private: ' line; is this a Riptide key file?");
        }
        SigningKey key = fromSeed(seed);
        // Compared as bytes: a corrupt line need not even decode to a curve point.
        if (pub != null && !Arrays.equals(pub, key.publicKey().toBytes())) {
            throw new IOException(file + ":" + pubLine + ": the 'public: ' line does not match the private key");
        }
        return key;
    }

    private static byte[] base64(String text, String where) throws IOException {
        try {
            return Base64.getDecoder().decode(text.strip());
        } catch (IllegalArgumentException e) {
            throw new IOException(where + "not valid base64", e);
        }
    }
}
