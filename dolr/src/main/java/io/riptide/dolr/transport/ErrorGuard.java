package io.riptide.dolr.transport;

import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.riptide.core.wire.WireException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Last in every pipeline: any failure closes just that connection. Bad input (a frame too long,
 * negative or undecodable) is counted; socket errors are the peer's business. Nothing reaches
 * Netty's tail, so a hostile peer can't fill the logs.
 */
@Sharable
final class ErrorGuard extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(ErrorGuard.class);

    private final TransportCounters counters;

    ErrorGuard(TransportCounters counters) {
        this.counters = counters;
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (!ctx.channel().isOpen()) {
            // Frames buffered behind the one that closed the connection: already counted.
            return;
        }
        if (cause instanceof DecoderException || cause instanceof WireException) {
            counters.frameRefused();
            LOG.debug("refused a frame from {}: {}", ctx.channel().remoteAddress(), cause.toString());
        } else {
            LOG.debug("closing {}: {}", ctx.channel().remoteAddress(), cause.toString());
        }
        ctx.close();
    }
}
