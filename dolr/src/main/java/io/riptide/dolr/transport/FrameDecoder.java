package io.riptide.dolr.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.TooLongFrameException;
import io.riptide.core.wire.Frames;

/**
 * Splits the byte stream into frames ({@code u32 length | u8 version | body}), passing on the
 * version and body. Until the peer has proved its key ({@link #lift}) a frame may be no longer than
 * the handshake needs; after, up to the maximum. A length over the limit in force fails at once,
 * before any of the frame is buffered, and a negative one as soon as it is read; {@link ErrorGuard}
 * then closes the connection.
 */
final class FrameDecoder extends LengthFieldBasedFrameDecoder {
    private static final int LENGTH_BYTES = Frames.HEADER_BYTES - 1;

    private final int handshakeCap;
    private final TransportCounters counters;
    /** Read and written on the channel's loop only. */
    private boolean lifted;

    /**
     * @param handshakeCap largest frame before {@link #lift}
     * @param maxFrameBytes largest frame after
     */
    FrameDecoder(int handshakeCap, int maxFrameBytes, TransportCounters counters) {
        // The decoder's limit counts the length field too.
        super(maxFrameBytes + LENGTH_BYTES, 0, LENGTH_BYTES, 0, LENGTH_BYTES, true);
        this.handshakeCap = Math.min(handshakeCap, maxFrameBytes);
        this.counters = counters;
    }

    /** The peer has proved its key: from the next frame on, frames up to the maximum are accepted. */
    void lift() {
        lifted = true;
    }

    @Override
    protected Object decode(ChannelHandlerContext ctx, ByteBuf in) throws Exception {
        if (!ctx.channel().isOpen()) {
            // The connection was refused mid-read: nothing the peer sent after that may be acted on.
            in.skipBytes(in.readableBytes());
            return null;
        }
        if (!lifted && in.readableBytes() >= LENGTH_BYTES) {
            // Unsigned, so a "negative" length is over the cap too.
            long length = in.getUnsignedInt(in.readerIndex());
            if (length > handshakeCap) {
                counters.frameOverHandshakeCap();
                in.skipBytes(in.readableBytes());
                throw new TooLongFrameException("a frame of " + length + " bytes before the handshake; at most "
                        + handshakeCap);
            }
        }
        return super.decode(ctx, in);
    }
}
