package io.riptide.dolr.transport;

// Main's version-8 handshake (commit e2982c0), frozen for the compatibility tests so that a node of
// this build is tested against the code deployed nodes run. Changed only: class names (V8 prefix),
// the frame version written and expected spelled out (8), and the version in PeerAuthenticated.

import io.riptide.core.crypto.PublicKey;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.wire.MessageCodec;
import io.riptide.core.wire.WireReader;

/**
 * The transport's own codec, for the handshake only. Its tags sit in a range reserved for the
 * transport, so protocol codecs keep every lower tag; until a peer has proved its key, frames are
 * decoded with this codec alone, so a protocol message there is an unknown type and refused.
 */
final class V8HandshakeCodec {
    /** First tag reserved for the transport; protocols use tags below it. */
    static final int FIRST_RESERVED_TAG = 0xFF00;
    static final int HELLO = FIRST_RESERVED_TAG;
    static final int PROOF = FIRST_RESERVED_TAG + 1;

    /**
     * The largest handshake frame, as its length field counts it (version, tag, fields): a
     * {@link Proof} whose address has the longest host, 368 bytes. A {@link V8Hello} is 75.
     */
    static final int LARGEST_FRAME_BYTES = 1 + 2
            + (4 + PublicKey.BYTES)
            + (2 + WireReader.MAX_HOST_BYTES + 4)
            + (4 + SigningKey.SIGNATURE_BYTES);

    /**
     * The largest frame accepted before the peer has proved its key: the largest handshake frame with
     * room for a future field, and small enough that an unauthenticated peer costs a few KB.
     */
    static final int MAX_FRAME_BYTES = 4096;

    private V8HandshakeCodec() {
    }

    /** A codec that knows {@link V8Hello} and {@link Proof}. */
    static MessageCodec create() {
        return new MessageCodec()
                .register(HELLO, V8Hello.class, (m, out) -> out.bytes(m.nonce()).bytes(m.ephemeralKey()),
                        in -> new V8Hello(in.bytes(V8Hello.NONCE_BYTES), in.bytes(V8Hello.KEY_BYTES)))
                .register(PROOF, Proof.class,
                        (m, out) -> out.bytes(m.key().toBytes()).address(m.address()).bytes(m.signature()),
                        in -> new Proof(PublicKey.fromBytes(in.bytes(PublicKey.BYTES)), in.address(),
                                in.bytes(SigningKey.SIGNATURE_BYTES)));
    }
}
