package io.riptide.dolr.transport;

import io.riptide.core.crypto.PublicKey;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.wire.WireMessage;

/** Second handshake message of each side: its key, where it listens, and its signature over the {@link Transcript}. */
record Proof(PublicKey key, NodeAddress address, byte[] signature) implements WireMessage {
    Proof {
        if (key == null || address == null) {
            throw new IllegalArgumentException("a proof needs a key and an address");
        }
        if (signature == null || signature.length != SigningKey.SIGNATURE_BYTES) {
            throw new IllegalArgumentException("a signature is " + SigningKey.SIGNATURE_BYTES + " bytes");
        }
    }
}
