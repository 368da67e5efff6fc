package io.riptide.dolr.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.wire.Frames;
import io.riptide.core.wire.MessageCodec;
import io.riptide.core.wire.WireException;
import io.riptide.core.wire.WireMessage;
import io.riptide.dolr.transport.Cluster.Node;
import io.riptide.dolr.transport.Inbox.Received;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Arrays;
import java.util.function.ToLongFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Peers that speak the protocol wrongly are cut off and counted; the node keeps serving others. */
class HostilePeerTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Duration HANDSHAKE_TIMEOUT = Duration.ofMillis(400);

    private final Cluster cluster = new Cluster();
    private final NettyLogWatch netty = new NettyLogWatch();
    private Node server;

    @BeforeEach
    void startServer() {
        server = cluster.start(TransportConfig.defaults().withHandshakeTimeout(HANDSHAKE_TIMEOUT).withMaxFrameBytes(64 * 1024));
    }

    @AfterEach
    void tearDown() throws InterruptedException {
        try {
            cluster.close();
            netty.assertClean();
        } finally {
            netty.close();
        }
    }

    @Test
    void garbageIsRefused() throws Exception {
        // 0x6761... as a length is far above the limit.
        assertRefused(TransportMetrics::framesRefused, "garbage, not a frame at all".getBytes());
    }

    @Test
    void oversizedLengthIsRefusedBeforeItsBodyArrives() throws Exception {
        assertRefused(TransportMetrics::framesRefused, new byte[] {0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff, 1});
    }

    @Test
    void negativeLengthIsRefused() throws Exception {
        assertRefused(TransportMetrics::framesRefused, new byte[] {(byte) 0x80, 0, 0, 0, 1});
    }

    @Test
    void truncatedFrameIsRefusedWhenTheHandshakeTimesOut() throws Exception {
        byte[] hello = RawPeer.frame(HandshakeCodec.create(), ManualHandshake.hello(new byte[Hello.NONCE_BYTES]));
        byte[] truncated = Arrays.copyOf(hello, hello.length - 5);
        assertRefused(TransportMetrics::handshakesFailed, truncated);
    }

    @Test
    void protocolMessageBeforeTheHandshakeIsRefused() throws Exception {
        assertRefused(TransportMetrics::handshakesFailed, RawPeer.frame(Ping.codec(), new Ping(1, new byte[8])));
    }

    @Test
    void silentPeerIsRefusedAfterTheHandshakeTimeout() throws Exception {
        assertRefused(TransportMetrics::handshakesFailed, new byte[0]);
    }

    @Test
    void proofSignedWithAnotherKeyIsRefused() throws Exception {
        SigningKey presented = cluster.newKey();
        SigningKey forger = cluster.newKey();
        try (RawPeer peer = new RawPeer(server.address())) {
            peer.handshake(presented, forger, new NodeAddress(Cluster.HOST, 1));
            assertTrue(peer.closedByServerWithin(WAIT), "server closed the connection");
        }
        assertEquals(1, server.metrics().handshakesFailed());
        assertServesLegitimatePeer();
    }

    @Test
    void rawHandshakeWithTheRightKeyIsAccepted() throws Exception {
        // The control for the forged proof: the same raw client, signing honestly, gets through.
        SigningKey key = cluster.newKey();
        NodeAddress advertised = new NodeAddress(Cluster.HOST, 1);
        try (RawPeer peer = new RawPeer(server.address())) {
            peer.handshake(key, key, advertised);
            peer.writeSealed(RawPeer.frame(Ping.codec(), new Ping(5, new byte[0])));
            Received got = server.inbox().take(WAIT);
            assertEquals(key.publicKey().nodeId(), got.from().id());
            assertEquals(advertised, got.from().address());
            assertEquals(5, ((Ping) got.message()).n());

            // After the handshake the node codec applies: a handshake message is now an unknown type.
            peer.writeSealed(RawPeer.frame(HandshakeCodec.create(), ManualHandshake.hello(new byte[Hello.NONCE_BYTES])));
            assertTrue(peer.closedByServerWithin(WAIT), "server closed the connection");
        }
        assertEquals(0, server.metrics().handshakesFailed());
        assertEquals(1, server.metrics().framesRefused());
        assertEquals(0, server.metrics().framesFailedAuthentication(), "it was sealed right, just not a node message");
    }

    @Test
    void replayedProofFromAnotherConnectionIsRefused() throws Exception {
        // A proof is bound to both nonces, so one captured from a past connection is worthless.
        SigningKey key = cluster.newKey();
        NodeAddress advertised = new NodeAddress(Cluster.HOST, 1);
        Hello staleClient = ManualHandshake.hello(new byte[Hello.NONCE_BYTES]);
        byte[] stale = Transcript.of(Frames.OLDEST_VERSION, Role.CLIENT, staleClient, ManualHandshake.hello(new byte[Hello.NONCE_BYTES]),
                key.publicKey(), advertised);
        try (RawPeer peer = new RawPeer(server.address())) {
            peer.read(HandshakeCodec.create());
            peer.write(RawPeer.frame(HandshakeCodec.create(), staleClient));
            peer.write(RawPeer.frame(HandshakeCodec.create(), new Proof(key.publicKey(), advertised, key.sign(stale))));
            assertTrue(peer.closedByServerWithin(WAIT), "server closed the connection");
        }
        assertEquals(1, server.metrics().handshakesFailed());
    }

    @Test
    void serverProofIsBoundToItsRole() throws Exception {
        // The server's proof names the server role: replayed as a client's it must not verify.
        try (RawPeer peer = new RawPeer(server.address())) {
            Hello serverHello = (Hello) peer.read(HandshakeCodec.create());
            Hello clientHello = ManualHandshake.hello(new byte[Hello.NONCE_BYTES]);
            peer.write(RawPeer.frame(HandshakeCodec.create(), clientHello));
            Proof serverProof = assertInstanceOf(Proof.class, peer.read(HandshakeCodec.create()));
            byte[] asServer = Transcript.of(Frames.OLDEST_VERSION, Role.SERVER, clientHello, serverHello, serverProof.key(), serverProof.address());
            assertTrue(serverProof.key().verify(asServer, serverProof.signature()), "server proof verifies as the server's");
            assertEquals(server.transport().self().id(), serverProof.key().nodeId());
            peer.write(RawPeer.frame(HandshakeCodec.create(), serverProof));
            assertTrue(peer.closedByServerWithin(WAIT), "server closed the connection");
        }
        assertEquals(1, server.metrics().handshakesFailed());
    }

    @Test
    void aDiallerRefusesAServerWhoseProofIsForgedAndSendsItNothing() throws Exception {
        // The handshake protects both ends: a node that dials an impostor must not believe it either.
        SigningKey claimed = cluster.newKey();
        SigningKey forger = cluster.newKey();
        MessageCodec handshake = HandshakeCodec.create();
        try (ServerSocket impostor = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            impostor.setSoTimeout((int) WAIT.toMillis());
            NodeAddress at = new NodeAddress(Cluster.HOST, impostor.getLocalPort());
            server.transport().send(at, new Ping(7, new byte[0]));
            try (Socket s = impostor.accept()) {
                s.setSoTimeout((int) WAIT.toMillis());
                DataInputStream in = new DataInputStream(s.getInputStream());
                OutputStream out = s.getOutputStream();
                ManualHandshake impostorSide = new ManualHandshake(Role.SERVER, 9);
                out.write(RawPeer.frame(handshake, impostorSide.hello()));
                Hello clientHello = (Hello) readFrame(in, handshake);
                out.write(RawPeer.frame(handshake, impostorSide.proof(clientHello, claimed, forger, at)));
                out.flush();
                // Whatever the dialler still sends before it hangs up, only its Proof may be among it: no
                // frame sealed for the link, which would carry the ping.
                List<String> received = new ArrayList<>();
                try {
                    while (true) {
                        int length = in.readInt();
                        byte[] frame = in.readNBytes(length);
                        received.add(HexFormat.of().formatHex(frame));
                    }
                } catch (EOFException | java.net.SocketException e) {
                    // The dialler hung up, as it must.
                }
                for (String hex : received) {
                    ByteBuf buf = Unpooled.wrappedBuffer(HexFormat.of().parseHex(hex));
                    try {
                        assertTrue(decodes(handshake, buf), "the impostor was sent more than the handshake: " + hex);
                    } finally {
                        buf.release();
                    }
                }
            }
        }
        Await.until(WAIT, "the forged server proof counted", () -> server.metrics().handshakesFailed() == 1);
        assertServesLegitimatePeer();
    }

    private static WireMessage readFrame(DataInputStream in, MessageCodec codec) throws Exception {
        int length = in.readInt();
        ByteBuf buf = Unpooled.wrappedBuffer(in.readNBytes(length));
        try {
            return Frames.decode(codec, buf, Frames.OLDEST_VERSION);
        } finally {
            buf.release();
        }
    }

    private static boolean decodes(MessageCodec codec, ByteBuf frame) {
        try {
            Frames.decode(codec, frame, Frames.OLDEST_VERSION);
            return true;
        } catch (WireException e) {
            return false;
        }
    }

    private void assertRefused(ToLongFunction<TransportMetrics> counter, byte[] bytes) throws Exception {
        long before = counter.applyAsLong(server.metrics());
        try (RawPeer peer = new RawPeer(server.address())) {
            peer.write(bytes);
            assertTrue(peer.closedByServerWithin(WAIT), "server closed the connection");
        }
        Await.until(WAIT, "refusal counted", () -> counter.applyAsLong(server.metrics()) == before + 1);
        Await.until(WAIT, "no connection retained", () -> server.metrics().openConnections() == 0);
        assertEquals(0, server.metrics().messagesReceived());
        assertServesLegitimatePeer();
    }

    private void assertServesLegitimatePeer() throws Exception {
        Node peer = cluster.start(TransportConfig.defaults());
        peer.transport().send(server.address(), new Ping(42, new byte[16]));
        Received got = server.inbox().take(WAIT);
        assertEquals(peer.transport().self(), got.from());
        server.transport().send(peer.address(), new Ping(43, new byte[0]));
        assertEquals(43, ((Ping) peer.inbox().take(WAIT).message()).n());
    }
}
