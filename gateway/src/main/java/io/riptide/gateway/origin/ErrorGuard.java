package io.riptide.gateway.origin;

import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Last in every origin connection's pipeline: whatever no exchange claimed closes just that
 * connection. Bytes an origin sends while no request is outstanding are a protocol error (the next
 * request would read them as its answer), and errors with no exchange to fail have nowhere to go;
 * nothing reaches Netty's tail, so a hostile origin can't fill the logs.
 */
@Sharable
final class ErrorGuard extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(ErrorGuard.class);

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ReferenceCountUtil.release(msg);
        LOG.debug("closing {}: it sent data with no request outstanding", ctx.channel().remoteAddress());
        ctx.close();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("closing {}: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }
}
