package io.riptide.dolr.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.NetUtil;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.net.NettyTransport;
import io.riptide.core.runtime.MessageHandler;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.runtime.real.Transport;
import io.riptide.core.wire.Frames;
import io.riptide.core.wire.MessageCodec;
import io.riptide.core.wire.WireMessage;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.OptionalInt;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A node's messages over TCP: it listens for peers, connects to them on demand, and makes every
 * connection prove the peer's key (its node ID) before a protocol message passes either way.
 *
 * <p>Connections and handshakes run on the given I/O event loops (epoll or NIO: the channels are of
 * the group's kind, see {@link NettyTransport}); messages are handed to the node's handler on the
 * node's own loop. Memory is bounded per connection by the frame limit and per peer by the
 * pending-bytes limit; whatever exceeds a bound is dropped and counted. Before a peer has proved its
 * key its connection is held to a few KB, and inbound ones are capped per source address and in all
 * ({@link ConnectionPipeline}).
 */
public final class TcpTransport implements Transport {
    /** How long {@link #close} waits for sockets to close, when called off the I/O loops. */
    private static final long CLOSE_WAIT_SECONDS = 5;
    private static final long DRAIN_POLL_MILLIS = 5;

    private final SigningKey key;
    private final MessageCodec codec;
    private final EventLoopGroup ioGroup;
    private final TransportConfig config;
    private final TransportCounters counters = new TransportCounters();
    private final ChannelGroup connections = new DefaultChannelGroup("riptide-connections", GlobalEventExecutor.INSTANCE);
    private final PeerLinks links;
    private final UnauthenticatedConnections unauthenticated;
    private final ConnectionPipeline pipeline;
    private final Bootstrap connector;
    private final Channel server;
    private final NodeAddress advertised;
    private volatile boolean closed;

    /**
     * Binds {@code listen} (port 0 for any free port; see {@link #localAddress}) and starts accepting
     * peers. The bound host is what this node advertises to peers, so bind a concrete address.
     *
     * @throws UncheckedIOException when the address can't be bound
     */
    public TcpTransport(SigningKey key, NodeAddress listen, MessageCodec codec, MessageHandler handler,
            Executor handlerExecutor, EventLoopGroup ioGroup, TransportConfig config) {
        this(key, listen, codec, handler, handlerExecutor, ioGroup, config, address -> { });
    }

    /**
     * As above; {@code onLinkLost} hears, on {@code handlerExecutor}, of each peer address whose
     * connection failed to open, failed its handshake, or closed (reset, or the peer went away), so
     * a node or client can stop waiting on that peer at once. Not for this transport's own close.
     */
    public TcpTransport(SigningKey key, NodeAddress listen, MessageCodec codec, MessageHandler handler,
            Executor handlerExecutor, EventLoopGroup ioGroup, TransportConfig config, Consumer<NodeAddress> onLinkLost) {
        this.key = key;
        this.codec = codec;
        this.ioGroup = ioGroup;
        this.config = config;
        this.links = new PeerLinks(config.maxPendingBytesPerPeer(), config.reconnectBackoff(), counters,
                address -> tellLost(address, handlerExecutor, onLinkLost),
                (message, version) -> Frames.encode(codec, message, version, ByteBufAllocator.DEFAULT), config.wireVersions().max());
        this.unauthenticated = new UnauthenticatedConnections(config.maxUnauthenticatedPerSource(),
                config.maxUnauthenticated(), counters);
        this.pipeline = new ConnectionPipeline(key, codec, handler, handlerExecutor, config, counters, new SecureRandom(),
                links, unauthenticated, this::localAddress);
        WriteBufferWaterMark waterMark = new WriteBufferWaterMark(config.maxPendingBytesPerPeer() / 4,
                config.maxPendingBytesPerPeer() / 2);
        this.connector = new Bootstrap()
                .channel(NettyTransport.socketChannelFor(ioGroup))
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, config.connectTimeout().toMillis()))
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, waterMark);
        // Peers learn our address in the handshake, and with port 0 it is known only once bound: so
        // accept nobody until then.
        ChannelFuture bound = new ServerBootstrap()
                .group(ioGroup)
                .channel(NettyTransport.serverSocketChannelFor(ioGroup))
                .option(ChannelOption.AUTO_READ, false)
                // A restarted node binds its old port while old connections linger in TIME_WAIT.
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, waterMark)
                .childHandler(pipeline.inbound(this::acceptInbound))
                .bind(listen.host(), listen.port())
                .awaitUninterruptibly();
        if (!bound.isSuccess()) {
            // Epoll's native bind error named as NIO's is, so the message reads the same on both.
            BindException asBind = NettyTransport.bindFailure(bound.cause());
            BindException e = new BindException("cannot listen on " + listen + ": " + (asBind != null ? asBind : bound.cause()));
            e.initCause(bound.cause());
            throw new UncheckedIOException(e);
        }
        this.server = bound.channel();
        this.advertised = advertisedAddress(listen, (InetSocketAddress) server.localAddress());
        server.config().setAutoRead(true);
    }

    /**
     * The address to advertise: the host as given, with the bound port; a host name is replaced by the
     * IP address it was bound to, since peers check that an inbound connection comes from the very IP
     * address advertised ({@link AddressProof}) and resolve no names to do so.
     */
    private static NodeAddress advertisedAddress(NodeAddress listen, InetSocketAddress bound) {
        boolean literal = NetUtil.createByteArrayFromIpAddressString(listen.host()) != null;
        if (literal || bound.getAddress() == null || bound.getAddress().isAnyLocalAddress()) {
            return new NodeAddress(listen.host(), bound.getPort());
        }
        return new NodeAddress(bound.getAddress().getHostAddress(), bound.getPort());
    }

    private void tellLost(NodeAddress address, Executor handlerExecutor, Consumer<NodeAddress> onLinkLost) {
        if (closed) {
            return;
        }
        try {
            handlerExecutor.execute(() -> onLinkLost.accept(address));
        } catch (RejectedExecutionException e) {
            // The node's loop is gone: nobody is waiting any more.
        }
    }

    private void acceptInbound(Channel ch) {
        counters.connectionIn();
        track(ch);
    }

    private void track(Channel ch) {
        connections.add(ch);
        // A connection that races close() must not outlive it.
        if (closed) {
            ch.close();
        }
    }

    /** The address this node listens on and advertises to peers, with the actual port. */
    public NodeAddress localAddress() {
        return advertised;
    }

    /** This node as peers see it once it has proved its key: its node ID and {@link #localAddress}. */
    public NodeHandle self() {
        return new NodeHandle(key.publicKey().nodeId(), advertised);
    }

    /**
     * The wire version of this node's authenticated link to {@code peer}, or empty if there is none
     * (yet): the highest version both speak, agreed in the link's handshake.
     */
    public OptionalInt linkVersion(NodeAddress peer) {
        return links.agreedVersion(peer);
    }

    /** A snapshot of the counters. */
    public TransportMetrics metrics() {
        return counters.snapshot(connections.size(), unauthenticated.count());
    }

    /**
     * Encodes {@code message} now (so its size counts against the peer's bound) and queues it for
     * {@code to}. A message too big for a frame, for a closed transport, or for an address no TCP
     * connection can reach (a port above 65535), is dropped.
     *
     * @throws IllegalArgumentException when the node's codec doesn't know the message type
     */
    @Override
    public void send(NodeAddress to, WireMessage message) {
        if (closed || to.port() > 0xffff) {
            // A TCP port above 65535 is a simulated address that reached a real node (a peer's gossip
            // may carry any well-formed address): no connection can be made, and Netty would throw.
            counters.messageDropped();
            return;
        }
        ByteBuf frame = Frames.encode(codec, message, links.versionTo(to), ByteBufAllocator.DEFAULT);
        if (frame.readableBytes() - (Frames.HEADER_BYTES - 1) > config.maxFrameBytes()) {
            // The peer would refuse it and drop the whole connection with it.
            frame.release();
            counters.messageDropped();
            return;
        }
        PeerLinks.Lookup lookup = links.linkTo(to, ioGroup::next);
        if (lookup.created()) {
            connect(lookup.link());
        }
        lookup.link().offer(message, frame);
    }

    private void connect(PeerLink link) {
        NodeAddress to = link.address();
        ChannelFuture connected = connector.clone(link.loop())
                .handler(pipeline.outbound(this::track, link))
                .connect(to.host(), to.port());
        connected.addListener((ChannelFuture f) -> {
            if (f.isSuccess()) {
                counters.connectionOut();
            } else {
                links.retire(link);
            }
        });
    }

    /**
     * Waits up to {@code max} for every frame offered so far to reach its socket (or be dropped), so
     * that last words go out before {@link #close}. Not on an I/O loop: it would wait on itself.
     */
    public void drain(Duration max) throws InterruptedException {
        if (onIoLoop()) {
            return;
        }
        long deadline = System.nanoTime() + max.toNanos();
        while (links.pendingBytes() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(DRAIN_POLL_MILLIS);
        }
    }

    /**
     * Stops listening, closes every connection and drops what waits; waits briefly for the sockets.
     * The OS may keep the port bound for a moment after, until the I/O loop's next select.
     */
    @Override
    public void close() {
        closed = true;
        Future<?> serverClosed = server.close();
        Future<?> connectionsClosed = connections.close();
        links.closeAll();
        if (!onIoLoop()) {
            serverClosed.awaitUninterruptibly(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS);
            connectionsClosed.awaitUninterruptibly(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS);
        }
    }

    private boolean onIoLoop() {
        for (EventExecutor loop : ioGroup) {
            if (loop.inEventLoop()) {
                return true;
            }
        }
        return false;
    }
}
