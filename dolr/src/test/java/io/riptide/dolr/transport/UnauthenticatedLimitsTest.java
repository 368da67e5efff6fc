package io.riptide.dolr.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.channel.epoll.Epoll;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.net.NettyTransport;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.wire.Frames;
import io.riptide.dolr.transport.Cluster.Node;
import io.riptide.dolr.transport.Inbox.Received;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Until a peer has proved its key, its connection costs the node a few KB, for no longer than the
 * handshake timeout, and only so many such connections are let in per source address and in all.
 * Nodes listen on 127.0.0.1; attackers come from other loopback addresses (127.0.0.2 and up), as if
 * from other hosts, and honest nodes from 127.0.0.1, the node's own host.
 */
class UnauthenticatedLimitsTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    /** Long enough that silent attackers hold their places for the whole test. */
    private static final Duration HELD = Duration.ofSeconds(60);
    private static final int CAP = HandshakeCodec.MAX_FRAME_BYTES;

    private Cluster cluster = new Cluster();
    private final List<RawPeer> raw = new ArrayList<>();
    private final NettyLogWatch netty = new NettyLogWatch();

    @AfterEach
    void tearDown() throws Exception {
        try {
            for (RawPeer peer : raw) {
                peer.close();
            }
            cluster.close();
            netty.assertClean();
        } finally {
            netty.close();
        }
    }

    @Test
    void theLargestHandshakeFrameFitsUnderTheCap() {
        SigningKey key = cluster.newKey();
        NodeAddress longest = new NodeAddress("h".repeat(255), 65535);
        byte[] proof = RawPeer.frame(HandshakeCodec.create(), new Proof(key.publicKey(), longest, new byte[64]));
        byte[] hello = RawPeer.frame(HandshakeCodec.create(), ManualHandshake.hello(new byte[Hello.NONCE_BYTES]));
        assertEquals(HandshakeCodec.LARGEST_FRAME_BYTES, proof.length - 4, "the computed size is the encoded size");
        assertTrue(hello.length < proof.length);
        assertTrue(HandshakeCodec.LARGEST_FRAME_BYTES <= CAP && CAP <= 4 * 1024, "a few KB, with room: " + CAP);
    }

    @ParameterizedTest
    @EnumSource(NettyTransport.class)
    void aFrameAnnouncingSixteenMebibytesIsCutOffAfterOneSmallRead(NettyTransport sockets) throws Exception {
        Node server = startOn(sockets, TransportConfig.defaults());
        RawPeer peer = attacker(server, 2);
        byte[] junk = new byte[16 * 1024];
        long sent = 0;
        if (peer.write(new byte[] {1, 0, 0, 0, (byte) Frames.OLDEST_VERSION})) {
            // Up to 1 MiB of the announced 16: whatever the kernel's buffers take before the reset.
            while (sent < (1 << 20) && peer.write(junk)) {
                sent += junk.length;
            }
        }
        assertTrue(peer.closedByServerWithin(WAIT), "the node closed the connection");
        Await.until(WAIT, "the frame counted", () -> server.metrics().framesOverHandshakeCap() == 1);
        TransportMetrics m = server.metrics();
        assertTrue(m.bytesIn() <= 2 * CAP, "the node read " + m.bytesIn() + " bytes of the " + sent + " sent");
        assertEquals(1, m.framesRefused(), "counted once among the refusals: " + m);
        assertEquals(0, m.handshakesFailed() + m.handshakesTimedOut(), "cut off by the cap, not the deadline: " + m);
        assertServesHonestPeer(server);
    }

    @ParameterizedTest
    @EnumSource(NettyTransport.class)
    void readsBeforeTheHandshakeStaySmallWhenThePeerSendsMuchAtOnce(NettyTransport sockets) throws Exception {
        // A frame of exactly the cap, then more: the adaptive allocator alone would grow its second
        // read to 32 KiB as soon as the first came back full.
        Node server = startOn(sockets, TransportConfig.defaults());
        RawPeer peer = attacker(server, 2);
        peer.read(HandshakeCodec.create());
        byte[] burst = new byte[64 * 1024];
        burst[2] = (byte) (CAP >>> 8);
        burst[3] = (byte) CAP;
        peer.write(burst);
        assertTrue(peer.closedByServerWithin(WAIT), "the node closed the connection");
        Await.until(WAIT, "the junk frame refused", () -> server.metrics().handshakesFailed() == 1);
        long read = server.metrics().bytesIn();
        assertTrue(read <= 2 * CAP, "the node read " + read + " bytes before refusing the frame");
    }

    @Test
    void framesUpToTheMaximumPassOnceThePeerHasProvedItsKey() throws Exception {
        Node server = cluster.start(TransportConfig.defaults());
        SigningKey key = cluster.newKey();
        RawPeer peer = attacker(server, 2);
        peer.handshake(key, key, new NodeAddress("127.0.0.2", 1));
        peer.writeSealed(RawPeer.frame(Ping.codec(), new Ping(1, new byte[64 * CAP])));
        Received got = server.inbox().take(WAIT);
        assertEquals(64 * CAP, assertInstanceOf(Ping.class, got.message()).payload().length);
        assertEquals(0, server.metrics().framesRefused());
        assertEquals(0, server.metrics().unauthenticatedConnections(), "a proven peer holds no place");
    }

    @Test
    void aSilentConnectionIsClosedAtTheDeadline() throws Exception {
        Duration deadline = Duration.ofMillis(300);
        Node server = cluster.start(TransportConfig.defaults().withHandshakeTimeout(deadline));
        long start = System.nanoTime();
        RawPeer peer = attacker(server, 2);
        Await.until(WAIT, "the connection admitted", () -> server.metrics().unauthenticatedConnections() == 1);
        assertTrue(peer.closedByServerWithin(WAIT), "the node closed the connection");
        assertTrue(System.nanoTime() - start >= deadline.toNanos(), "not before the deadline");
        Await.until(WAIT, "the timeout counted", () -> server.metrics().handshakesTimedOut() == 1);
        assertEquals(1, server.metrics().handshakesFailed());
        Await.until(WAIT, "its place freed", () -> server.metrics().unauthenticatedConnections() == 0);
    }

    @Test
    void aHandshakeDrippedByteByByteIsClosedAtTheDeadline() throws Exception {
        // Traffic keeps the idle timer (2 min) from firing; the deadline runs from the connect regardless.
        Duration deadline = Duration.ofMillis(300);
        Node server = cluster.start(TransportConfig.defaults().withHandshakeTimeout(deadline));
        RawPeer peer = attacker(server, 2);
        byte[] hello = RawPeer.frame(HandshakeCodec.create(), ManualHandshake.hello(new byte[Hello.NONCE_BYTES]));
        long start = System.nanoTime();
        for (int i = 0; i < hello.length - 1 && System.nanoTime() - start < WAIT.toNanos(); i++) {
            if (!peer.write(new byte[] {hello[i]}) || server.metrics().handshakesTimedOut() > 0) {
                break;
            }
            Thread.sleep(50);
        }
        assertTrue(peer.closedByServerWithin(WAIT), "the node closed the connection");
        Await.until(WAIT, "the timeout counted", () -> server.metrics().handshakesTimedOut() == 1);
    }

    @Test
    void overItsCapASourceIsRefusedBeforeAByteWhileOthersStillConnect() throws Exception {
        Node server = cluster.start(TransportConfig.defaults().withHandshakeTimeout(HELD));
        int perSource = TransportConfig.DEFAULT_MAX_UNAUTHENTICATED_PER_SOURCE;
        for (int i = 0; i < perSource; i++) {
            attacker(server, 2);
        }
        Await.until(WAIT, "the attacker's connections admitted",
                () -> server.metrics().unauthenticatedConnections() == perSource);

        RawPeer refused = attacker(server, 2);
        assertEquals(0, refused.bytesUntilClosed(WAIT), "closed at once, without even the node's Hello");
        Await.until(WAIT, "the refusal counted", () -> server.metrics().refusedOverSourceCap() == 1);

        // Honest nodes from another address, and a raw one from a third, are let in meanwhile.
        assertServesHonestPeer(server);
        assertServesHonestPeer(server);
        SigningKey key = cluster.newKey();
        RawPeer other = attacker(server, 3);
        other.handshake(key, key, new NodeAddress("127.0.0.3", 1));
        other.writeSealed(RawPeer.frame(Ping.codec(), new Ping(3, new byte[0])));
        assertEquals(key.publicKey().nodeId(), server.inbox().take(WAIT).from().id());

        // A place is freed when its connection closes: the source may connect again.
        raw.get(0).close();
        Await.until(WAIT, "the closed connection's place freed",
                () -> server.metrics().unauthenticatedConnections() == perSource - 1);
        RawPeer again = attacker(server, 2);
        assertInstanceOf(Hello.class, again.read(HandshakeCodec.create()), "admitted again");
        assertEquals(1, server.metrics().refusedOverSourceCap());
        assertEquals(0, server.metrics().refusedOverTotalCap());
    }

    @Test
    void overTheTotalCapAnyoneIsRefusedButProvenPeersAreNotCounted() throws Exception {
        Node server = cluster.start(TransportConfig.defaults().withHandshakeTimeout(HELD).withMaxUnauthenticated(2, 4));
        // More proven peers than the total cap: they hold no place.
        List<Node> honest = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            honest.add(assertServesHonestPeer(server));
        }
        assertEquals(0, server.metrics().unauthenticatedConnections());

        for (int source = 2; source <= 3; source++) {
            attacker(server, source);
            attacker(server, source);
        }
        Await.until(WAIT, "four attackers admitted", () -> server.metrics().unauthenticatedConnections() == 4);
        RawPeer refused = attacker(server, 4);
        assertEquals(0, refused.bytesUntilClosed(WAIT), "closed at once, without even the node's Hello");
        Await.until(WAIT, "the refusal counted", () -> server.metrics().refusedOverTotalCap() == 1);
        assertEquals(0, server.metrics().refusedOverSourceCap());

        // Proven links keep working both ways while the caps are full.
        for (Node peer : honest) {
            peer.transport().send(server.address(), new Ping(7, new byte[0]));
            assertEquals(peer.transport().self(), server.inbox().take(WAIT).from());
            server.transport().send(peer.address(), new Ping(8, new byte[0]));
            assertEquals(8, ((Ping) peer.inbox().take(WAIT).message()).n());
        }

        // Once the attackers go, newcomers are let in again.
        for (RawPeer peer : raw) {
            peer.close();
        }
        Await.until(WAIT, "the places freed", () -> server.metrics().unauthenticatedConnections() == 0);
        assertServesHonestPeer(server);
    }

    @Test
    void connectionsFromTheNodesOwnHostCountTowardTheTotalOnly() throws Exception {
        // A cluster on one machine shares one address: its bursts of joins must not meet the per-source cap.
        Node server = cluster.start(TransportConfig.defaults().withHandshakeTimeout(HELD).withMaxUnauthenticated(2, 4));
        for (int i = 0; i < 4; i++) {
            attacker(server, 1);
        }
        Await.until(WAIT, "four from this host admitted", () -> server.metrics().unauthenticatedConnections() == 4);
        RawPeer refused = attacker(server, 1);
        assertEquals(0, refused.bytesUntilClosed(WAIT), "the fifth closed at once");
        Await.until(WAIT, "the refusal counted", () -> server.metrics().refusedOverTotalCap() == 1);
        assertEquals(0, server.metrics().refusedOverSourceCap());
    }

    private Node startOn(NettyTransport sockets, TransportConfig config) {
        assumeTrue(sockets == NettyTransport.NIO || Epoll.isAvailable(), "epoll is not available here");
        cluster.close();
        cluster = new Cluster(sockets);
        return cluster.start(config);
    }

    /** A raw connection to {@code server} from 127.0.0.{@code host}. */
    private RawPeer attacker(Node server, int host) throws IOException {
        RawPeer peer = new RawPeer(server.address(), InetAddress.getByAddress(new byte[] {127, 0, 0, (byte) host}));
        raw.add(peer);
        return peer;
    }

    /** A new node (from 127.0.0.1) connects to {@code server}, and messages pass both ways. */
    private Node assertServesHonestPeer(Node server) throws Exception {
        Node peer = cluster.start(TransportConfig.defaults());
        peer.transport().send(server.address(), new Ping(42, new byte[16]));
        Received got = server.inbox().take(WAIT);
        assertEquals(peer.transport().self(), got.from());
        server.transport().send(peer.address(), new Ping(43, new byte[0]));
        assertEquals(43, ((Ping) peer.inbox().take(WAIT).message()).n());
        return peer;
    }
}
