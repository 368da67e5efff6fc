package io.riptide.dolr.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.epoll.Epoll;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.id.Id;
import io.riptide.core.net.NettyTransport;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.dolr.admin.ReportPart;
import io.riptide.dolr.location.LocateResult;
import io.riptide.dolr.transport.NettyLogWatch;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** One server on its own threads: what a caller sees of its lifecycle and accessors. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OverlayServerTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final NodeAddress ANY_PORT = new NodeAddress("127.0.0.1", 0);

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
    void aSecondNodeJoinsTheFirstAndLocatesWhatTheFirstStores() throws Exception {
        try (OverlayServer first = OverlayServer.start(ServerSettings.of(key(1), ANY_PORT));
                OverlayServer second = OverlayServer.start(ServerSettings.of(key(2), ANY_PORT).joining(first.address()))) {
            assertNotEquals(0, first.address().port(), "port 0 becomes the bound port");
            assertEquals(key(1).publicKey().nodeId(), first.self().id());
            assertTrue(first.awaitJoined(WAIT), "the first node started an overlay");
            assertTrue(second.awaitJoined(WAIT), "the second node joined it");

            Id guid = Id.hash("a stored object");
            assertTrue(first.storeReplica(guid, new byte[] {1, 2, 3}).get(WAIT.toSeconds(), TimeUnit.SECONDS));
            LocateResult found = second.locate(guid).get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertTrue(found.found(), "located: " + found);
            assertEquals(first.self(), found.replica());

            NodeStatus status = second.status().get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertEquals(second.self().id(), status.id());
            assertEquals(second.address(), status.address());
            assertTrue(status.joined());
            assertEquals(1, status.leafSetSize());
            assertEquals(0, status.replicas());
            assertTrue(status.transport().messagesReceived() > 0 && status.transport().messagesSent() > 0, status.toString());
            assertEquals(1, first.status().get(WAIT.toSeconds(), TimeUnit.SECONDS).replicas());
        }
    }

    @Test
    void aServerOnItsOwnGroupRunsOnTheProcesssTransportAndReportsIt() throws Exception {
        try (OverlayServer node = OverlayServer.start(ServerSettings.of(key(6), ANY_PORT))) {
            assertTrue(node.awaitJoined(WAIT));
            assertEquals(NettyTransport.current(), node.nettyTransport());
            if (Epoll.isAvailable() && System.getProperty(NettyTransport.PROPERTY) == null) {
                assertEquals(NettyTransport.EPOLL, node.nettyTransport(), "epoll on Linux");
            }
            ReportPart report = NodeReport.of(node).report().get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertTrue(report.summary().contains(new ReportPart.Entry("transport", NettyTransport.describe())), report.summary().toString());
        }
    }

    @Test
    void aClosingNodeSaysGoodbyeSoItsPeersDropItWithoutDeclaringItFailed() throws Exception {
        try (OverlayServer first = OverlayServer.start(ServerSettings.of(key(7), ANY_PORT));
                OverlayServer second = OverlayServer.start(ServerSettings.of(key(8), ANY_PORT).joining(first.address()))) {
            assertTrue(second.awaitJoined(WAIT));
            OverlayServer third = OverlayServer.start(ServerSettings.of(key(9), ANY_PORT).joining(first.address()));
            assertTrue(third.awaitJoined(WAIT));
            awaitLeafSets(2, first, second);

            third.close(); // a restart or a one-shot command ending: not a crash

            awaitLeafSets(1, first, second);
            for (OverlayServer peer : new OverlayServer[] {first, second}) {
                NodeStatus status = peer.status().get(WAIT.toSeconds(), TimeUnit.SECONDS);
                assertEquals(1, status.departuresHeard(), "told of the departure: " + status);
                assertEquals(0, status.failuresDetected(), "dropped on notice, not by timing it out: " + status);
            }
            Id guid = Id.hash("stored after the departure");
            assertTrue(first.storeReplica(guid, new byte[] {4}).get(WAIT.toSeconds(), TimeUnit.SECONDS));
            // The pointer's publication to the GUID's root is asynchronous: retry a NOT_FOUND briefly.
            LocateResult found = second.locate(guid).get(WAIT.toSeconds(), TimeUnit.SECONDS);
            for (int retry = 0; !found.found() && retry < 50; retry++) {
                Thread.sleep(20);
                found = second.locate(guid).get(WAIT.toSeconds(), TimeUnit.SECONDS);
            }
            assertTrue(found.found(), "located after the departure: " + found);
        }
    }

    /** Waits (bounded) until every one of {@code servers} has {@code size} leaf-set members. */
    private static void awaitLeafSets(int size, OverlayServer... servers) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        for (OverlayServer s : servers) {
            while (s.status().get(WAIT.toSeconds(), TimeUnit.SECONDS).leafSetSize() != size && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertEquals(size, s.status().get(WAIT.toSeconds(), TimeUnit.SECONDS).leafSetSize(), s.self() + "'s leaf set");
        }
    }

    @Test
    void closeIsIdempotentFailsWhatWaitsAndRefusesLaterCalls() throws Exception {
        int deadPort;
        try (ServerSocket probe = new ServerSocket(0)) {
            deadPort = probe.getLocalPort(); // free again once closed: nobody answers there
        }
        OverlayServer lonely = OverlayServer.start(
                ServerSettings.of(key(3), ANY_PORT).joining(new NodeAddress("127.0.0.1", deadPort)));
        CompletableFuture<Void> joined = lonely.joined();
        assertFalse(lonely.awaitJoined(Duration.ofMillis(300)), "nobody to join through");

        lonely.close();
        lonely.close();
        assertTrue(lonely.isClosed());
        ExecutionException neverJoined = assertThrows(ExecutionException.class, () -> joined.get(WAIT.toSeconds(), TimeUnit.SECONDS));
        assertInstanceOf(IllegalStateException.class, neverJoined.getCause());
        ExecutionException refused = assertThrows(ExecutionException.class,
                () -> lonely.call(n -> n.isJoined()).get(WAIT.toSeconds(), TimeUnit.SECONDS));
        assertInstanceOf(IllegalStateException.class, refused.getCause());
    }

    @Test
    void aBusyPortIsReportedToTheCaller() throws Exception {
        try (OverlayServer first = OverlayServer.start(ServerSettings.of(key(4), ANY_PORT))) {
            RuntimeException e = assertThrows(RuntimeException.class,
                    () -> OverlayServer.start(ServerSettings.of(key(5), first.address())));
            assertTrue(String.valueOf(e.getMessage()).contains("cannot listen on"), e.toString());
            // The same words on epoll (a native error) as on NIO.
            assertTrue(String.valueOf(e.getMessage()).contains("java.net.BindException: Address already in use"), e.toString());
        }
    }

    private static SigningKey key(int n) {
        byte[] seed = new byte[32];
        seed[0] = (byte) n;
        seed[31] = 0x17;
        return SigningKey.fromSeed(seed);
    }
}
