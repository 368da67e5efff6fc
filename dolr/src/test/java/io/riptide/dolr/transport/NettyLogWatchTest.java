package io.riptide.dolr.transport;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.ChannelHandlerContext;
import io.riptide.core.testing.NettyLeakGuard;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The watch the other tests rely on must see what it claims to see, or their clean runs mean nothing. */
class NettyLogWatchTest {
    private static final String DELIBERATE_LEAK = "deliberate leak of NettyLogWatchTest";

    @Test
    void seesALeakedBuffer() throws Exception {
        try (NettyLogWatch watch = new NettyLogWatch()) {
            leak();
            List<String> problems = List.of();
            for (int i = 0; i < 50 && problems.isEmpty(); i++) {
                problems = watch.problems();
            }
            assertTrue(problems.stream().anyMatch(p -> p.contains("LEAK")), "leak reported: " + problems);
        } finally {
            // The leak is the point of this test; the build-wide leak guard must not charge it to the class.
            NettyLeakGuard.drainMatching(DELIBERATE_LEAK);
        }
    }

    private static void leak() {
        PooledByteBufAllocator.DEFAULT.buffer(64).touch(DELIBERATE_LEAK).writeLong(42);
    }

    @Test
    void seesAnExceptionThatReachesThePipelineTail() throws Exception {
        NioEventLoopGroup group = new NioEventLoopGroup(1);
        try (NettyLogWatch watch = new NettyLogWatch()) {
            NioSocketChannel ch = new NioSocketChannel();
            ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
                @Override
                public void channelRegistered(ChannelHandlerContext ctx) {
                    throw new IllegalStateException("unhandled on purpose");
                }
            });
            group.register(ch).awaitUninterruptibly(5, TimeUnit.SECONDS);
            ch.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
            List<String> problems = watch.problems();
            assertTrue(problems.stream().anyMatch(p -> p.contains("exceptionCaught")), "tail warning: " + problems);
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void embeddedChannelSurfacesUnhandledExceptions() {
        // EmbeddedChannel rethrows tail exceptions itself (checkException) instead of logging them;
        // the fuzz test relies on that, so make sure it does.
        EmbeddedChannel ch = new EmbeddedChannel(new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                throw new IllegalStateException("boom");
            }
        });
        try {
            ch.writeInbound("x");
            throw new AssertionError("EmbeddedChannel swallowed the exception");
        } catch (IllegalStateException expected) {
            // Surfaced to the caller, as the fuzz test expects.
        } finally {
            ch.finishAndReleaseAll();
        }
    }
}
