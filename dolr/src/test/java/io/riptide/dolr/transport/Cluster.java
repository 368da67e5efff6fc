package io.riptide.dolr.transport;

import io.netty.channel.DefaultEventLoopGroup;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.net.NettyTransport;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.wire.MessageCodec;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.concurrent.TimeUnit;

/** Transports on 127.0.0.1 sharing I/O loops, each node with its own loop and inbox; closes them all. */
final class Cluster implements AutoCloseable {
    static final String HOST = "127.0.0.1";

    /** One running node. */
    record Node(SigningKey key, TcpTransport transport, Inbox inbox, EventLoop loop) {
        NodeAddress address() {
            return transport.localAddress();
        }

        TransportMetrics metrics() {
            return transport.metrics();
        }
    }

    private final EventLoopGroup io;
    private final DefaultEventLoopGroup nodeLoops = new DefaultEventLoopGroup(2);
    private final List<TcpTransport> transports = new ArrayList<>();
    private int seeds;

    /** A cluster on NIO sockets. */
    Cluster() {
        this(NettyTransport.NIO);
    }

    /** A cluster on {@code sockets}' channels. */
    Cluster(NettyTransport sockets) {
        io = sockets.newGroup(2);
    }

    /** A fresh key, deterministic per cluster. */
    SigningKey newKey() {
        byte[] seed = new byte[32];
        seed[0] = (byte) ++seeds;
        seed[31] = 0x5a;
        return SigningKey.fromSeed(seed);
    }

    Node start(TransportConfig config) {
        return start(newKey(), 0, config);
    }

    Node start(SigningKey key, int port, TransportConfig config) {
        return start(key, port, config, address -> { });
    }

    /** A node that tells {@code onLinkLost} of each peer address it lost. */
    Node start(TransportConfig config, Consumer<NodeAddress> onLinkLost) {
        return start(newKey(), 0, config, onLinkLost);
    }

    /** A node whose messages are {@code codec}'s rather than {@link Ping}'s. */
    Node start(TransportConfig config, MessageCodec codec) {
        return start(newKey(), 0, config, address -> { }, codec);
    }

    private Node start(SigningKey key, int port, TransportConfig config, Consumer<NodeAddress> onLinkLost) {
        return start(key, port, config, onLinkLost, Ping.codec());
    }

    private Node start(SigningKey key, int port, TransportConfig config, Consumer<NodeAddress> onLinkLost, MessageCodec codec) {
        Inbox inbox = new Inbox();
        EventLoop loop = nodeLoops.next();
        TcpTransport t = null;
        // A port just closed is released at its I/O loop's next select; retry for a bounded moment.
        for (int attempt = 0; t == null; attempt++) {
            try {
                t = new TcpTransport(key, new NodeAddress(HOST, port), codec, inbox, loop, io, config, onLinkLost);
            } catch (UncheckedIOException e) {
                if (port == 0 || attempt >= 50) {
                    throw e;
                }
                sleep(20);
            }
        }
        transports.add(t);
        return new Node(key, t, inbox, loop);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        transports.forEach(TcpTransport::close);
        io.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        nodeLoops.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
}
