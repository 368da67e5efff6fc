package io.riptide.core.crypto;

import io.riptide.core.id.Id;
import java.util.Arrays;
import java.util.Base64;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;

/** An Ed25519 public key: verifies signatures, and names a node ({@link #nodeId()}). */
public final class PublicKey {
    /** Bytes in an encoded Ed25519 public key. */
    public static final int BYTES = Ed25519PublicKeyParameters.KEY_SIZE;

    private final byte[] encoded;
    private final Ed25519PublicKeyParameters params;

    private PublicKey(byte[] encoded) {
        this.encoded = encoded.clone();
        this.params = new Ed25519PublicKeyParameters(this.encoded, 0);
    }

    /**
     * The key whose 32-byte encoding is {@code encoded}.
     *
     * @throws IllegalArgumentException if {@code encoded} is not 32 bytes or not a point on the curve
     */
    public static PublicKey fromBytes(byte[] encoded) {
        if (encoded.length != BYTES) {
            throw new IllegalArgumentException("an Ed25519 public key is " + BYTES + " bytes, got " + encoded.length);
        }
        return new PublicKey(encoded);
    }

    /** Parses the text form {@link #toString()} prints ({@code ed25519:BASE64}), or bare base64. */
    public static PublicKey parse(String text) {
        String b64 = text.strip().startsWith("ed25519:") ? text.strip().substring("ed25519:".length()) : text.strip();
        try {
            return fromBytes(Base64.getDecoder().decode(b64));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not an Ed25519 public key (expected ed25519:BASE64 of 32 bytes): " + text);
        }
    }

    /** The 32-byte encoding. */
    public byte[] toBytes() {
        return encoded.clone();
    }

    /** Whether {@code signature} is this key's signature over {@code data}. Never throws. */
    public boolean verify(byte[] data, byte[] signature) {
        if (signature == null || signature.length != SigningKey.SIGNATURE_BYTES) {
            return false;
        }
        Ed25519Signer verifier = new Ed25519Signer();
        verifier.init(false, params);
        verifier.update(data, 0, data.length);
        return verifier.verifySignature(signature);
    }

    /** The node ID this key names: the first 20 bytes of SHA-256 of the encoded key. */
    public Id nodeId() {
        return Id.hash(encoded);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PublicKey other && Arrays.equals(encoded, other.encoded);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(encoded);
    }

    @Override
    public String toString() {
        return "ed25519:" + Base64.getEncoder().encodeToString(encoded);
    }
}
