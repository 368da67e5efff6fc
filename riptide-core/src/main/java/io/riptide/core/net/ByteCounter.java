package io.riptide.core.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import java.util.function.LongConsumer;

/** Counts the bytes read from and handed to a connection's socket; placed first in a pipeline. */
@Sharable
public final class ByteCounter extends ChannelDuplexHandler {
    private final LongConsumer in;
    private final LongConsumer out;

    /** {@code in} and {@code out} hear each buffer's size (they must be thread-safe: shared by connections). */
    public ByteCounter(LongConsumer in, LongConsumer out) {
        this.in = in;
        this.out = out;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof ByteBuf buf) {
            in.accept(buf.readableBytes());
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof ByteBuf buf) {
            out.accept(buf.readableBytes());
        }
        ctx.write(msg, promise);
    }
}
