package io.riptide.dolr.transport;

import io.riptide.core.net.ByteCounter;
import io.riptide.core.net.IdleCloser;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.runtime.MessageHandler;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.wire.MessageCodec;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Builds a connection's pipeline, one handler per concern, in order: count bytes, close when idle,
 * batch flushes, split frames, handshake (replaced by the protocol decoder once the peer is proven),
 * hand messages to the node, bind the connection to its link, and contain every failure. Once the
 * peer is proven the handshake also puts the link's cipher right after the frame splitter: an opener
 * for frames coming in, a sealer for frames going out.
 *
 * <pre>
 *   socket ─► traffic ─► idle ─► flush ─► frames ─► opener ─► protocol-decoder ─► dispatch ─► link ─► guard
 *   socket ◄─ traffic ◄─ idle ◄─ flush ◄────────── sealer ◄─ PeerLink's frames (channel.write)
 * </pre>
 *
 * <p>Until the peer has proved its key, a connection is held small: reads of a few KB, frames no
 * longer than the handshake's, and (inbound) a place among the {@link UnauthenticatedConnections},
 * without which it is closed before anything is read.
 */
final class ConnectionPipeline {
    static final String PROTOCOL_DECODER = "protocol-decoder";
    static final String OPENER = "opener";
    static final String SEALER = "sealer";

    private final SigningKey key;
    private final MessageCodec nodeCodec;
    private final MessageCodec handshakeCodec = HandshakeCodec.create();
    private final MessageHandler handler;
    private final Executor nodeLoop;
    private final TransportConfig config;
    private final TransportCounters counters;
    private final SecureRandom random;
    private final PeerLinks links;
    private final UnauthenticatedConnections unauthenticated;
    private final Supplier<NodeAddress> advertised;
    private final ByteCounter traffic;
    private final ErrorGuard guard;
    private final VersionRefusals versionRefusals;
    private final AddressRefusals addressRefusals;

    ConnectionPipeline(SigningKey key, MessageCodec nodeCodec, MessageHandler handler, Executor nodeLoop,
            TransportConfig config, TransportCounters counters, SecureRandom random, PeerLinks links,
            UnauthenticatedConnections unauthenticated, Supplier<NodeAddress> advertised) {
        this.key = key;
        this.nodeCodec = nodeCodec;
        this.handler = handler;
        this.nodeLoop = nodeLoop;
        this.config = config;
        this.counters = counters;
        this.random = random;
        this.links = links;
        this.unauthenticated = unauthenticated;
        this.advertised = advertised;
        this.traffic = new ByteCounter(counters::bytesIn, counters::bytesOut);
        this.guard = new ErrorGuard(counters);
        this.versionRefusals = new VersionRefusals(counters);
        this.addressRefusals = config.checkAdvertisedAddress() ? new AddressRefusals(counters) : null;
    }

    /**
     * An initializer for connections peers open to us; {@code onInit} sees each channel first. A
     * connection over a cap on unauthenticated connections is closed before anything is read.
     */
    ChannelInitializer<Channel> inbound(Consumer<Channel> onInit) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                onInit.accept(ch);
                UnauthenticatedConnections.Place place = unauthenticated.admit(remoteHost(ch));
                if (place == null) {
                    // No handler is installed, so nothing is read.
                    ch.close();
                    return;
                }
                ch.closeFuture().addListener(f -> place.free());
                install(ch, Role.SERVER, LinkBinder.inbound(links), place::free, null);
            }
        };
    }

    /**
     * The peer's IP address, or null when it is this node's host: a source address equal to the one
     * it connected to can only be local (TCP's own handshake rules out a forged one). Null too for a
     * channel without IP addresses (tests).
     */
    private static InetAddress remoteHost(Channel ch) {
        if (ch.remoteAddress() instanceof InetSocketAddress remote && ch.localAddress() instanceof InetSocketAddress local) {
            return remote.getAddress().equals(local.getAddress()) ? null : remote.getAddress();
        }
        return null;
    }

    /** An initializer for the connection this node opens for {@code link}. */
    ChannelInitializer<Channel> outbound(Consumer<Channel> onInit, PeerLink link) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                onInit.accept(ch);
                // We chose to dial, so no cap; but whoever answers is unproven all the same.
                install(ch, Role.CLIENT, LinkBinder.outbound(links, link), () -> { }, link.address());
            }
        };
    }

    /**
     * Installs the handlers; {@code onProven} also runs once the peer has proved its key; {@code dialed}
     * is the address this node connected to, or null for a connection a peer opened.
     */
    private void install(Channel ch, Role role, LinkBinder binder, Runnable onProven, NodeAddress dialed) {
        BoundedReads reads = BoundedReads.install(ch, HandshakeCodec.MAX_FRAME_BYTES);
        // A sealed frame carries its tag besides the largest body a sender may frame.
        FrameDecoder frames = new FrameDecoder(HandshakeCodec.MAX_FRAME_BYTES, config.maxFrameBytes() + FrameAead.TAG_BYTES,
                counters);
        Runnable proven = () -> {
            reads.lift();
            frames.lift();
            onProven.run();
        };
        ChannelPipeline p = ch.pipeline();
        p.addLast("traffic", traffic);
        p.addLast("idle", new IdleCloser(config.idleTimeout()));
        p.addLast("flush", new FlushConsolidationHandler(FlushConsolidationHandler.DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES, true));
        p.addLast("frames", frames);
        p.addLast("handshake", new HandshakeHandler(role, key, config.wireVersions(), advertised.get(), handshakeCodec,
                config.handshakeTimeout(), random, counters, versionRefusals, version -> new MessageDecoder(nodeCodec, version), proven,
                addressRefusals, dialed));
        p.addLast("dispatch", new InboundDispatcher(handler, nodeLoop, counters));
        p.addLast("link", binder);
        p.addLast("guard", guard);
    }
}
