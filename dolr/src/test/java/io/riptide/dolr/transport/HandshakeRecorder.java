package io.riptide.dolr.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.riptide.core.crypto.SigningKey;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Runs one handshake between two handshake handlers over in-memory channels, both with fixed keys
 * and deterministic randomness, then one frame each way, and records every byte each side wrote:
 * the same handlers give the same lines. The lines of main's version-8 code (commit e2982c0) are
 * kept in {@code v8-handshake.txt}, recorded by this class compiled against that commit.
 */
final class HandshakeRecorder {
    /** A handler for {@code role}, from {@code key} and {@code random}; it hands later frames on as they are. */
    interface Side {
        ChannelHandler handler(Role role, SigningKey key, SecureRandom random);
    }

    /** The plaintext of the frame each side sends once the link is up: a frame of version 8, tag 7, three bytes. */
    static final byte[] PLAINTEXT_FRAME = {0, 0, 0, 6, 8, 0, 7, 1, 2, 3};

    private HandshakeRecorder() {
    }

    /** A protocol stage that hands frames on as they are, so the test sees what the opener let through. */
    static ChannelHandler passThrough() {
        return new ChannelInboundHandlerAdapter();
    }

    /** A SecureRandom whose bytes are the same on every run for {@code seed}. */
    static SecureRandom deterministic(long seed) {
        SplittableRandom source = new SplittableRandom(seed);
        return new SecureRandom() {
            @Override
            public void nextBytes(byte[] bytes) {
                for (int i = 0; i < bytes.length; i++) {
                    bytes[i] = (byte) source.nextInt(256);
                }
            }
        };
    }

    static SigningKey key(int n) {
        byte[] seed = new byte[32];
        seed[0] = (byte) n;
        seed[31] = 0x38;
        return SigningKey.fromSeed(seed);
    }

    /** The lines of one run: each frame written, in order, as "client"/"server" and hex, then what each read. */
    static List<String> record(Side client, Side server) {
        List<String> lines = new ArrayList<>();
        EmbeddedChannel c = channel(client.handler(Role.CLIENT, key(1), deterministic(11)));
        EmbeddedChannel s = channel(server.handler(Role.SERVER, key(2), deterministic(22)));
        try {
            pump(c, s, lines);
            c.writeAndFlush(Unpooled.wrappedBuffer(PLAINTEXT_FRAME));
            s.writeAndFlush(Unpooled.wrappedBuffer(PLAINTEXT_FRAME));
            pump(c, s, lines);
            lines.add("client read " + readInbound(c));
            lines.add("server read " + readInbound(s));
            return lines;
        } finally {
            c.finishAndReleaseAll();
            s.finishAndReleaseAll();
        }
    }

    private static EmbeddedChannel channel(ChannelHandler handshake) {
        return new EmbeddedChannel(new LengthFieldBasedFrameDecoder(4096 + 64, 0, 4, 0, 4), handshake);
    }

    private static String readInbound(EmbeddedChannel ch) {
        StringBuilder out = new StringBuilder();
        Object m;
        while ((m = ch.readInbound()) != null) {
            ByteBuf b = (ByteBuf) m;
            out.append(ByteBufUtil.hexDump(b)).append(';');
            b.release();
        }
        return out.toString();
    }

    private static void pump(EmbeddedChannel c, EmbeddedChannel s, List<String> lines) {
        boolean moved = true;
        while (moved) {
            moved = move("client", c, s, lines) | move("server", s, c, lines);
        }
    }

    private static boolean move(String who, EmbeddedChannel from, EmbeddedChannel to, List<String> lines) {
        boolean moved = false;
        ByteBuf out;
        while ((out = from.readOutbound()) != null) {
            moved = true;
            lines.add(who + " wrote " + ByteBufUtil.hexDump(out));
            if (to.isOpen()) {
                to.writeInbound(out);
            } else {
                out.release();
            }
        }
        if (!from.isOpen() && !lines.contains(who + " closed")) {
            lines.add(who + " closed");
        }
        return moved;
    }

    /** Prints main's lines: compiled against main's classes with {@code mainSide()} there. */
    static void print(Side side) {
        record(side, side).forEach(System.out::println);
    }
}
