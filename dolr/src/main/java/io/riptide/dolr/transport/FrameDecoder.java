package io.riptide.dolr.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.riptide.core.wire.Frames;

/**
 * Splits the byte stream into frames ({@code u32 length | u8 version | body}), passing on the
 * version and body. A length above the maximum fails at once, before any of the frame is buffered,
 * and a negative one as soon as it is read; {@link ErrorGuard} then closes the connection.
 */
final class FrameDecoder extends LengthFieldBasedFrameDecoder {
    private static final int LENGTH_BYTES = Frames.HEADER_BYTES - 1;

    FrameDecoder(int maxFrameBytes) {
        // The decoder's limit counts the length field too.
        super(maxFrameBytes + LENGTH_BYTES, 0, LENGTH_BYTES, 0, LENGTH_BYTES, true);
    }

    @Override
    protected Object decode(ChannelHandlerContext ctx, ByteBuf in) throws Exception {
        if (!ctx.channel().isOpen()) {
            // The connection was refused mid-read: nothing the peer sent after that may be acted on.
            in.skipBytes(in.readableBytes());
            return null;
        }
        return super.decode(ctx, in);
    }
}
