package io.riptide.gateway.origin;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/** Counts the bytes read from origin sockets. */
@Sharable
final class TrafficCounter extends ChannelInboundHandlerAdapter {
    private final FetchCounters counters;

    TrafficCounter(FetchCounters counters) {
        this.counters = counters;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof ByteBuf buf) {
            counters.bytesReceived(buf.readableBytes());
        }
        ctx.fireChannelRead(msg);
    }
}
