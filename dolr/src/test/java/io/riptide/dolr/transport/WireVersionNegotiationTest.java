package io.riptide.dolr.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.riptide.core.wire.Frames;
import io.riptide.core.wire.MessageCodec;
import io.riptide.core.wire.WireException;
import io.riptide.dolr.transport.Cluster.Node;
import io.riptide.dolr.transport.Relay.Way;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Wire versions over real connections: the version each link agrees, a message field gated by it,
 * and a relay that tries to talk two nodes down to an older version.
 */
class WireVersionNegotiationTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final TransportConfig OLD = TransportConfig.defaults().withWireVersions(WireVersions.only(Frames.OLDEST_VERSION));

    private final Cluster cluster = new Cluster();
    private final NettyLogWatch netty = new NettyLogWatch();
    private Relay relay;

    @AfterEach
    void tearDown() throws Exception {
        try {
            if (relay != null) {
                relay.close();
            }
            cluster.close();
            netty.assertClean();
        } finally {
            netty.close();
        }
    }

    @Test
    void aFieldNewInVersion9CrossesLinksAt9AndIsLeftOffLinksAt8() throws Exception {
        Node a = cluster.start(TransportConfig.defaults(), Stamped.codec());
        Node b = cluster.start(TransportConfig.defaults(), Stamped.codec());
        Node old = cluster.start(OLD, Stamped.codec());

        a.transport().send(b.address(), new Stamped(1, 42));
        assertEquals(new Stamped(1, 42), b.inbox().take(WAIT).message(), "a link at 9 carries the stamp");
        assertEquals(OptionalInt.of(9), a.transport().linkVersion(b.address()));

        // Sent before the handshake, so framed at 9 first, then again at 8 once the link agreed 8.
        a.transport().send(old.address(), new Stamped(2, 42));
        assertEquals(new Stamped(2, Stamped.ABSENT), old.inbox().take(WAIT).message(), "a link at 8 has no stamp");
        old.transport().send(a.address(), new Stamped(3, 7));
        assertEquals(new Stamped(3, Stamped.ABSENT), a.inbox().take(WAIT).message());
        assertEquals(OptionalInt.of(8), a.transport().linkVersion(old.address()));
        assertEquals(OptionalInt.of(8), old.transport().linkVersion(a.address()));
        for (Node n : List.of(a, b, old)) {
            assertEquals(0, n.metrics().framesRefused() + n.metrics().handshakesFailed(), "nothing refused: " + n.metrics());
        }
    }

    @Test
    void aFrameIsReadAtItsLinksVersionOnly() throws Exception {
        MessageCodec codec = Stamped.codec();
        ByteBuf at9 = Frames.encode(codec, new Stamped(1, 42), 9, UnpooledByteBufAllocator.DEFAULT);
        ByteBuf at8 = Frames.encode(codec, new Stamped(1, 42), 8, UnpooledByteBufAllocator.DEFAULT);
        try {
            assertEquals(at8.readableBytes() + Long.BYTES, at9.readableBytes(), "the stamp is written at 9 only");
            assertEquals(new Stamped(1, 42), Frames.decode(codec, at9.duplicate().skipBytes(4), 9));
            assertEquals(new Stamped(1, Stamped.ABSENT), Frames.decode(codec, at8.duplicate().skipBytes(4), 8));
            assertThrows(WireException.class, () -> Frames.decode(codec, at9.duplicate().skipBytes(4), 8),
                    "a link at 8 refuses a frame of 9");
        } finally {
            at9.release();
            at8.release();
        }
    }

    /** Ways a relay could alter the offer in a Hello's nonce. */
    enum Downgrade {
        /** The marker gone: the Hello looks like a version-8 node's. */
        STRIP_THE_OFFER(nonce -> {
            nonce[0] ^= 0x55;
            return nonce;
        }),
        /** The newest version offered lowered to 8. */
        LOWER_THE_NEWEST(nonce -> {
            nonce[9] = (byte) Frames.OLDEST_VERSION;
            return nonce;
        });

        final UnaryOperator<byte[]> alter;

        Downgrade(UnaryOperator<byte[]> alter) {
            this.alter = alter;
        }
    }

    @ParameterizedTest
    @EnumSource(Downgrade.class)
    void aRelayThatAltersAnOfferFailsTheHandshakeAtBothEnds(Downgrade downgrade) throws Exception {
        for (Way way : Way.values()) {
            Node a = cluster.start(TransportConfig.defaults());
            Node b = cluster.start(TransportConfig.defaults());
            MessageCodec handshake = HandshakeCodec.create();
            relay = new Relay(b.address(), (connection, w, index, frame) -> {
                if (w != way || index != 0) {
                    return List.of(frame);
                }
                Hello hello = (Hello) RawPeer.decode(handshake, frame);
                Hello altered = new Hello(downgrade.alter.apply(hello.nonce().clone()), hello.ephemeralKey());
                assertEquals(8, altered.offer().max(), "the relay offers 8 at most");
                return List.of(RawPeer.frame(handshake, altered));
            });

            a.transport().send(relay.address(), new Ping(1, new byte[0]));
            // The nonces are in both transcripts and both links' keys: each end signed the offer it saw.
            Await.until(WAIT, way + ": B refused A's proof", () -> b.metrics().handshakesFailed() == 1);
            Await.until(WAIT, way + ": A refused B's proof", () -> a.metrics().handshakesFailed() == 1);
            assertNull(b.inbox().poll(Duration.ofMillis(200)), "nothing delivered");
            assertEquals(0, a.metrics().handshakesVersionRefused() + b.metrics().handshakesVersionRefused(),
                    "refused for the proofs, not for the versions");
            assertTrue(relay.seen().stream().allMatch(f -> f.index() < 2), "no sealed frame was sent: " + relay.seen());
            relay.close();
            relay = null;
        }
    }

    @Test
    void aRelayThatPassesEverythingOnLeavesTheNewestVersion() throws Exception {
        // Through the relay A dials another address than B advertises: the address check would refuse B.
        Node a = cluster.start(TransportConfig.defaults().withAdvertisedAddressCheck(false));
        Node b = cluster.start(TransportConfig.defaults());
        relay = new Relay(b.address(), Relay.AS_IS);
        a.transport().send(relay.address(), new Ping(1, new byte[0]));
        assertInstanceOf(Ping.class, b.inbox().take(WAIT).message());
        assertEquals(OptionalInt.of(Frames.VERSION), a.transport().linkVersion(relay.address()));
        byte[] sealed = relay.seen().stream().filter(f -> f.index() == 2).findFirst().orElseThrow().bytes();
        assertEquals(Frames.VERSION, sealed[4], "frames after the handshake carry the link's version");
    }
}
