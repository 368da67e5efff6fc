package io.riptide.dolr.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.PooledByteBufAllocator;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.wire.Frames;
import io.riptide.dolr.server.OverlayServer;
import io.riptide.dolr.server.ServerSettings;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 18's probe against a real overlay node (on the process's sockets, epoll where it loads): 40
 * connections, each from its own loopback address so that no cap on connections is met, announce a
 * 16 MiB frame before the handshake and stream junk into it. Each is cut off after one small read.
 * Before the handshake cap the node read and held all of it, 16 MiB a connection, until the handshake
 * timed out. The memory figures it prints are for the record, not asserted.
 */
class UnauthenticatedFloodTest {
    private static final int CONNECTIONS = 40;
    private static final int CHUNK = 64 * 1024;
    private static final Duration WAIT = Duration.ofSeconds(30);

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
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void fortyConnectionsAnnouncingSixteenMebibyteFrames() throws Exception {
        byte[] seed = new byte[32];
        seed[0] = 18;
        List<RawPeer> peers = new ArrayList<>();
        ExecutorService senders = Executors.newFixedThreadPool(CONNECTIONS);
        try (OverlayServer node = OverlayServer.start(ServerSettings.of(SigningKey.fromSeed(seed), new NodeAddress("127.0.0.1", 0)))) {
            long heapBefore = HostileBytes.usedHeapAfterGc();
            long directBefore = PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory();
            long rssBefore = procStatus("VmRSS");
            resetPeakRss();
            List<Future<Long>> sent = new ArrayList<>();
            for (int i = 0; i < CONNECTIONS; i++) {
                RawPeer peer = new RawPeer(node.address(), InetAddress.getByAddress(new byte[] {127, 0, 1, (byte) (i + 1)}));
                peers.add(peer);
                sent.add(senders.submit(() -> flood(peer)));
            }
            long total = 0;
            for (Future<Long> f : sent) {
                total += f.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            }
            long peakRss = procStatus("VmHWM");
            long directDuring = PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory();
            long heapDuring = HostileBytes.usedHeapAfterGc();
            for (RawPeer peer : peers) {
                assertTrue(peer.closedByServerWithin(WAIT), "the node closed a flooding connection");
            }
            TransportMetrics m = node.transportMetrics();
            System.out.printf("flood: %d connections sent %d MB; the node read %d bytes; peak RSS %d -> %d MB (+%d);"
                            + " pooled direct +%d MB; heap +%d MB; %s%n", CONNECTIONS, total >> 20, m.bytesIn(),
                    rssBefore >> 20, peakRss >> 20, (peakRss - rssBefore) >> 20, (directDuring - directBefore) >> 20,
                    (heapDuring - heapBefore) >> 20, m);
            assertEquals(CONNECTIONS, m.framesOverHandshakeCap(), "each cut off by the handshake cap: " + m);
            assertEquals(0, m.handshakesTimedOut(), "none waited for the deadline: " + m);
            long bound = CONNECTIONS * 2L * HandshakeCodec.MAX_FRAME_BYTES;
            assertTrue(m.bytesIn() <= bound, "the node read " + m.bytesIn() + " bytes of " + total + "; bound " + bound);
        } finally {
            senders.shutdownNow();
            for (RawPeer peer : peers) {
                peer.close();
            }
        }
    }

    /** Announces a frame of the largest size and streams junk into it until done or cut off; the bytes written. */
    private static long flood(RawPeer peer) {
        byte[] header = {1, 0, 0, 0, (byte) Frames.OLDEST_VERSION};
        byte[] junk = new byte[CHUNK];
        if (!peer.write(header)) {
            return 0;
        }
        long sent = header.length;
        // Stop a chunk short, so the frame never completes and the node has nothing to decode.
        while (sent + CHUNK < Frames.DEFAULT_MAX_FRAME_BYTES && peer.write(junk)) {
            sent += junk.length;
        }
        return sent;
    }

    private static long procStatus(String field) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) << 10;
            }
        }
        return -1;
    }

    private static void resetPeakRss() throws IOException {
        // Linux: writing 5 resets VmHWM to the current RSS.
        Files.writeString(Path.of("/proc/self/clear_refs"), "5");
    }
}
