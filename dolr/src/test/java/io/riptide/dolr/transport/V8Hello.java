package io.riptide.dolr.transport;

// Main's version-8 handshake (commit e2982c0), frozen for the compatibility tests so that a node of
// this build is tested against the code deployed nodes run. Changed only: class names (V8 prefix),
// the frame version written and expected spelled out (8), and the version in PeerAuthenticated.

import io.riptide.core.crypto.EphemeralKey;
import io.riptide.core.wire.WireMessage;

/**
 * First handshake message of each side: a fresh nonce the peer must sign over, and the public half
 * of a fresh X25519 key from which, with the peer's, the link's keys are agreed ({@link V8LinkKeys}).
 */
record V8Hello(byte[] nonce, byte[] ephemeralKey) implements WireMessage {
    /** Bytes in a nonce: enough that a nonce never repeats. */
    static final int NONCE_BYTES = 32;
    /** Bytes in an ephemeral X25519 public key. */
    static final int KEY_BYTES = EphemeralKey.BYTES;

    V8Hello {
        if (nonce == null || nonce.length != NONCE_BYTES) {
            throw new IllegalArgumentException("a nonce is " + NONCE_BYTES + " bytes");
        }
        if (ephemeralKey == null || ephemeralKey.length != KEY_BYTES) {
            throw new IllegalArgumentException("an ephemeral key is " + KEY_BYTES + " bytes");
        }
    }
}
