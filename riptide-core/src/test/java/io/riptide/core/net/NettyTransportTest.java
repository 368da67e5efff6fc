package io.riptide.core.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class NettyTransportTest {
    private static final boolean LINUX_X86_64 = System.getProperty("os.name").toLowerCase(Locale.ROOT).startsWith("linux")
            && List.of("amd64", "x86_64").contains(System.getProperty("os.arch"));

    @Test
    void epollOnLinuxX8664UnlessForcedToNio() {
        if (LINUX_X86_64) {
            assertTrue(Epoll.isAvailable(), "the native library ships with riptide-core: " + Epoll.unavailabilityCause());
        }
        NettyTransport expected = "nio".equals(System.getProperty(NettyTransport.PROPERTY)) || !Epoll.isAvailable()
                ? NettyTransport.NIO : NettyTransport.EPOLL;
        assertSame(expected, NettyTransport.current());
        assertTrue(NettyTransport.describe().startsWith(expected.label()), NettyTransport.describe());
    }

    @Test
    void thePropertyForcesNioAndOtherwiseEpollWhenAvailable() {
        assertEquals(new NettyTransport.Choice(NettyTransport.NIO, "-Driptide.transport=nio"), NettyTransport.choose("nio", true, null));
        assertSame(NettyTransport.NIO, NettyTransport.choose(" NIO ", true, null).transport());
        assertEquals(new NettyTransport.Choice(NettyTransport.EPOLL, null), NettyTransport.choose(null, true, null));
        assertSame(NettyTransport.EPOLL, NettyTransport.choose("auto", true, null).transport());
        assertSame(NettyTransport.EPOLL, NettyTransport.choose("epoll", true, null).transport());
        assertSame(NettyTransport.EPOLL, NettyTransport.choose("bogus", true, null).transport(), "an unknown value is ignored");
        NettyTransport.Choice none = NettyTransport.choose("epoll", false, new UnsatisfiedLinkError("no library"));
        assertSame(NettyTransport.NIO, none.transport());
        assertEquals("epoll unavailable: java.lang.UnsatisfiedLinkError: no library", none.reason());
    }

    /** The property as a process sees it: the choice is made once per JVM, so each case runs in its own. */
    @Test
    void aProcessStartedWithRiptideTransportNioUsesNio() throws Exception {
        assertEquals("nio (-Driptide.transport=nio)", describeIn("-Driptide.transport=nio"));
        if (Epoll.isAvailable()) {
            assertEquals("epoll", describeIn());
        }
    }

    /** Prints {@link NettyTransport#describe()} and the class of a group it makes; run by {@link #describeIn}. */
    public static void main(String[] args) {
        EventLoopGroup group = NettyTransport.current().newGroup(1);
        try {
            String kind = group instanceof EpollEventLoopGroup ? "epoll" : group instanceof NioEventLoopGroup ? "nio" : "?";
            System.out.println(NettyTransport.describe() + "|" + kind);
        } finally {
            group.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    private static String describeIn(String... jvmOptions) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(List.of(java));
        command.addAll(List.of(jvmOptions));
        command.addAll(List.of("-cp", classPath, NettyTransportTest.class.getName()));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the child exits");
        assertEquals(0, p.exitValue(), out);
        String last = out.lines().reduce((a, b) -> b).orElse("");
        String[] parts = last.split("\\|");
        assertEquals(2, parts.length, out);
        assertTrue(parts[0].startsWith(parts[1]), "the group is of the transport described: " + last);
        return parts[0];
    }

    @Test
    void channelClassesFollowTheGroupOrLoopTheyRunOn() {
        EventLoopGroup nio = new NioEventLoopGroup(1);
        try {
            assertSame(NettyTransport.NIO, NettyTransport.of(nio));
            assertSame(NettyTransport.NIO, NettyTransport.of(nio.next()));
            assertEquals(NioSocketChannel.class, NettyTransport.socketChannelFor(nio.next()));
            assertEquals(NioServerSocketChannel.class, NettyTransport.serverSocketChannelFor(nio));
        } finally {
            nio.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
        }
        if (!Epoll.isAvailable()) {
            return;
        }
        EventLoopGroup epoll = NettyTransport.EPOLL.newGroup(1);
        try {
            assertSame(NettyTransport.EPOLL, NettyTransport.of(epoll));
            assertSame(NettyTransport.EPOLL, NettyTransport.of(epoll.next()), "a loop of an epoll group: " + epoll.next().getClass());
            assertEquals(EpollSocketChannel.class, NettyTransport.socketChannelFor(epoll.next()));
            assertEquals(EpollServerSocketChannel.class, NettyTransport.serverSocketChannelFor(epoll));
        } finally {
            epoll.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    @Test
    void groupsKeepTheirThreadNames() throws Exception {
        for (NettyTransport t : transports()) {
            EventLoopGroup g = t.newGroup(1, new DefaultThreadFactory("riptide-test-" + t.label(), true));
            try {
                String name = g.submit(() -> Thread.currentThread().getName()).get(10, TimeUnit.SECONDS);
                assertTrue(name.startsWith("riptide-test-" + t.label() + "-"), name);
            } finally {
                g.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
            }
        }
    }

    /** Both transports carry bytes with the classes derived from their groups, and report a taken port alike. */
    @Test
    void aServerAndAClientOnEachTransportTalkAndATakenPortIsABindException() throws Exception {
        for (NettyTransport t : transports()) {
            EventLoopGroup g = t.newGroup(2);
            try {
                Channel server = new ServerBootstrap().group(g).channel(NettyTransport.serverSocketChannelFor(g))
                        .childHandler(new ChannelInitializer<SocketChannel>() {
                            @Override
                            protected void initChannel(SocketChannel ch) {
                                ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
                                    @Override
                                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                        ctx.writeAndFlush(msg); // echo
                                    }
                                });
                            }
                        })
                        .bind("127.0.0.1", 0).syncUninterruptibly().channel();
                int port = ((InetSocketAddress) server.localAddress()).getPort();
                CompletableFuture<String> echoed = new CompletableFuture<>();
                // Registered on one loop of the group, as the proxy's upstream connections are.
                Channel client = new Bootstrap().group(g.next()).channel(NettyTransport.socketChannelFor(g.next()))
                        .handler(new ChannelInboundHandlerAdapter() {
                            @Override
                            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                ByteBuf b = (ByteBuf) msg;
                                try {
                                    echoed.complete(b.toString(StandardCharsets.US_ASCII));
                                } finally {
                                    b.release();
                                }
                            }
                        })
                        .connect("127.0.0.1", port).syncUninterruptibly().channel();
                assertEquals(t.socketChannel(), client.getClass());
                client.writeAndFlush(Unpooled.copiedBuffer("ping", StandardCharsets.US_ASCII));
                assertEquals("ping", echoed.get(10, TimeUnit.SECONDS), t.label());
                client.close().syncUninterruptibly();

                ChannelFuture again = new ServerBootstrap().group(g).channel(t.serverSocketChannel())
                        .childHandler(new ChannelInboundHandlerAdapter()).bind("127.0.0.1", port).awaitUninterruptibly();
                assertNotNull(again.cause(), t.label());
                BindException b = NettyTransport.bindFailure(new IllegalStateException("wrapped", again.cause()));
                assertNotNull(b, t.label() + ": " + again.cause());
                assertEquals("Address already in use", b.getMessage(), t.label());
                server.close().syncUninterruptibly();
            } finally {
                g.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
            }
        }
        assertNull(NettyTransport.bindFailure(new IOException("Connection reset by peer")));
    }

    private static List<NettyTransport> transports() {
        return Epoll.isAvailable() ? List.of(NettyTransport.EPOLL, NettyTransport.NIO) : List.of(NettyTransport.NIO);
    }
}
