package io.riptide.dolr.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.crypto.SigningKey;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.wire.MessageCodec;
import io.riptide.dolr.transport.Cluster.Node;
import io.riptide.dolr.transport.Inbox.Received;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Over TCP on loopback: a peer must advertise the address its connection proves, or be refused. The
 * node listens on 127.0.0.1; peers connect from 127.0.0.2 (any 127.x.y.z is a local address on Linux,
 * no namespace needed). A loopback source may advertise any loopback address (it is on this host), so
 * the false claims here are of addresses that are not loopback.
 */
class AdvertisedAddressTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final Cluster cluster = new Cluster();
    private final NettyLogWatch netty = new NettyLogWatch();

    @AfterEach
    void tearDown() throws InterruptedException {
        try {
            cluster.close();
            netty.assertClean();
        } finally {
            netty.close();
        }
    }

    private static RawPeer from127(Node server, int host) throws IOException {
        return new RawPeer(server.address(), InetAddress.getByAddress(new byte[] {127, 0, 0, (byte) host}));
    }

    @Test
    void aPeerAdvertisingAnotherAddressThanItConnectsFromIsRefusedAndCounted() throws Exception {
        Node server = cluster.start(TransportConfig.defaults());
        SigningKey key = cluster.newKey();
        try (RawPeer peer = from127(server, 2)) {
            peer.handshake(key, key, new NodeAddress("192.0.2.1", 7101));
            peer.writeSealed(RawPeer.frame(Ping.codec(), new Ping(1, new byte[0])));
            assertTrue(peer.closedByServerWithin(WAIT), "another host's address claimed: the node closed the connection");
        }
        try (RawPeer peer = from127(server, 2)) {
            peer.handshake(key, key, new NodeAddress("node.example", 7101));
            assertTrue(peer.closedByServerWithin(WAIT), "a name proves nothing: refused too");
        }
        Await.until(WAIT, "the refusals counted", () -> server.metrics().handshakesAddressRefused() == 2);
        assertEquals(2, server.metrics().handshakesFailed(), "counted among the failed handshakes");
        assertNull(server.inbox().poll(Duration.ofMillis(200)), "nothing from the refused peer reached the node");

        // The control: the same peer advertising the address it connects from gets through.
        try (RawPeer peer = from127(server, 2)) {
            peer.handshake(key, key, new NodeAddress("127.0.0.2", 7101));
            peer.writeSealed(RawPeer.frame(Ping.codec(), new Ping(2, new byte[0])));
            Received got = server.inbox().take(WAIT);
            assertEquals(new NodeAddress("127.0.0.2", 7101), got.from().address());
            assertEquals(2, ((Ping) got.message()).n());
        }
        assertEquals(2, server.metrics().handshakesAddressRefused());
    }

    @Test
    void withTheCheckOffAnyAddressIsTakenAsBefore() throws Exception {
        Node server = cluster.start(TransportConfig.defaults().withAdvertisedAddressCheck(false));
        SigningKey key = cluster.newKey();
        try (RawPeer peer = from127(server, 2)) {
            peer.handshake(key, key, new NodeAddress("192.0.2.1", 7101));
            peer.writeSealed(RawPeer.frame(Ping.codec(), new Ping(3, new byte[0])));
            Received got = server.inbox().take(WAIT);
            assertEquals(new NodeAddress("192.0.2.1", 7101), got.from().address());
        }
        assertEquals(0, server.metrics().handshakesAddressRefused());
    }

    @Test
    void aNodeDialedAtOneAddressThatAdvertisesAnotherIsRefused() throws Exception {
        Node client = cluster.start(TransportConfig.defaults());
        SigningKey impostor = cluster.newKey();
        try (ServerSocket listener = new ServerSocket()) {
            listener.bind(new InetSocketAddress("127.0.0.1", 0));
            NodeAddress dialed = new NodeAddress("127.0.0.1", listener.getLocalPort());
            // A hand-driven server that proves its key but claims another node's address.
            CompletableFuture<Boolean> closed = CompletableFuture.supplyAsync(() -> serveOnce(listener, impostor,
                    new NodeAddress("127.0.0.1", listener.getLocalPort() + 1)));
            client.transport().send(dialed, new Ping(4, new byte[0]));
            assertTrue(closed.get(WAIT.toSeconds(), TimeUnit.SECONDS), "the node closed the connection after the proof");
        }
        Await.until(WAIT, "the refusal counted", () -> client.metrics().handshakesAddressRefused() == 1);
    }

    /** Accepts one connection, runs the server side of the handshake, and says whether the client then closed it. */
    private static boolean serveOnce(ServerSocket listener, SigningKey key, NodeAddress advertised) {
        MessageCodec codec = HandshakeCodec.create();
        try (Socket s = listener.accept()) {
            s.setSoTimeout(5000);
            DataInputStream in = new DataInputStream(s.getInputStream());
            OutputStream out = s.getOutputStream();
            ManualHandshake server = new ManualHandshake(Role.SERVER, 9);
            out.write(RawPeer.frame(codec, server.hello()));
            Hello clientHello = (Hello) readFrame(in, codec);
            out.write(RawPeer.frame(codec, server.proof(clientHello, key, key, advertised)));
            out.flush();
            try {
                while (in.read() >= 0) {
                    // The client's proof, then nothing: it closes on our proof.
                }
                return true;
            } catch (IOException e) {
                return true; // reset
            }
        } catch (Exception e) {
            return false;
        }
    }

    private static Object readFrame(DataInputStream in, MessageCodec codec) throws Exception {
        int length = in.readInt();
        byte[] body = new byte[length];
        in.readFully(body);
        byte[] whole = new byte[length + 4];
        whole[0] = (byte) (length >>> 24);
        whole[1] = (byte) (length >>> 16);
        whole[2] = (byte) (length >>> 8);
        whole[3] = (byte) length;
        System.arraycopy(body, 0, whole, 4, length);
        return RawPeer.decode(codec, whole);
    }
}
