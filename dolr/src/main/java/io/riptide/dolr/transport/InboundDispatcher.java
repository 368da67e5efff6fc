package io.riptide.dolr.transport;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import io.riptide.core.runtime.MessageHandler;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.wire.WireMessage;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/** Hands each message of an authenticated peer to the node's handler, on the node's own loop. */
final class InboundDispatcher extends ChannelInboundHandlerAdapter {
    private final MessageHandler handler;
    private final Executor nodeLoop;
    private final TransportCounters counters;
    private NodeHandle peer;

    InboundDispatcher(MessageHandler handler, Executor nodeLoop, TransportCounters counters) {
        this.handler = handler;
        this.nodeLoop = nodeLoop;
        this.counters = counters;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof PeerAuthenticated authenticated) {
            peer = authenticated.peer();
        }
        ctx.fireUserEventTriggered(event);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        // Only the protocol decoder, placed after the handshake, produces messages; be strict anyway.
        if (!(msg instanceof WireMessage message) || peer == null) {
            ReferenceCountUtil.release(msg);
            return;
        }
        counters.messageReceived();
        NodeHandle from = peer;
        try {
            nodeLoop.execute(() -> handler.onMessage(from, message));
        } catch (RejectedExecutionException e) {
            counters.messageDropped();
        }
    }
}
