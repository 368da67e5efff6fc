package io.riptide.dolr.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.CorruptedFrameException;
import java.security.GeneralSecurityException;

/**
 * Opens each frame on its way in with the link's receiving {@link FrameAead}, before the protocol
 * decoder reads it. The handshake installs it on the peer's Proof, so the frames behind that Proof
 * are opened, in the same read too. A frame that fails authentication (altered, forged, replayed,
 * reordered, one missing before it) is counted and closes the connection, as any bad frame does
 * ({@link ErrorGuard}); nothing behind it is read.
 */
final class FrameOpener extends ChannelInboundHandlerAdapter {
    private final FrameAead aead;
    private final TransportCounters counters;
    private boolean failed;

    FrameOpener(FrameAead aead, TransportCounters counters) {
        this.aead = aead;
        this.counters = counters;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf content)) {
            ctx.fireChannelRead(msg);
            return;
        }
        ByteBuf opened;
        try {
            if (failed) {
                return;
            }
            opened = aead.open(content, ctx.alloc());
        } catch (GeneralSecurityException e) {
            failed = true;
            counters.frameFailedAuthentication();
            ctx.fireExceptionCaught(new CorruptedFrameException("a frame failed authentication: " + e.getMessage(), e));
            return;
        } finally {
            content.release();
        }
        ctx.fireChannelRead(opened);
    }
}
