package io.riptide.dolr.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.riptide.core.crypto.EphemeralKey;
import io.riptide.core.wire.Frames;
import io.riptide.core.wire.MessageCodec;
import io.riptide.core.wire.WireException;
import io.riptide.dolr.transport.Cluster.Node;
import io.riptide.dolr.transport.Inbox.Received;
import io.riptide.dolr.transport.Relay.Way;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Links are sealed: two real nodes over 127.0.0.1, with a man in the middle ({@link Relay}) that
 * reads what passes, and alters, replays, reorders or swaps keys in it. Whatever it does, the ends
 * either understand each other or hang up and count why; they never accept what it made.
 */
class EncryptedLinkTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    /** A payload that a tap would find if frames went in the clear. */
    private static final byte[] MARKER = "if a tap can read this, the link is not encrypted".getBytes(StandardCharsets.UTF_8);
    /** The first sealed frame of a way: 0 is the Hello, 1 the Proof. */
    private static final int FIRST_SEALED = 2;

    /**
     * The dialler's: it reaches the listener through the relay, at another address than the listener
     * advertises, which the address check would refuse (a relay is what that check is for; here the
     * subject is the sealed frames, so the check is off, as the transport was before it).
     */
    private static final TransportConfig THROUGH_RELAY = TransportConfig.defaults().withAdvertisedAddressCheck(false);

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
    void messagesCrossTheWireSealedBothWays() throws Exception {
        Node a = cluster.start(THROUGH_RELAY);
        Node b = cluster.start(TransportConfig.defaults());
        relay = new Relay(b.address(), Relay.AS_IS);

        a.transport().send(relay.address(), new Ping(1, MARKER));
        Received atB = b.inbox().take(WAIT);
        assertEquals(a.transport().self(), atB.from());
        assertArrayEquals(MARKER, ((Ping) atB.message()).payload());
        // B answers over the same connection, through the relay.
        b.transport().send(a.address(), new Ping(2, MARKER));
        Received atA = a.inbox().take(WAIT);
        assertEquals(b.transport().self(), atA.from());
        assertArrayEquals(MARKER, ((Ping) atA.message()).payload());
        assertEquals(0, b.metrics().connectionsOut(), "the answer went back through the relay");
        assertEquals(1, relay.connections());

        byte[] plain = RawPeer.frame(Ping.codec(), new Ping(1, MARKER));
        assertTrue(indexOf(plain, MARKER) >= 0, "a frame in the clear shows the marker");
        for (Way way : Way.values()) {
            byte[] wire = relay.bytes(way);
            assertTrue(wire.length > plain.length, way + ": the relay saw the message go by");
            assertEquals(-1, indexOf(wire, MARKER), way + ": the marker crossed the wire in the clear");
        }
        // Each way: Hello, Proof in the clear, then the ping sealed, as long as in the clear plus the tag.
        for (Way way : Way.values()) {
            List<Relay.Frame> frames = relay.seen().stream().filter(f -> f.way() == way).toList();
            assertEquals(3, frames.size(), way + ": " + frames);
            assertInstanceOf(Hello.class, decode(HandshakeCodec.create(), frames.get(0).bytes()));
            assertInstanceOf(Proof.class, decode(HandshakeCodec.create(), frames.get(1).bytes()));
            byte[] sealed = frames.get(FIRST_SEALED).bytes();
            assertEquals(plain.length + FrameAead.TAG_BYTES, sealed.length, way + ": a sealed ping's length");
            assertEquals(Frames.VERSION, sealed[4], way + ": the version byte stays in the clear");
        }
        assertEquals(0, a.metrics().framesFailedAuthentication() + b.metrics().framesFailedAuthentication());
    }

    @Test
    void aTamperedFrameClosesTheLinkIsCountedAndTheNextConnectionWorks() throws Exception {
        Node a = cluster.start(THROUGH_RELAY);
        Node b = cluster.start(TransportConfig.defaults());
        // One bit of the first sealed frame's body flipped, on the first connection only.
        relay = new Relay(b.address(), (connection, way, index, frame) ->
                List.of(connection == 0 && way == Way.DIALLER_TO_LISTENER && index == FIRST_SEALED
                        ? Relay.flipped(frame, frame.length / 2) : frame));

        a.transport().send(relay.address(), new Ping(1, MARKER));
        Await.until(WAIT, "the tampered frame refused and counted", () -> b.metrics().framesFailedAuthentication() == 1);
        assertEquals(1, b.metrics().framesRefused(), "counted once, among the refused frames");
        Await.until(WAIT, "A saw the link close", () -> a.metrics().openConnections() == 0);
        assertNull(b.inbox().poll(Duration.ofMillis(200)), "nothing of the tampered frame was delivered");

        // The link is lost, not the peer: a later send connects again, under new keys. (One sent while
        // the old link is being retired is dropped with it.)
        Received again = null;
        for (int i = 0; i < 100 && again == null; i++) {
            a.transport().send(relay.address(), new Ping(2, MARKER));
            again = b.inbox().poll(Duration.ofMillis(100));
        }
        assertTrue(again != null, "a new connection through the relay carried a message");
        assertEquals(2, ((Ping) again.message()).n());
        assertEquals(2, relay.connections());
        assertEquals(1, b.metrics().framesFailedAuthentication());
        assertEquals(0, a.metrics().framesFailedAuthentication());
    }

    @Test
    void aReplayedFrameClosesTheLinkAndIsCounted() throws Exception {
        Node a = cluster.start(THROUGH_RELAY);
        Node b = cluster.start(TransportConfig.defaults());
        // The relay passes the first sealed frame on, then sends it again.
        relay = new Relay(b.address(), (connection, way, index, frame) ->
                way == Way.DIALLER_TO_LISTENER && index == FIRST_SEALED ? List.of(frame, frame) : List.of(frame));

        a.transport().send(relay.address(), new Ping(1, MARKER));
        assertEquals(1, ((Ping) b.inbox().take(WAIT).message()).n(), "the original is delivered");
        Await.until(WAIT, "the replay refused and counted", () -> b.metrics().framesFailedAuthentication() == 1);
        assertEquals(1, b.metrics().framesRefused());
        Await.until(WAIT, "the link closed", () -> b.metrics().openConnections() == 0);
        assertNull(b.inbox().poll(Duration.ofMillis(200)), "the replay was not delivered");
        assertEquals(1, b.metrics().messagesReceived());
    }

    @Test
    void framesPassedOnOutOfOrderCloseTheLinkAndAreCounted() throws Exception {
        Node a = cluster.start(THROUGH_RELAY);
        Node b = cluster.start(TransportConfig.defaults());
        // The relay holds the first sealed frame back and passes it on after the second.
        AtomicReference<byte[]> held = new AtomicReference<>();
        relay = new Relay(b.address(), (connection, way, index, frame) -> {
            if (way != Way.DIALLER_TO_LISTENER || index < FIRST_SEALED) {
                return List.of(frame);
            }
            if (index == FIRST_SEALED) {
                held.set(frame);
                return List.of();
            }
            return index == FIRST_SEALED + 1 ? List.of(frame, held.get()) : List.of(frame);
        });

        a.transport().send(relay.address(), new Ping(1, new byte[0]));
        a.transport().send(relay.address(), new Ping(2, new byte[0]));
        Await.until(WAIT, "the reordered frame refused and counted", () -> b.metrics().framesFailedAuthentication() == 1);
        Await.until(WAIT, "the link closed", () -> b.metrics().openConnections() == 0);
        assertNull(b.inbox().poll(Duration.ofMillis(200)), "neither frame was delivered");
        assertEquals(0, b.metrics().messagesReceived());
    }

    @ParameterizedTest
    @EnumSource(Way.class)
    void aRelayThatSwapsAnEphemeralKeyFailsTheHandshakeAtBothEnds(Way swapped) throws Exception {
        Node a = cluster.start(THROUGH_RELAY);
        Node b = cluster.start(TransportConfig.defaults());
        // The relay's own key in place of one side's, in that side's Hello: what a relay that wanted to
        // agree a key with each end, and read everything, would have to do.
        MessageCodec handshake = HandshakeCodec.create();
        byte[] relayKey = EphemeralKey.generate(new SecureRandom()).publicKey();
        relay = new Relay(b.address(), (connection, way, index, frame) -> {
            if (way != swapped || index != 0) {
                return List.of(frame);
            }
            Hello hello = (Hello) decode(handshake, frame);
            return List.of(RawPeer.frame(handshake, new Hello(hello.nonce(), relayKey)));
        });

        a.transport().send(relay.address(), new Ping(1, MARKER));
        // Each end signed the Hellos as it saw them, so neither end's proof verifies at the other.
        Await.until(WAIT, "B refused A's proof", () -> b.metrics().handshakesFailed() == 1);
        Await.until(WAIT, "A refused B's proof", () -> a.metrics().handshakesFailed() == 1);
        assertNull(b.inbox().poll(Duration.ofMillis(200)), "nothing delivered");
        assertEquals(0, b.metrics().messagesReceived() + a.metrics().messagesReceived());
        List<Relay.Frame> frames = relay.seen();
        assertTrue(frames.stream().allMatch(f -> f.index() < FIRST_SEALED), "no sealed frame was sent: " + frames);
    }

    @Test
    void anEphemeralKeyOfSmallOrderIsRefusedBeforeTheNodeSignsAnything() throws Exception {
        // Its shared secret would be all zeros, which anyone could compute.
        Node server = cluster.start(TransportConfig.defaults());
        try (RawPeer peer = new RawPeer(server.address())) {
            MessageCodec handshake = HandshakeCodec.create();
            assertInstanceOf(Hello.class, peer.read(handshake));
            peer.write(RawPeer.frame(handshake, new Hello(new byte[Hello.NONCE_BYTES], new byte[Hello.KEY_BYTES])));
            assertEquals(0, peer.bytesUntilClosed(WAIT), "closed without sending its Proof");
        }
        Await.until(WAIT, "the refusal counted", () -> server.metrics().handshakesFailed() == 1);
    }

    private static Object decode(MessageCodec codec, byte[] frame) {
        ByteBuf buf = Unpooled.wrappedBuffer(frame, 4, frame.length - 4);
        try {
            return Frames.decode(codec, buf, Frames.OLDEST_VERSION);
        } catch (WireException e) {
            throw new AssertionError(e);
        } finally {
            buf.release();
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
