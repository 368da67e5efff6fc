package io.riptide.dolr.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.riptide.core.wire.MessageCodec;
import io.riptide.core.wire.WireException;
import io.riptide.core.wire.WireMessage;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The overlay's real message decoders under hostile input: every body a node could receive after
 * the handshake, mutated (bits flipped, cut short, lengths forged, fields spliced from other
 * messages). Whatever arrives, decoding either refuses it with a {@link WireException}, which closes
 * the connection, or yields a message that survives its own round trip; nothing else may escape.
 */
class DolrCodecFuzzTest {
    private static final long SEED = 0xD01C0DECL;
    private static final int CASES = 40_000;

    private static MessageCorpus corpus;
    private static List<byte[]> bodies;
    private static MessageCodec codec;

    @BeforeAll
    static void recordCorpus() {
        corpus = MessageCorpus.record(7);
        bodies = corpus.bodies();
        codec = corpus.codec();
    }

    @Test
    void theCorpusHoldsTheMessagesOfEveryPartOfTheProtocol() throws WireException {
        // The fuzz is only as broad as what it mutates.
        Set<String> kinds = corpus.kinds();
        for (String kind : List.of("Routed", "Hop", "HopAck", "JoinRequest", "JoinState", "Announce", "Ping", "Pong",
                "LeafSetGossip", "Publish", "Locate", "Found", "LocateFailed", "ObjectDelivery", "ReadReplica",
                "ReplicaRead", "BloomPull", "BloomAd", "Claim", "ClaimReply", "Place", "Placed", "Attach", "Attached",
                "Update", "Beat")) {
            assertTrue(kinds.contains(kind), kind + " missing from the corpus " + kinds);
        }
        for (byte[] body : bodies) {
            WireMessage m = decode(body);
            assertArrayEquals(body, encode(m), "a real message re-encodes to its own bytes: " + m.getClass().getSimpleName());
        }
    }

    @Test
    void mutatedMessagesAreRefusedOrDecodedButNeverThrowAnythingElse() {
        Random random = new Random(SEED);
        int refused = 0;
        int decoded = 0;
        for (int i = 0; i < CASES; i++) {
            byte[] input = mutate(random);
            WireMessage m;
            try {
                m = decode(input);
            } catch (WireException e) {
                refused++;
                continue;
            } catch (Throwable t) {
                throw new AssertionError("case " + i + " threw " + t + " for " + HexFormat.of().formatHex(input), t);
            }
            decoded++;
            // What a node accepted it must be able to forward: it re-encodes, and that form is stable.
            try {
                byte[] once = encode(m);
                assertArrayEquals(once, encode(decode(once)), "case " + i + ": " + m.getClass().getSimpleName());
            } catch (WireException | RuntimeException e) {
                throw new AssertionError("case " + i + ": accepted " + m.getClass().getSimpleName()
                        + " does not survive its round trip: " + HexFormat.of().formatHex(input), e);
            }
        }
        System.out.printf("codec fuzz: %d mutated bodies of %d kinds: %d refused, %d decoded%n",
                CASES, corpus.kinds().size(), refused, decoded);
        // Both outcomes must be common, or the mutations are too timid or too wild to test anything.
        assertTrue(refused > CASES / 4, "refused " + refused + " of " + CASES);
        assertTrue(decoded > CASES / 50, "decoded " + decoded + " of " + CASES);
        assertEquals(CASES, refused + decoded);
    }

    private static byte[] mutate(Random r) {
        byte[] base = bodies.get(r.nextInt(bodies.size())).clone();
        return switch (r.nextInt(8)) {
            case 0 -> flipBits(r, base);
            case 1 -> Arrays.copyOf(base, r.nextInt(base.length + 1));
            case 2 -> concat(base, randomBytes(r, 1 + r.nextInt(16)));
            case 3 -> forgeInt(r, base);
            case 4 -> splice(r, base, bodies.get(r.nextInt(bodies.size())));
            case 5 -> retag(r, base);
            case 6 -> forgeShort(r, base);
            default -> flipBits(r, forgeInt(r, base));
        };
    }

    private static byte[] flipBits(Random r, byte[] b) {
        for (int k = 1 + r.nextInt(3); k > 0; k--) {
            b[r.nextInt(b.length)] ^= (byte) (1 << r.nextInt(8));
        }
        return b;
    }

    /** Overwrites four bytes with a length a liar would send: huge, negative, zero or off by one. */
    private static byte[] forgeInt(Random r, byte[] b) {
        if (b.length < 4) {
            return b;
        }
        int at = r.nextInt(b.length - 3);
        int[] lies = {Integer.MAX_VALUE, -1, 0, 1 << 24, b.length, b.length - at, r.nextInt()};
        int v = lies[r.nextInt(lies.length)];
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
        return b;
    }

    /** Overwrites a u16 (list counts, string lengths, tags) with an extreme value. */
    private static byte[] forgeShort(Random r, byte[] b) {
        if (b.length < 2) {
            return b;
        }
        int at = r.nextInt(b.length - 1);
        int[] lies = {0xffff, 0, 1, 0x8000, r.nextInt(0x10000)};
        int v = lies[r.nextInt(lies.length)];
        b[at] = (byte) (v >>> 8);
        b[at + 1] = (byte) v;
        return b;
    }

    /** The head of one message on the tail of another. */
    private static byte[] splice(Random r, byte[] a, byte[] b) {
        int cutA = r.nextInt(a.length + 1);
        int cutB = r.nextInt(b.length + 1);
        byte[] out = Arrays.copyOf(a, cutA + b.length - cutB);
        System.arraycopy(b, cutB, out, cutA, b.length - cutB);
        return out;
    }

    /** Another message type's tag on this message's fields. */
    private static byte[] retag(Random r, byte[] b) {
        byte[] donor = bodies.get(r.nextInt(bodies.size()));
        b[0] = donor[0];
        b[1] = donor[1];
        return b;
    }

    private static byte[] randomBytes(Random r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static WireMessage decode(byte[] body) throws WireException {
        return codec.decodeBody(Unpooled.wrappedBuffer(body));
    }

    private static byte[] encode(WireMessage m) {
        ByteBuf buf = Unpooled.buffer();
        try {
            codec.encodeBody(m, buf);
            byte[] out = new byte[buf.readableBytes()];
            buf.readBytes(out);
            return out;
        } finally {
            buf.release();
        }
    }
}
