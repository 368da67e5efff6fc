package io.riptide.core.object;

import io.riptide.core.crypto.PublicKey;
import io.riptide.core.crypto.SigningKey;
import java.util.Arrays;
import java.util.Objects;

/**
 * A signed statement "{@code revokedKey} is revoked from {@code issuedAtMillis}": whatever it signed
 * is refused from then on by whoever has checked this, copies already stored included. Signed by the
 * revoked key itself, or by the key that certified it ({@link KeyRotation}); a successor cannot
 * revoke its predecessor, so a stolen new key cannot cut the provider off from the key its
 * verifiers were configured with ({@link ProviderTrust} applies the rule).
 *
 * <p>Signed bytes: {@code string "riptide/key-revocation" | u8 1 | bytes revoked (32) | bytes signer
 * (32) | i64 issued-at ms}. Stored layout: {@code u8 format (1) | bytes revoked | bytes signer |
 * i64 issued-at ms | bytes signature (64)}.
 */
public record KeyRevocation(PublicKey revokedKey, PublicKey signer, long issuedAtMillis, byte[] signature) {
    /** Version of the signed and stored layouts. */
    public static final int FORMAT = 1;
    static final String DOMAIN = "riptide/key-revocation";

    public KeyRevocation {
        Objects.requireNonNull(revokedKey, "revoked key");
        Objects.requireNonNull(signer, "signer");
        if (issuedAtMillis < 0) {
            throw new IllegalArgumentException("negative issue time " + issuedAtMillis);
        }
        signature = Encoding.copyExact(signature, SigningKey.SIGNATURE_BYTES, "signature");
    }

    /** {@code signer}'s revocation of {@code revokedKey} (its own key, or one it certified). */
    public static KeyRevocation sign(SigningKey signer, PublicKey revokedKey, long issuedAtMillis) {
        KeyRevocation unsigned = new KeyRevocation(revokedKey, signer.publicKey(), issuedAtMillis,
                new byte[SigningKey.SIGNATURE_BYTES]);
        return new KeyRevocation(revokedKey, signer.publicKey(), issuedAtMillis, signer.sign(unsigned.signedBytes()));
    }

    /** Whether the revoked key signed this itself. */
    public boolean selfSigned() {
        return revokedKey.equals(signer);
    }

    /** The bytes the signer signs (layout in the class comment). */
    public byte[] signedBytes() {
        return Encoding.write(128, out -> out.string(DOMAIN).u8(FORMAT)
                .bytes(revokedKey.toBytes()).bytes(signer.toBytes()).i64(issuedAtMillis));
    }

    /** Whether the signature is the signer's over {@link #signedBytes()}; says nothing of who the signer may revoke. */
    public boolean signatureValid() {
        return signer.verify(signedBytes(), signature);
    }

    /** The stored form (layout in the class comment). */
    public byte[] toBytes() {
        return Encoding.write(192, out -> out.u8(FORMAT).bytes(revokedKey.toBytes()).bytes(signer.toBytes())
                .i64(issuedAtMillis).bytes(signature));
    }

    /** Reads the stored form; anything else is refused. */
    public static KeyRevocation fromBytes(byte[] data) throws ObjectFormatException {
        return Encoding.read(data, "key revocation", in -> {
            Encoding.formatVersion(in, FORMAT, "key revocation");
            return new KeyRevocation(Encoding.publicKey(in), Encoding.publicKey(in), in.i64(),
                    Encoding.fixed(in, SigningKey.SIGNATURE_BYTES, "signature"));
        });
    }

    @Override
    public byte[] signature() {
        return signature.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyRevocation r && revokedKey.equals(r.revokedKey) && signer.equals(r.signer)
                && issuedAtMillis == r.issuedAtMillis && Arrays.equals(signature, r.signature);
    }

    @Override
    public int hashCode() {
        return revokedKey.hashCode() * 31 + Arrays.hashCode(signature);
    }

    @Override
    public String toString() {
        return "KeyRevocation[" + revokedKey + (selfSigned() ? " by itself" : " by " + signer) + "]";
    }
}
