package io.riptide.dolr.transport;

import io.riptide.core.crypto.EphemeralKey;
import io.riptide.core.wire.WireMessage;

/**
 * First handshake message of each side: a fresh nonce the peer must sign over, and the public half
 * of a fresh X25519 key from which, with the peer's, the link's keys are agreed ({@link LinkKeys}).
 * The nonce also carries the wire versions the side speaks ({@link VersionOffer}); the message is
 * the same, field for field, as the previous release's, so a node of version 8 reads it.
 */
record Hello(byte[] nonce, byte[] ephemeralKey) implements WireMessage {
    /** Bytes in a nonce: enough that a nonce never repeats. */
    static final int NONCE_BYTES = 32;
    /** Bytes in an ephemeral X25519 public key. */
    static final int KEY_BYTES = EphemeralKey.BYTES;

    Hello {
        if (nonce == null || nonce.length != NONCE_BYTES) {
            throw new IllegalArgumentException("a nonce is " + NONCE_BYTES + " bytes");
        }
        if (ephemeralKey == null || ephemeralKey.length != KEY_BYTES) {
            throw new IllegalArgumentException("an ephemeral key is " + KEY_BYTES + " bytes");
        }
    }

    /** The wire versions this Hello's sender offered. */
    WireVersions.Offer offer() {
        return VersionOffer.of(nonce);
    }
}
