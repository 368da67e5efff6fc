package io.riptide.core.object;

import io.riptide.core.crypto.PublicKey;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.id.Id;
import java.util.Arrays;
import java.util.Objects;

/**
 * A provider's signed statement "version {@code version} of {@code guid} is current at
 * {@code issuedAtMillis}" (paper, section 4.5): sent down the dissemination tree when the gateway
 * finds the origin's content unchanged, it extends a replica's freshness without moving the body.
 *
 * <p>Signed bytes: {@code string "riptide/heartbeat" | u8 1 | bytes provider (32) | id guid |
 * i64 version | i64 issued-at ms}. Wire layout: {@code u8 format (1) | bytes provider (32) |
 * id guid | i64 version | i64 issued-at ms | bytes signature (64)}, 141 bytes in all.
 */
public record Heartbeat(PublicKey provider, Id guid, long version, long issuedAtMillis, byte[] signature) {
    /** Version of the signed and stored layouts. */
    public static final int FORMAT = 1;
    /** Bytes in the stored form. */
    public static final int ENCODED_BYTES = 1 + 4 + PublicKey.BYTES + Id.BYTES + 8 + 8 + 4 + SigningKey.SIGNATURE_BYTES;
    // A different domain from the certificate's, so a signature over one can never pass as the other.
    static final String DOMAIN = "riptide/heartbeat";

    public Heartbeat {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(guid, "guid");
        if (version < 1) {
            throw new IllegalArgumentException("versions start at 1, got " + version);
        }
        if (issuedAtMillis < 0) {
            throw new IllegalArgumentException("negative issue time " + issuedAtMillis);
        }
        signature = Encoding.copyExact(signature, SigningKey.SIGNATURE_BYTES, "signature");
    }

    /** {@code provider}'s heartbeat for version {@code version} of {@code guid}, at the given time. */
    public static Heartbeat sign(SigningKey provider, Id guid, long version, long issuedAtMillis) {
        Heartbeat unsigned = new Heartbeat(provider.publicKey(), guid, version, issuedAtMillis,
                new byte[SigningKey.SIGNATURE_BYTES]);
        return unsigned.withSignature(provider.sign(unsigned.signedBytes()));
    }

    /** This heartbeat with {@code newSignature} in place of its own. */
    public Heartbeat withSignature(byte[] newSignature) {
        return new Heartbeat(provider, guid, version, issuedAtMillis, newSignature);
    }

    /** The bytes the provider signs (layout in the class comment). */
    public byte[] signedBytes() {
        return Encoding.write(96, out -> out.string(DOMAIN).u8(FORMAT)
                .bytes(provider.toBytes()).id(guid).i64(version).i64(issuedAtMillis));
    }

    /** Whether the signature is the provider's over {@link #signedBytes()}. */
    public boolean signatureValid() {
        return provider.verify(signedBytes(), signature);
    }

    /** The stored form (layout in the class comment). */
    public byte[] toBytes() {
        return Encoding.write(ENCODED_BYTES, out -> out.u8(FORMAT)
                .bytes(provider.toBytes()).id(guid).i64(version).i64(issuedAtMillis).bytes(signature));
    }

    /** Reads the stored form; any other length or an out-of-range field is refused. */
    public static Heartbeat fromBytes(byte[] data) throws ObjectFormatException {
        return Encoding.read(data, "heartbeat", in -> {
            Encoding.formatVersion(in, FORMAT, "heartbeat");
            return new Heartbeat(Encoding.publicKey(in), in.id(), in.i64(), in.i64(),
                    Encoding.fixed(in, SigningKey.SIGNATURE_BYTES, "signature"));
        });
    }

    @Override
    public byte[] signature() {
        return signature.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Heartbeat h && provider.equals(h.provider) && guid.equals(h.guid)
                && version == h.version && issuedAtMillis == h.issuedAtMillis && Arrays.equals(signature, h.signature);
    }

    @Override
    public int hashCode() {
        return guid.hashCode() * 31 + Arrays.hashCode(signature);
    }

    @Override
    public String toString() {
        return "Heartbeat[" + guid.shortHex() + " v" + version + " current at " + issuedAtMillis + " ms]";
    }
}
