package io.riptide.core.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * The node-to-node frame: {@code u32 length | u8 version | body}, where the length counts the
 * version byte and the body. Lengths above the configured maximum are refused before any byte of
 * the body is buffered. On a peer connection, once the handshake is done, the transport encrypts
 * each body and appends a 16-byte tag on the way out and removes both on the way in
 * ({@code dolr.transport.FrameAead}); this class only ever sees the body in the clear.
 */
public final class Frames {
    /**
     * The newest wire version this build speaks. Bumped on any incompatible change to a message; a
     * link runs at the highest version both ends speak, negotiated in the transport's handshake.
     */
    public static final int VERSION = 9;
    /**
     * The oldest wire version this build still speaks: that of the nodes already deployed, and of
     * every handshake frame, which must be readable before any version is agreed.
     */
    public static final int OLDEST_VERSION = 8;
    /** Bytes before the body: the length and the version. */
    public static final int HEADER_BYTES = 5;
    /** Default largest frame accepted: generous for replicas, small enough to bound memory per peer. */
    public static final int DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;

    private Frames() {
    }

    /**
     * Encodes {@code message} as one complete frame at the newest version. The caller owns (and must
     * release) the result.
     */
    public static ByteBuf encode(MessageCodec codec, WireMessage message, ByteBufAllocator alloc) {
        return encode(codec, message, VERSION, alloc);
    }

    /**
     * Encodes {@code message} as one complete frame of wire version {@code version}, as a link at that
     * version carries it. The caller owns (and must release) the result.
     */
    public static ByteBuf encode(MessageCodec codec, WireMessage message, int version, ByteBufAllocator alloc) {
        ByteBuf out = alloc.buffer();
        try {
            out.writeInt(0).writeByte(version);
            codec.encodeBody(message, out, version);
            out.setInt(0, out.readableBytes() - 4);
            return out;
        } catch (RuntimeException e) {
            out.release();
            throw e;
        }
    }

    /**
     * Decodes the frame content after the length field (version and body). Does not release
     * {@code frame}.
     */
    public static WireMessage decode(MessageCodec codec, ByteBuf frame) throws WireException {
        return decode(codec, frame, VERSION);
    }

    /**
     * Decodes the frame content after the length field of a link at wire version {@code version}: a
     * frame of any other version is refused. Does not release {@code frame}.
     */
    public static WireMessage decode(MessageCodec codec, ByteBuf frame, int version) throws WireException {
        if (!frame.isReadable()) {
            throw new WireException("empty frame");
        }
        int got = frame.readUnsignedByte();
        if (got != version) {
            throw new WireException("unsupported wire version " + got + " (this link speaks " + version + ")");
        }
        return codec.decodeBody(frame, version);
    }
}
