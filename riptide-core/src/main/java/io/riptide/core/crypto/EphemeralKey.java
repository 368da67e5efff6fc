package io.riptide.core.crypto;

import java.security.SecureRandom;
import org.bouncycastle.crypto.params.X25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.X25519PublicKeyParameters;

/**
 * A one-time X25519 key pair (Bouncy Castle, RFC 7748): made for one key agreement, sent as its
 * public half, and dropped once the shared secret is known. Not thread-safe.
 */
public final class EphemeralKey {
    /** Bytes in an encoded X25519 public key, and in the shared secret. */
    public static final int BYTES = X25519PublicKeyParameters.KEY_SIZE;

    private final X25519PrivateKeyParameters privateKey;
    private final byte[] publicKey;

    private EphemeralKey(X25519PrivateKeyParameters privateKey) {
        this.privateKey = privateKey;
        this.publicKey = privateKey.generatePublicKey().getEncoded();
    }

    /** A fresh key pair from {@code random}. */
    public static EphemeralKey generate(SecureRandom random) {
        return new EphemeralKey(new X25519PrivateKeyParameters(random));
    }

    /** The 32-byte public key, to send to the peer. */
    public byte[] publicKey() {
        return publicKey.clone();
    }

    /**
     * The secret shared with the holder of {@code peerPublicKey}, or null when there is none to
     * share: a key that is not 32 bytes, or one of the few of small order, whose result is all
     * zeros whatever our key is (anyone on the path could then compute it; RFC 7748, section 6.1).
     */
    public byte[] agree(byte[] peerPublicKey) {
        if (peerPublicKey == null || peerPublicKey.length != BYTES) {
            return null;
        }
        byte[] secret = new byte[BYTES];
        try {
            privateKey.generateSecret(new X25519PublicKeyParameters(peerPublicKey, 0), secret, 0);
        } catch (IllegalStateException allZeros) {
            // Bouncy Castle refuses an all-zero result itself.
            return null;
        }
        return secret;
    }
}
