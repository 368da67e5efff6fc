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
                "Update", "Beats")) {
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
            case 0 -> HostileBytes.flipBits(r, base);
            case 1 -> Arrays.copyOf(base, r.nextInt(base.length + 1));
            case 2 -> HostileBytes.concat(base, HostileBytes.randomBytes(r, 1 + r.nextInt(16)));
            case 3 -> HostileBytes.forgeInt(r, base);
            case 4 -> HostileBytes.splice(r, base, bodies.get(r.nextInt(bodies.size())));
            case 5 -> HostileBytes.retag(base, bodies.get(r.nextInt(bodies.size())));
            case 6 -> HostileBytes.forgeShort(r, base);
            default -> HostileBytes.flipBits(r, HostileBytes.forgeInt(r, base));
        };
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
