package io.riptide.core.net;

import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Last in every pooled origin connection's pipeline (the gateway's fetcher, the proxy's upstream):
 * whatever no exchange claimed closes just that connection. Bytes an origin sends with no request
 * outstanding would be read as the next request's answer, and errors with no exchange to fail have
 * nowhere to go; nothing reaches Netty's tail, so a hostile origin can't fill the logs.
 */
@Sharable
public final class UpstreamErrorGuard extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(UpstreamErrorGuard.class);

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
