package io.riptide.dolr.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.dolr.transport.Cluster.Node;
import io.riptide.dolr.transport.Inbox.Received;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TcpTransportTest {
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

    @Test
    void messagesFlowBothWaysFromTheProvenSender() throws Exception {
        Node a = cluster.start(TransportConfig.defaults());
        Node b = cluster.start(TransportConfig.defaults());
        assertNotEquals(0, a.address().port());

        a.transport().send(b.address(), new Ping(1, new byte[] {1, 2, 3}));
        Received atB = b.inbox().take(WAIT);
        assertEquals(new NodeHandle(a.key().publicKey().nodeId(), a.address()), atB.from());
        assertEquals(a.transport().self(), atB.from());
        assertEquals(1, ((Ping) atB.message()).n());
        assertArrayEquals(new byte[] {1, 2, 3}, ((Ping) atB.message()).payload());
        // Delivered on the node's own loop, not an I/O thread.
        assertTrue(b.loop().inEventLoop(atB.thread()), "handler ran on " + atB.thread());

        b.transport().send(a.address(), new Ping(2, new byte[0]));
        Received atA = a.inbox().take(WAIT);
        assertEquals(new NodeHandle(b.key().publicKey().nodeId(), b.address()), atA.from());
        assertEquals(2, ((Ping) atA.message()).n());

        // B answered over A's authenticated connection instead of opening its own.
        assertEquals(1, a.metrics().connectionsOut());
        assertEquals(0, b.metrics().connectionsOut());
        assertEquals(1, b.metrics().connectionsIn());
        assertEquals(1, a.metrics().messagesSent());
        assertEquals(1, b.metrics().messagesReceived());
        assertTrue(a.metrics().bytesOut() > 0 && b.metrics().bytesIn() > 0);
    }

    @Test
    void tenThousandMessagesAllArriveInOrder() throws Exception {
        Node a = cluster.start(TransportConfig.defaults());
        Node b = cluster.start(TransportConfig.defaults());
        int count = 10_000;
        for (int i = 0; i < count; i++) {
            a.transport().send(b.address(), new Ping(i, new byte[i % 64]));
        }
        List<Received> got = b.inbox().take(count, Duration.ofSeconds(30));
        assertEquals(count, got.size());
        for (int i = 0; i < count; i++) {
            assertEquals(i, ((Ping) got.get(i).message()).n(), "message " + i + " out of order");
        }
        Await.until(WAIT, "all sends completed", () -> a.metrics().messagesSent() == count);
        assertEquals(0, a.metrics().messagesDropped());
        assertEquals(1, a.metrics().connectionsOut());
    }

    @Test
    void messageTooBigForAFrameIsDroppedAndTheConnectionSurvives() throws Exception {
        TransportConfig small = TransportConfig.defaults().withMaxFrameBytes(1024);
        Node a = cluster.start(small);
        Node b = cluster.start(small);
        a.transport().send(b.address(), new Ping(1, new byte[2048]));
        a.transport().send(b.address(), new Ping(2, new byte[512]));
        assertEquals(2, ((Ping) b.inbox().take(WAIT).message()).n());
        assertEquals(1, a.metrics().messagesDropped());
        assertEquals(0, b.metrics().framesRefused());
    }

    @Test
    void queueWhileHandshakingIsBoundedAndDroppedWhenTheHandshakeNeverCompletes() throws Exception {
        TransportConfig config = TransportConfig.defaults()
                .withMaxPendingBytesPerPeer(64 * 1024)
                .withHandshakeTimeout(Duration.ofMillis(500));
        Node a = cluster.start(config);
        // Accepts TCP connections (in the kernel's backlog) but never answers the handshake.
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getByName(Cluster.HOST))) {
            NodeAddress to = new NodeAddress(Cluster.HOST, silent.getLocalPort());
            int frameBytes = RawPeer.frame(Ping.codec(), new Ping(0, new byte[1000])).length;
            int fits = 64 * 1024 / frameBytes;
            for (int i = 0; i < 200; i++) {
                a.transport().send(to, new Ping(i, new byte[1000]));
            }
            assertEquals(200 - fits, a.metrics().messagesDropped(), "over the pending bound");
            Await.until(WAIT, "queued messages dropped after the handshake timeout",
                    () -> a.metrics().messagesDropped() == 200);
            assertEquals(1, a.metrics().handshakesFailed());
            assertEquals(0, a.metrics().messagesSent());
        }
    }

    @Test
    void messagesToAClosedPeerAreDroppedAndTheSenderKeepsWorking() throws Exception {
        Node a = cluster.start(TransportConfig.defaults());
        Node b = cluster.start(TransportConfig.defaults());
        Node c = cluster.start(TransportConfig.defaults());
        a.transport().send(b.address(), new Ping(1, new byte[0]));
        b.inbox().take(WAIT);

        b.transport().close();
        Await.until(WAIT, "B's connection seen closed by A", () -> a.metrics().openConnections() == 0);
        long deadline = System.nanoTime() + WAIT.toNanos();
        for (int i = 0; a.metrics().messagesDropped() == 0 && System.nanoTime() < deadline && i < 500; i++) {
            a.transport().send(b.address(), new Ping(100 + i, new byte[0]));
            Thread.sleep(10);
        }
        assertTrue(a.metrics().messagesDropped() > 0, "messages to a closed peer are counted as dropped");

        a.transport().send(c.address(), new Ping(7, new byte[0]));
        Received atC = c.inbox().take(WAIT);
        assertEquals(a.transport().self(), atC.from());
        assertEquals(0, b.inbox().size(), "nothing reached the closed transport");
    }

    @Test
    void aLostPeerIsReportedOnTheNodesLoopWhetherItClosedRefusedOrFailedTheHandshake() throws Exception {
        java.util.concurrent.LinkedBlockingQueue<NodeAddress> lost = new java.util.concurrent.LinkedBlockingQueue<>();
        java.util.concurrent.atomic.AtomicBoolean onLoop = new java.util.concurrent.atomic.AtomicBoolean(true);
        Node[] holder = new Node[1];
        Node a = cluster.start(TransportConfig.defaults(), address -> {
            onLoop.compareAndSet(true, holder[0] != null && holder[0].loop().inEventLoop());
            lost.add(address);
        });
        holder[0] = a;
        Node b = cluster.start(TransportConfig.defaults());

        // An authenticated connection that the peer closes.
        a.transport().send(b.address(), new Ping(1, new byte[0]));
        b.inbox().take(WAIT);
        b.transport().close();
        assertEquals(b.address(), lost.poll(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS));

        // A connect refused: nobody listens there any more.
        NodeAddress nobody;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(Cluster.HOST))) {
            nobody = new NodeAddress(Cluster.HOST, s.getLocalPort());
        }
        a.transport().send(nobody, new Ping(2, new byte[0]));
        assertEquals(nobody, lost.poll(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS));

        // A peer that accepts and hangs up before proving a key: the handshake fails.
        try (ServerSocket rude = new ServerSocket(0, 50, InetAddress.getByName(Cluster.HOST))) {
            NodeAddress to = new NodeAddress(Cluster.HOST, rude.getLocalPort());
            a.transport().send(to, new Ping(3, new byte[0]));
            rude.accept().close();
            assertEquals(to, lost.poll(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS));
        }
        assertTrue(onLoop.get(), "reported on the node's own loop");

        // Its own close is no loss to report.
        Node c = cluster.start(TransportConfig.defaults());
        a.transport().send(c.address(), new Ping(4, new byte[0]));
        c.inbox().take(WAIT);
        a.transport().close();
        Thread.sleep(200);
        assertEquals(null, lost.poll(), "nothing reported for the transport's own close");
    }

    @Test
    void reconnectsWhenThePeerRestartsOnTheSamePort() throws Exception {
        TransportConfig config = TransportConfig.defaults().withReconnectBackoff(Duration.ofMillis(50));
        Node a = cluster.start(config);
        Node b = cluster.start(config);
        a.transport().send(b.address(), new Ping(1, new byte[0]));
        b.inbox().take(WAIT);
        int port = b.address().port();
        b.transport().close();

        Node b2 = cluster.start(b.key(), port, config);
        assertEquals(port, b2.address().port());
        Received got = null;
        for (int i = 0; i < 200 && got == null; i++) {
            a.transport().send(b2.address(), new Ping(1000 + i, new byte[0]));
            got = b2.inbox().poll(Duration.ofMillis(50));
        }
        assertTrue(got != null, "A reached the restarted peer");
        assertEquals(a.transport().self(), got.from());
        assertTrue(a.metrics().connectionsOut() >= 2, "A opened a new connection");
    }

    @Test
    void closeStopsListeningAndDropsLaterSends() throws Exception {
        Node a = cluster.start(TransportConfig.defaults());
        Node b = cluster.start(TransportConfig.defaults());
        a.transport().send(b.address(), new Ping(1, new byte[0]));
        b.inbox().take(WAIT);
        a.transport().close();
        assertEquals(0, a.metrics().openConnections());
        a.transport().send(b.address(), new Ping(2, new byte[0]));
        assertEquals(1, a.metrics().messagesDropped());
        // NIO releases a closed listening socket on the selector's next pass, so allow a moment.
        Await.until(Duration.ofSeconds(2), "connections to the closed transport refused", () -> {
            try (RawPeer accepted = new RawPeer(a.address())) {
                return accepted == null;
            } catch (IOException refused) {
                return true;
            }
        });
    }
}
