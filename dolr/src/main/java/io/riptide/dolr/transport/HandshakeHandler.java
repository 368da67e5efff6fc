package io.riptide.dolr.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.wire.Frames;
import io.riptide.core.wire.MessageCodec;
import io.riptide.core.wire.WireException;
import io.riptide.core.wire.WireMessage;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Proves our key to the peer and checks the peer's, before any protocol message is let through.
 *
 * <p>Each side sends {@link Hello} on connect, answers the peer's Hello with its {@link Proof}, and
 * accepts the peer once its Proof verifies. Anything else (another message, a bad signature, a
 * malformed frame, no proof by the timeout, counted from the connection becoming active whatever
 * the peer sends meanwhile) refuses the peer. On success this handler lifts what bounds an
 * unauthenticated peer ({@code onProven}), fires {@link PeerAuthenticated} and replaces itself with
 * the protocol decoder.
 */
final class HandshakeHandler extends ChannelInboundHandlerAdapter {
    private final Role role;
    private final SigningKey key;
    private final NodeAddress advertised;
    private final MessageCodec codec;
    private final Duration timeout;
    private final SecureRandom random;
    private final TransportCounters counters;
    private final Supplier<ChannelHandler> protocolDecoder;
    private final Runnable onProven;

    private byte[] ownNonce;
    private byte[] peerNonce;
    private ScheduledFuture<?> timer;
    private boolean finished;

    HandshakeHandler(Role role, SigningKey key, NodeAddress advertised, MessageCodec codec, Duration timeout,
            SecureRandom random, TransportCounters counters, Supplier<ChannelHandler> protocolDecoder, Runnable onProven) {
        this.role = role;
        this.key = key;
        this.advertised = advertised;
        this.codec = codec;
        this.timeout = timeout;
        this.random = random;
        this.counters = counters;
        this.protocolDecoder = protocolDecoder;
        this.onProven = onProven;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        ownNonce = new byte[Hello.NONCE_BYTES];
        random.nextBytes(ownNonce);
        timer = ctx.executor().schedule(() -> timeOut(ctx), timeout.toNanos(), TimeUnit.NANOSECONDS);
        ctx.writeAndFlush(Frames.encode(codec, new Hello(ownNonce), ctx.alloc()));
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            // Frames still buffered behind a refused one arrive after the close; ignore them.
            if (finished || !(msg instanceof ByteBuf frame)) {
                return;
            }
            WireMessage message;
            try {
                message = Frames.decode(codec, frame);
            } catch (WireException e) {
                refuse(ctx);
                return;
            }
            if (message instanceof Hello hello && peerNonce == null) {
                peerNonce = hello.nonce();
                sendProof(ctx);
            } else if (message instanceof Proof proof && peerNonce != null) {
                check(ctx, proof);
            } else {
                refuse(ctx);
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    private void sendProof(ChannelHandlerContext ctx) {
        byte[] transcript = Transcript.of(role, clientNonce(), serverNonce(), key.publicKey(), advertised);
        Proof proof = new Proof(key.publicKey(), advertised, key.sign(transcript));
        ctx.writeAndFlush(Frames.encode(codec, proof, ctx.alloc()));
    }

    private void check(ChannelHandlerContext ctx, Proof proof) {
        byte[] transcript = Transcript.of(role.peer(), clientNonce(), serverNonce(), proof.key(), proof.address());
        if (!proof.key().verify(transcript, proof.signature())) {
            refuse(ctx);
            return;
        }
        finished = true;
        timer.cancel(false);
        onProven.run();
        ctx.fireUserEventTriggered(new PeerAuthenticated(new NodeHandle(proof.key().nodeId(), proof.address())));
        // Frames behind the proof in the same read go to the protocol decoder from here on.
        ctx.pipeline().replace(this, ConnectionPipeline.PROTOCOL_DECODER, protocolDecoder.get());
    }

    private byte[] clientNonce() {
        return role == Role.CLIENT ? ownNonce : peerNonce;
    }

    private byte[] serverNonce() {
        return role == Role.SERVER ? ownNonce : peerNonce;
    }

    private void timeOut(ChannelHandlerContext ctx) {
        if (!finished) {
            counters.handshakeTimedOut();
            refuse(ctx);
        }
    }

    private void refuse(ChannelHandlerContext ctx) {
        if (finished) {
            return;
        }
        finished = true;
        if (timer != null) {
            timer.cancel(false);
        }
        counters.handshakeFailed();
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        // The peer left mid-handshake: nothing to refuse, but the timer must not outlive the channel.
        finished = true;
        if (timer != null) {
            timer.cancel(false);
        }
        ctx.fireChannelInactive();
    }
}
