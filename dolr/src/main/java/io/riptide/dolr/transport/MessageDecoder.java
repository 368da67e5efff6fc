package io.riptide.dolr.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageDecoder;
import io.riptide.core.wire.Frames;
import io.riptide.core.wire.MessageCodec;
import io.riptide.core.wire.WireException;
import java.util.List;

/**
 * Turns an authenticated peer's frames into protocol messages with the node's codec, at the link's
 * wire version: a frame of another version is refused.
 */
final class MessageDecoder extends MessageToMessageDecoder<ByteBuf> {
    private final MessageCodec codec;
    private final int version;

    MessageDecoder(MessageCodec codec, int version) {
        this.codec = codec;
        this.version = version;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf frame, List<Object> out) throws WireException {
        out.add(Frames.decode(codec, frame, version));
    }
}
