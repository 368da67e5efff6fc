package io.riptide.dolr.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.embedded.EmbeddedChannel;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.wire.Frames;
import io.riptide.core.wire.MessageCodec;
import io.riptide.core.wire.WireException;
import io.riptide.core.wire.WireMessage;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Throws random, truncated, oversized and mutated frames at a connection's real inbound pipeline,
 * before and after the handshake, and checks each outcome against a reference model of the rules:
 * a bad length (before the handshake, one over the handshake's cap) or undecodable frame closes the
 * connection, counted once; a valid frame is delivered; an incomplete one waits. No exception may escape and every buffer must be released.
 */
class FrameFuzzTest {
    /** Above the handshake's cap, so that lengths between the two tell the phases apart. */
    private static final int MAX_FRAME = 4 * HandshakeCodec.MAX_FRAME_BYTES;
    private static final long SEED = 0x5EED_F00DL;
    private static final int CASES = 2500;
    private static final NodeAddress SERVER = new NodeAddress("127.0.0.1", 7001);
    private static final NodeAddress CLIENT = new NodeAddress("127.0.0.1", 7002);

    private final TransportConfig config = TransportConfig.defaults().withMaxFrameBytes(MAX_FRAME);
    private final TransportCounters counters = new TransportCounters();
    private final TrackingAllocator alloc = new TrackingAllocator();
    private final List<WireMessage> delivered = new ArrayList<>();
    private final SigningKey clientKey = SigningKey.fromSeed(new byte[32]);
    private final MessageCodec handshakeCodec = HandshakeCodec.create();
    private final MessageCodec nodeCodec = Ping.codec();
    private final ConnectionPipeline pipeline = new ConnectionPipeline(SigningKey.fromSeed(filled(1)), nodeCodec,
            (from, m) -> delivered.add(m), Runnable::run, config, counters, new SecureRandom(),
            new PeerLinks(1 << 20, Duration.ZERO, counters), new UnauthenticatedConnections(CASES, CASES, counters),
            () -> SERVER);
    private final NettyLogWatch netty = new NettyLogWatch();

    @AfterEach
    void tearDown() throws InterruptedException {
        try {
            netty.assertClean();
        } finally {
            netty.close();
        }
    }

    @Test
    void beforeTheHandshake() {
        fuzz(false, new Random(SEED));
    }

    @Test
    void afterTheHandshake() {
        fuzz(true, new Random(SEED + 1));
    }

    @Test
    void modelAndPipelineAgreeOnAValidExchange() {
        // The fuzz's assertions mean something only if valid input is delivered, not just survived.
        EmbeddedChannel ch = authenticated();
        byte[] two = HostileBytes.concat(RawPeer.frame(nodeCodec, new Ping(1, new byte[3])), RawPeer.frame(nodeCodec, new Ping(2, new byte[0])));
        assertEquals(new Expect(false, 2), model(two, true));
        feed(ch, two, new Random(1));
        assertTrue(ch.isOpen());
        assertEquals(List.of(1L, 2L), delivered.stream().map(m -> ((Ping) m).n()).toList());
        ch.finishAndReleaseAll();
        assertEquals(0, alloc.outstanding());
    }

    private void fuzz(boolean afterHandshake, Random random) {
        int closed = 0;
        int deliveredCases = 0;
        for (int i = 0; i < CASES; i++) {
            byte[] input = generate(random, afterHandshake);
            Expect expect = model(input, afterHandshake);
            EmbeddedChannel ch = afterHandshake ? authenticated() : fresh();
            long refusalsBefore = refusals();
            int deliveredBefore = delivered.size();

            feed(ch, input, random);

            String what = "case " + i + " " + Arrays.toString(Arrays.copyOf(input, Math.min(input.length, 400)));
            assertEquals(expect.closed(), !ch.isOpen(), "closed? " + what);
            assertEquals(expect.closed() ? 1 : 0, refusals() - refusalsBefore, "refusals counted for " + what);
            assertEquals(expect.delivered(), delivered.size() - deliveredBefore, "delivered for " + what);
            // Ending the connection (a peer leaving mid-frame) must not throw either.
            ch.finishAndReleaseAll();
            assertEquals(0, alloc.outstanding(), "buffers leaked by " + what);
            alloc.forgetReleased();
            closed += expect.closed() ? 1 : 0;
            deliveredCases += expect.delivered() > 0 ? 1 : 0;
        }
        // The generator must reach every branch, or the fuzz is weaker than it looks.
        assertTrue(closed > CASES / 4 && closed < CASES, "closed " + closed + " of " + CASES);
        if (afterHandshake) {
            assertTrue(deliveredCases > CASES / 20, "cases delivering messages: " + deliveredCases);
        }
    }

    private long refusals() {
        TransportMetrics m = counters.snapshot(0, 0);
        return m.framesRefused() + m.handshakesFailed();
    }

    /** Writes {@code input} in random chunks, as TCP may split it, until the channel closes. */
    private void feed(EmbeddedChannel ch, byte[] input, Random random) {
        int pos = 0;
        while (pos < input.length && ch.isOpen()) {
            int n = 1 + random.nextInt(input.length - pos);
            ByteBuf chunk = alloc.buffer(n).writeBytes(input, pos, n);
            pos += n;
            ch.writeInbound(chunk); // rethrows anything that reached the pipeline's tail
        }
    }

    // ---- the reference model ----

    /** What a connection must do with some input: close, or stay open having delivered some messages. */
    record Expect(boolean closed, int delivered) {
    }

    private Expect model(byte[] in, boolean afterHandshake) {
        int pos = 0;
        int messages = 0;
        boolean sawHello = false;
        int limit = afterHandshake ? MAX_FRAME : HandshakeCodec.MAX_FRAME_BYTES;
        while (in.length - pos >= 4) {
            int length = ((in[pos] & 0xff) << 24) | ((in[pos + 1] & 0xff) << 16) | ((in[pos + 2] & 0xff) << 8) | (in[pos + 3] & 0xff);
            if (length < 0 || length > limit) {
                return new Expect(true, messages);
            }
            if (in.length - pos - 4 < length) {
                break;
            }
            ByteBuf frame = Unpooled.wrappedBuffer(in, pos + 4, length);
            pos += 4 + length;
            try {
                WireMessage m = Frames.decode(afterHandshake ? nodeCodec : handshakeCodec, frame);
                if (afterHandshake) {
                    messages++;
                } else if (m instanceof Hello && !sawHello) {
                    sawHello = true;
                } else {
                    // A second Hello, or any Proof: fuzz input can't sign for the server's fresh nonce.
                    return new Expect(true, 0);
                }
            } catch (WireException e) {
                return new Expect(true, messages);
            } finally {
                frame.release();
            }
        }
        return new Expect(false, messages);
    }

    // ---- input generation ----

    private byte[] generate(Random r, boolean afterHandshake) {
        return switch (r.nextInt(7)) {
            case 0 -> HostileBytes.randomBytes(r, r.nextInt(64));
            case 1 -> HostileBytes.concat(header(r.nextInt(48)), HostileBytes.randomBytes(r, r.nextInt(56)));
            case 2 -> HostileBytes.concat(header(oversizedLength(r)), HostileBytes.randomBytes(r, r.nextInt(16)));
            case 3 -> {
                byte[] valid = valid(r, afterHandshake);
                yield Arrays.copyOf(valid, r.nextInt(valid.length));
            }
            case 4 -> mutate(r, valid(r, afterHandshake));
            case 5 -> {
                byte[] out = new byte[0];
                for (int k = 1 + r.nextInt(4); k > 0; k--) {
                    out = HostileBytes.concat(out, valid(r, afterHandshake));
                }
                yield r.nextBoolean() ? out : HostileBytes.concat(out, HostileBytes.randomBytes(r, 1 + r.nextInt(32)));
            }
            default -> valid(r, afterHandshake);
        };
    }

    private byte[] valid(Random r, boolean afterHandshake) {
        int pick = r.nextInt(6);
        if (pick == 0) {
            // The other phase's message: a protocol frame before the handshake, a Hello after it.
            return afterHandshake ? RawPeer.frame(handshakeCodec, new Hello(HostileBytes.randomBytes(r, Hello.NONCE_BYTES)))
                    : RawPeer.frame(nodeCodec, new Ping(r.nextLong(), HostileBytes.randomBytes(r, r.nextInt(32))));
        }
        if (afterHandshake) {
            return RawPeer.frame(nodeCodec, new Ping(r.nextLong(), HostileBytes.randomBytes(r, r.nextInt(200))));
        }
        if (pick == 1) {
            return RawPeer.frame(handshakeCodec, new Proof(clientKey.publicKey(), CLIENT, HostileBytes.randomBytes(r, 64)));
        }
        return RawPeer.frame(handshakeCodec, new Hello(HostileBytes.randomBytes(r, Hello.NONCE_BYTES)));
    }

    private static int oversizedLength(Random r) {
        return switch (r.nextInt(4)) {
            case 0 -> Integer.MAX_VALUE;
            case 1 -> Integer.MIN_VALUE | r.nextInt();
            // Too long for a handshake frame, within the maximum after it.
            case 2 -> HandshakeCodec.MAX_FRAME_BYTES + 1 + r.nextInt(MAX_FRAME - HandshakeCodec.MAX_FRAME_BYTES);
            default -> MAX_FRAME + 1 + r.nextInt(Integer.MAX_VALUE - MAX_FRAME - 1);
        };
    }

    private static byte[] mutate(Random r, byte[] bytes) {
        byte[] out = bytes.clone();
        for (int k = 1 + r.nextInt(3); k > 0; k--) {
            int at = r.nextInt(out.length);
            out[at] ^= (byte) (1 + r.nextInt(255));
        }
        return out;
    }

    private static byte[] header(int length) {
        return new byte[] {(byte) (length >>> 24), (byte) (length >>> 16), (byte) (length >>> 8), (byte) length};
    }

    private static byte[] filled(int value) {
        byte[] b = new byte[32];
        Arrays.fill(b, (byte) value);
        return b;
    }

    // ---- channels ----

    /** A server-side connection that has just sent its Hello. */
    private EmbeddedChannel fresh() {
        ChannelInitializer<Channel> inbound = pipeline.inbound(ch -> { });
        EmbeddedChannel ch = new EmbeddedChannel(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel c) {
                c.config().setAllocator(alloc);
                c.pipeline().addLast(inbound);
            }
        });
        ch.runPendingTasks();
        return ch;
    }

    /** A server-side connection on which a client has completed the handshake. */
    private EmbeddedChannel authenticated() {
        EmbeddedChannel ch = fresh();
        Hello serverHello = (Hello) readOutbound(ch);
        byte[] nonce = filled(9);
        ch.writeInbound(alloc.buffer().writeBytes(RawPeer.frame(handshakeCodec, new Hello(nonce))));
        assertNotNull(readOutbound(ch), "server proof");
        byte[] transcript = Transcript.of(Role.CLIENT, nonce, serverHello.nonce(), clientKey.publicKey(), CLIENT);
        ch.writeInbound(alloc.buffer().writeBytes(
                RawPeer.frame(handshakeCodec, new Proof(clientKey.publicKey(), CLIENT, clientKey.sign(transcript)))));
        assertNotNull(ch.pipeline().get(ConnectionPipeline.PROTOCOL_DECODER), "handshake completed");
        return ch;
    }

    private WireMessage readOutbound(EmbeddedChannel ch) {
        ch.runPendingTasks();
        ByteBuf frame = ch.readOutbound();
        assertNotNull(frame, "server wrote a frame");
        try {
            frame.skipBytes(4);
            return Frames.decode(handshakeCodec, frame);
        } catch (WireException e) {
            throw new AssertionError(e);
        } finally {
            frame.release();
        }
    }
}
