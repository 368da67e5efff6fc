package io.riptide.dolr.transport;

// Main's version-8 handshake (commit e2982c0), frozen for the compatibility tests so that a node of
// this build is tested against the code deployed nodes run. Changed only: class names (V8 prefix),
// the frame version written and expected spelled out (8), and the version in PeerAuthenticated.

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import io.riptide.core.crypto.EphemeralKey;
import io.riptide.core.crypto.PublicKey;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.wire.Frames;
import io.riptide.core.wire.MessageCodec;
import io.riptide.core.wire.WireException;
import io.riptide.core.wire.WireMessage;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Proves our key to the peer and checks the peer's, agrees the link's keys, and lets no protocol
 * message through before both are done.
 *
 * <p>Each side sends {@link V8Hello} (a nonce and an ephemeral X25519 key) on connect, answers the
 * peer's V8Hello with its {@link Proof}, and accepts the peer once its Proof verifies. Anything else
 * (another message, a bad signature, an ephemeral key of small order, a malformed frame, no proof by
 * the timeout, counted from the connection becoming active whatever the peer sends meanwhile)
 * refuses the peer. On success this handler derives the {@link V8LinkKeys}, lifts what bounds an
 * unauthenticated peer ({@code onProven}), installs the {@link FrameSealer} and {@link FrameOpener}
 * in its own place in the pipeline, fires {@link PeerAuthenticated} and replaces itself with the
 * protocol decoder.
 *
 * <p>Why no frame can be on the wrong side of the switch to sealed frames: each side writes its
 * Proof when the peer's V8Hello arrives, and the peer's Proof can only come after that (it signs our
 * V8Hello), so when the peer's Proof verifies ours has already been written, and the sealer, installed
 * then, sees only what is written later (the link's frames, released by {@link PeerAuthenticated}).
 * The peer does the same, so its stream is V8Hello, Proof, then sealed frames only; the opener is in
 * place before the frame after its Proof is passed on, whether or not it came in the same read.
 */
final class V8HandshakeHandler extends ChannelInboundHandlerAdapter {
    private final Role role;
    private final SigningKey key;
    private final NodeAddress advertised;
    private final MessageCodec codec;
    private final Duration timeout;
    private final SecureRandom random;
    private final TransportCounters counters;
    private final Supplier<ChannelHandler> protocolDecoder;
    private final Runnable onProven;

    private V8Hello ownHello;
    private V8Hello peerHello;
    /** Ours until the peer's V8Hello arrives, then dropped. */
    private EphemeralKey ephemeral;
    /** What the two ephemeral keys agreed, from the peer's V8Hello until its Proof verifies. */
    private byte[] secret;
    private ScheduledFuture<?> timer;
    private boolean finished;

    V8HandshakeHandler(Role role, SigningKey key, NodeAddress advertised, MessageCodec codec, Duration timeout,
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
        byte[] nonce = new byte[V8Hello.NONCE_BYTES];
        random.nextBytes(nonce);
        ephemeral = EphemeralKey.generate(random);
        ownHello = new V8Hello(nonce, ephemeral.publicKey());
        timer = ctx.executor().schedule(() -> timeOut(ctx), timeout.toNanos(), TimeUnit.NANOSECONDS);
        ctx.writeAndFlush(Frames.encode(codec, ownHello, 8, ctx.alloc()));
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
                message = Frames.decode(codec, frame, 8);
            } catch (WireException e) {
                refuse(ctx);
                return;
            }
            if (message instanceof V8Hello hello && peerHello == null) {
                answer(ctx, hello);
            } else if (message instanceof Proof proof && secret != null) {
                check(ctx, proof);
            } else {
                refuse(ctx);
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    /** On the peer's V8Hello: agree a secret with its ephemeral key, and send our Proof. */
    private void answer(ChannelHandlerContext ctx, V8Hello hello) {
        peerHello = hello;
        secret = ephemeral.agree(hello.ephemeralKey());
        ephemeral = null;
        if (secret == null) {
            refuse(ctx);
            return;
        }
        byte[] transcript = V8Transcript.of(role, clientHello(), serverHello(), key.publicKey(), advertised);
        Proof proof = new Proof(key.publicKey(), advertised, key.sign(transcript));
        ctx.writeAndFlush(Frames.encode(codec, proof, 8, ctx.alloc()));
    }

    private void check(ChannelHandlerContext ctx, Proof proof) {
        byte[] transcript = V8Transcript.of(role.peer(), clientHello(), serverHello(), proof.key(), proof.address());
        if (!proof.key().verify(transcript, proof.signature())) {
            refuse(ctx);
            return;
        }
        finished = true;
        timer.cancel(false);
        PublicKey clientKey = role == Role.CLIENT ? key.publicKey() : proof.key();
        PublicKey serverKey = role == Role.SERVER ? key.publicKey() : proof.key();
        V8LinkKeys keys = V8LinkKeys.derive(role, secret, clientHello(), serverHello(), clientKey, serverKey);
        forgetSecret();
        onProven.run();
        // Our Proof is written already (see the class comment): from here on every frame is sealed,
        // and every frame of the peer's, those behind its Proof in this read too, is opened.
        ctx.pipeline().addBefore(ctx.name(), ConnectionPipeline.SEALER, new FrameSealer(new FrameAead(keys.sending())));
        ctx.pipeline().addBefore(ctx.name(), ConnectionPipeline.OPENER,
                new FrameOpener(new FrameAead(keys.receiving()), counters));
        ctx.fireUserEventTriggered(new PeerAuthenticated(new NodeHandle(proof.key().nodeId(), proof.address()), 8));
        // Frames behind the proof in the same read go to the protocol decoder from here on.
        ctx.pipeline().replace(this, ConnectionPipeline.PROTOCOL_DECODER, protocolDecoder.get());
    }

    private V8Hello clientHello() {
        return role == Role.CLIENT ? ownHello : peerHello;
    }

    private V8Hello serverHello() {
        return role == Role.SERVER ? ownHello : peerHello;
    }

    private void forgetSecret() {
        if (secret != null) {
            Arrays.fill(secret, (byte) 0);
            secret = null;
        }
        ephemeral = null;
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
        forgetSecret();
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
        forgetSecret();
        ctx.fireChannelInactive();
    }
}
