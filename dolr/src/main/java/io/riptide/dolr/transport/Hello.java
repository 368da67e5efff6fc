package io.riptide.dolr.transport;

import io.riptide.core.wire.WireMessage;

/** First handshake message of each side: a fresh nonce the peer must sign over. */
record Hello(byte[] nonce) implements WireMessage {
    /** Bytes in a nonce: enough that a nonce never repeats. */
    static final int NONCE_BYTES = 32;

    Hello {
        if (nonce == null || nonce.length != NONCE_BYTES) {
            throw new IllegalArgumentException("a nonce is " + NONCE_BYTES + " bytes");
        }
    }
}
