package io.riptide.gateway.origin;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Closes a connection with no traffic either way for the idle timeout, so pooled keep-alive
 * connections don't pin sockets forever. A connection in use is never idle this long: the fetch
 * deadline, no longer than the idle timeout, ends the fetch first.
 */
final class IdleCloser extends IdleStateHandler {
    IdleCloser(Duration idleTimeout) {
        super(0, 0, idleTimeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    @Override
    protected void channelIdle(ChannelHandlerContext ctx, IdleStateEvent event) {
        ctx.close();
    }
}
