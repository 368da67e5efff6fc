package io.riptide.core.net;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Closes a connection with no traffic either way for the idle timeout, so dead peers and forgotten
 * keep-alive connections don't pin sockets and memory.
 */
public final class IdleCloser extends IdleStateHandler {
    public IdleCloser(Duration idleTimeout) {
        super(0, 0, idleTimeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    @Override
    protected void channelIdle(ChannelHandlerContext ctx, IdleStateEvent event) {
        ctx.close();
    }
}
