package io.riptide.core.crypto;

import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.generators.HKDFBytesGenerator;
import org.bouncycastle.crypto.params.HKDFParameters;

/** HKDF with SHA-256 (RFC 5869, Bouncy Castle): turns a shared secret into keys, one per purpose. */
public final class Hkdf {
    private Hkdf() {
    }

    /**
     * {@code length} bytes of key for the purpose {@code info}, extracted from {@code secret} with
     * {@code salt} and expanded.
     */
    public static byte[] sha256(byte[] salt, byte[] secret, byte[] info, int length) {
        HKDFBytesGenerator hkdf = new HKDFBytesGenerator(new SHA256Digest());
        hkdf.init(new HKDFParameters(secret, salt, info));
        byte[] out = new byte[length];
        hkdf.generateBytes(out, 0, length);
        return out;
    }
}
