package io.riptide.dolr.transport;

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
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * Proves our key to the peer and checks the peer's, agrees the link's wire version and keys, and lets
 * no protocol message through before all are done.
 *
 * <p>Each side sends {@link Hello} (a nonce carrying the wire versions it speaks, and an ephemeral
 * X25519 key) on connect; on the peer's Hello it picks the highest version both speak (refusing a
 * peer with none, see {@link VersionOffer}) and answers with its {@link Proof}, signed over a
 * transcript of that version; it accepts the peer once its Proof verifies. Anything else
 * (another message, a bad signature, an ephemeral key of small order, a malformed frame, no proof by
 * the timeout, counted from the connection becoming active whatever the peer sends meanwhile)
 * refuses the peer. On success this handler derives the {@link LinkKeys}, lifts what bounds an
 * unauthenticated peer ({@code onProven}), installs the {@link FrameSealer} and {@link FrameOpener}
 * in its own place in the pipeline, fires {@link PeerAuthenticated} and replaces itself with the
 * protocol decoder.
 *
 * <p>Why no frame can be on the wrong side of the switch to sealed frames: each side writes its
 * Proof when the peer's Hello arrives, and the peer's Proof can only come after that (it signs our
 * Hello), so when the peer's Proof verifies ours has already been written, and the sealer, installed
 * then, sees only what is written later (the link's frames, released by {@link PeerAuthenticated}).
 * The peer does the same, so its stream is Hello, Proof, then sealed frames only; the opener is in
 * place before the frame after its Proof is passed on, whether or not it came in the same read.
 */
final class HandshakeHandler extends ChannelInboundHandlerAdapter {
    private final Role role;
    private final SigningKey key;
    private final WireVersions versions;
    private final NodeAddress advertised;
    private final MessageCodec codec;
    private final Duration timeout;
    private final SecureRandom random;
    private final TransportCounters counters;
    private final VersionRefusals versionRefusals;
    /** The protocol decoder of a link at the given wire version. */
    private final IntFunction<ChannelHandler> protocolDecoder;
    private final Runnable onProven;
    /** Checks the peer's advertised address against the connection, or null when not asked to. */
    private final AddressRefusals addressRefusals;
    /** The address this node dialed (outbound), or null (inbound). */
    private final NodeAddress dialed;

    private Hello ownHello;
    private Hello peerHello;
    /** The link's wire version, from the peer's Hello on. */
    private int version;
    /** Ours until the peer's Hello arrives, then dropped. */
    private EphemeralKey ephemeral;
    /** What the two ephemeral keys agreed, from the peer's Hello until its Proof verifies. */
    private byte[] secret;
    private ScheduledFuture<?> timer;
    private boolean finished;

    HandshakeHandler(Role role, SigningKey key, WireVersions versions, NodeAddress advertised, MessageCodec codec,
            Duration timeout, SecureRandom random, TransportCounters counters, VersionRefusals versionRefusals,
            IntFunction<ChannelHandler> protocolDecoder, Runnable onProven, AddressRefusals addressRefusals, NodeAddress dialed) {
        this.role = role;
        this.key = key;
        this.versions = versions;
        this.advertised = advertised;
        this.codec = codec;
        this.timeout = timeout;
        this.random = random;
        this.counters = counters;
        this.versionRefusals = versionRefusals;
        this.protocolDecoder = protocolDecoder;
        this.onProven = onProven;
        this.addressRefusals = addressRefusals;
        this.dialed = dialed;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        byte[] nonce = VersionOffer.nonce(versions, random);
        ephemeral = EphemeralKey.generate(random);
        ownHello = new Hello(nonce, ephemeral.publicKey());
        timer = ctx.executor().schedule(() -> timeOut(ctx), timeout.toNanos(), TimeUnit.NANOSECONDS);
        ctx.writeAndFlush(Frames.encode(codec, ownHello, HandshakeCodec.FRAME_VERSION, ctx.alloc()));
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
                message = Frames.decode(codec, frame, HandshakeCodec.FRAME_VERSION);
            } catch (WireException e) {
                refuse(ctx);
                return;
            }
            if (message instanceof Hello hello && peerHello == null) {
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

    /** On the peer's Hello: agree the link's version and a secret with its ephemeral key, and send our Proof. */
    private void answer(ChannelHandlerContext ctx, Hello hello) {
        peerHello = hello;
        OptionalInt common = versions.highestCommon(hello.offer());
        if (common.isEmpty()) {
            // Both ends see both offers, so a peer of this build refuses us too, for the same reason;
            // one of version 8 sees the connection close.
            versionRefusals.refused(ctx.channel().remoteAddress(), versions, hello.offer());
            refuse(ctx);
            return;
        }
        version = common.getAsInt();
        secret = ephemeral.agree(hello.ephemeralKey());
        ephemeral = null;
        if (secret == null) {
            refuse(ctx);
            return;
        }
        byte[] transcript = Transcript.of(version, role, clientHello(), serverHello(), key.publicKey(), advertised);
        Proof proof = new Proof(key.publicKey(), advertised, key.sign(transcript));
        ctx.writeAndFlush(Frames.encode(codec, proof, HandshakeCodec.FRAME_VERSION, ctx.alloc()));
    }

    private void check(ChannelHandlerContext ctx, Proof proof) {
        byte[] transcript = Transcript.of(version, role.peer(), clientHello(), serverHello(), proof.key(), proof.address());
        if (!proof.key().verify(transcript, proof.signature())) {
            refuse(ctx);
            return;
        }
        if (addressRefusals != null) {
            String mismatch = AddressProof.mismatch(ctx.channel().remoteAddress(), ctx.channel().localAddress(), dialed,
                    proof.address());
            if (mismatch != null) {
                addressRefusals.refused(ctx.channel().remoteAddress(), mismatch);
                refuse(ctx);
                return;
            }
        }
        finished = true;
        timer.cancel(false);
        PublicKey clientKey = role == Role.CLIENT ? key.publicKey() : proof.key();
        PublicKey serverKey = role == Role.SERVER ? key.publicKey() : proof.key();
        LinkKeys keys = LinkKeys.derive(role, secret, clientHello(), serverHello(), clientKey, serverKey);
        forgetSecret();
        onProven.run();
        // Our Proof is written already (see the class comment): from here on every frame is sealed,
        // and every frame of the peer's, those behind its Proof in this read too, is opened.
        ctx.pipeline().addBefore(ctx.name(), ConnectionPipeline.SEALER, new FrameSealer(new FrameAead(keys.sending())));
        ctx.pipeline().addBefore(ctx.name(), ConnectionPipeline.OPENER,
                new FrameOpener(new FrameAead(keys.receiving()), counters));
        ctx.fireUserEventTriggered(new PeerAuthenticated(new NodeHandle(proof.key().nodeId(), proof.address()), version));
        // Frames behind the proof in the same read go to the protocol decoder from here on.
        ctx.pipeline().replace(this, ConnectionPipeline.PROTOCOL_DECODER, protocolDecoder.apply(version));
    }

    private Hello clientHello() {
        return role == Role.CLIENT ? ownHello : peerHello;
    }

    private Hello serverHello() {
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
