package io.riptide.dolr.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.util.ReferenceCountUtil;
import java.security.GeneralSecurityException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Seals each frame on its way out with the link's sending {@link FrameAead}. The handshake installs
 * it once the peer is proven, after our own Proof was written, so the handshake's frames leave in the
 * clear and every later one sealed. When its key has sealed all it may, it closes the connection
 * instead of sealing more; the next send reconnects, under fresh keys.
 */
final class FrameSealer extends ChannelOutboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(FrameSealer.class);

    private final FrameAead aead;

    FrameSealer(FrameAead aead) {
        this.aead = aead;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof ByteBuf frame)) {
            // Nothing else is written on a peer connection; whatever it is, it does not leave unsealed.
            ReferenceCountUtil.release(msg);
            promise.tryFailure(new IllegalArgumentException("not a frame: " + msg.getClass().getName()));
            return;
        }
        ByteBuf sealed;
        try {
            if (aead.exhausted()) {
                LOG.debug("closing {}: its key has sealed all it may", ctx.channel().remoteAddress());
                promise.tryFailure(new IllegalStateException("the link's key is used up"));
                ctx.close();
                return;
            }
            sealed = aead.seal(frame, ctx.alloc());
        } catch (GeneralSecurityException | RuntimeException e) {
            promise.tryFailure(e);
            ctx.close();
            return;
        } finally {
            frame.release();
        }
        ctx.write(sealed, promise);
    }
}
