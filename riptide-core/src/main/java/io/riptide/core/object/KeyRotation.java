package io.riptide.core.object;

import io.riptide.core.crypto.PublicKey;
import io.riptide.core.crypto.SigningKey;
import java.util.Arrays;
import java.util.Objects;

/**
 * A provider's key rotation certificate: the old key's signed statement "{@code newKey} succeeds me,
 * as my {@code serial}th successor, from {@code issuedAtMillis}". A verifier that trusts
 * {@code oldKey} comes to trust {@code newKey} once it has checked this ({@link ProviderTrust}). The
 * old key stays valid: rotation is no flag day, and only a {@link KeyRevocation} ends a key.
 *
 * <p>Signed bytes: {@code string "riptide/key-rotation" | u8 1 | bytes old (32) | bytes new (32) |
 * i64 serial | i64 issued-at ms}. Stored layout: {@code u8 format (1) | bytes old | bytes new |
 * i64 serial | i64 issued-at ms | bytes signature (64)}.
 */
public record KeyRotation(PublicKey oldKey, PublicKey newKey, long serial, long issuedAtMillis, byte[] signature) {
    /** Version of the signed and stored layouts. */
    public static final int FORMAT = 1;
    // Its own domain: no object, heartbeat or revocation signature can pass for a rotation.
    static final String DOMAIN = "riptide/key-rotation";

    public KeyRotation {
        Objects.requireNonNull(oldKey, "old key");
        Objects.requireNonNull(newKey, "new key");
        if (oldKey.equals(newKey)) {
            throw new IllegalArgumentException("a key cannot succeed itself");
        }
        if (serial < 1 || issuedAtMillis < 0) {
            throw new IllegalArgumentException("serials start at 1 and times are not negative: " + serial + ", "
                    + issuedAtMillis);
        }
        signature = Encoding.copyExact(signature, SigningKey.SIGNATURE_BYTES, "signature");
    }

    /** {@code oldKey}'s certificate that {@code newKey} succeeds it. */
    public static KeyRotation sign(SigningKey oldKey, PublicKey newKey, long serial, long issuedAtMillis) {
        KeyRotation unsigned = new KeyRotation(oldKey.publicKey(), newKey, serial, issuedAtMillis,
                new byte[SigningKey.SIGNATURE_BYTES]);
        return new KeyRotation(unsigned.oldKey, newKey, serial, issuedAtMillis, oldKey.sign(unsigned.signedBytes()));
    }

    /** The bytes the old key signs (layout in the class comment). */
    public byte[] signedBytes() {
        return Encoding.write(128, out -> out.string(DOMAIN).u8(FORMAT)
                .bytes(oldKey.toBytes()).bytes(newKey.toBytes()).i64(serial).i64(issuedAtMillis));
    }

    /** Whether the signature is the old key's over {@link #signedBytes()}. */
    public boolean signatureValid() {
        return oldKey.verify(signedBytes(), signature);
    }

    /** The stored form (layout in the class comment). */
    public byte[] toBytes() {
        return Encoding.write(192, out -> out.u8(FORMAT).bytes(oldKey.toBytes()).bytes(newKey.toBytes())
                .i64(serial).i64(issuedAtMillis).bytes(signature));
    }

    /** Reads the stored form; anything else is refused. */
    public static KeyRotation fromBytes(byte[] data) throws ObjectFormatException {
        return Encoding.read(data, "key rotation", in -> {
            Encoding.formatVersion(in, FORMAT, "key rotation");
            return new KeyRotation(Encoding.publicKey(in), Encoding.publicKey(in), in.i64(), in.i64(),
                    Encoding.fixed(in, SigningKey.SIGNATURE_BYTES, "signature"));
        });
    }

    @Override
    public byte[] signature() {
        return signature.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyRotation r && oldKey.equals(r.oldKey) && newKey.equals(r.newKey) && serial == r.serial
                && issuedAtMillis == r.issuedAtMillis && Arrays.equals(signature, r.signature);
    }

    @Override
    public int hashCode() {
        return newKey.hashCode() * 31 + Arrays.hashCode(signature);
    }

    @Override
    public String toString() {
        return "KeyRotation[" + oldKey + " -> " + newKey + " #" + serial + "]";
    }
}
