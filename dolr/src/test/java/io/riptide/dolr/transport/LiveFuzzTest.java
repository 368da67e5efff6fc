package io.riptide.dolr.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.PooledByteBufAllocator;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.dolr.transport.Cluster.Node;
import io.riptide.dolr.transport.Inbox.Received;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Hundreds of hostile raw connections against a live node's port: each is closed and counted, none
 * is retained, memory stays bounded, and the node keeps serving a legitimate peer.
 */
class LiveFuzzTest {
    private static final int CONNECTIONS = 300;
    private static final int BATCH = 50;
    private static final int MAX_FRAME = 64 * 1024;
    private static final long HEAP_BOUND = 64L << 20;
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
    void hostileConnectionsAreClosedAndTheNodeKeepsServing() throws Exception {
        // Batches come from one address all at once: caps on connections are not what this tests.
        Node victim = cluster.start(TransportConfig.defaults()
                .withMaxFrameBytes(MAX_FRAME)
                .withHandshakeTimeout(Duration.ofMillis(300))
                .withMaxUnauthenticated(BATCH, BATCH));
        long heapBefore = HostileBytes.usedHeapAfterGc();
        long directBefore = PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory();
        Random random = new Random(0xF022);
        long start = System.nanoTime();

        for (int sent = 0; sent < CONNECTIONS; sent += BATCH) {
            List<RawPeer> batch = new ArrayList<>(BATCH);
            try {
                for (int i = 0; i < BATCH; i++) {
                    RawPeer peer = new RawPeer(victim.address());
                    batch.add(peer);
                    peer.write(hostileBytes(random));
                }
                for (RawPeer peer : batch) {
                    assertTrue(peer.closedByServerWithin(WAIT), "server closed a hostile connection");
                }
            } finally {
                for (RawPeer peer : batch) {
                    peer.close();
                }
            }
        }
        assertTrue(System.nanoTime() - start < Duration.ofSeconds(60).toNanos(), "fuzz ran in bounded time");

        Await.until(WAIT, "no hostile connection retained", () -> victim.metrics().openConnections() == 0);
        TransportMetrics m = victim.metrics();
        assertEquals(CONNECTIONS, m.connectionsIn());
        assertEquals(CONNECTIONS, m.handshakesFailed() + m.framesRefused(), "each refused and counted once: " + m);
        assertTrue(m.framesRefused() > 0 && m.handshakesFailed() > 0, "both kinds of refusal exercised: " + m);
        assertEquals(0, m.messagesReceived());

        long heapGrowth = HostileBytes.usedHeapAfterGc() - heapBefore;
        long directGrowth = PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory() - directBefore;
        assertTrue(heapGrowth < HEAP_BOUND, "heap grew by " + heapGrowth);
        assertTrue(directGrowth < HEAP_BOUND, "pooled direct memory grew by " + directGrowth);

        Node peer = cluster.start(TransportConfig.defaults());
        for (int i = 0; i < 100; i++) {
            peer.transport().send(victim.address(), new Ping(i, new byte[32]));
        }
        List<Received> got = victim.inbox().take(100, WAIT);
        assertEquals(100, got.size());
        assertEquals(peer.transport().self(), got.get(99).from());
        victim.transport().send(peer.address(), new Ping(-1, new byte[0]));
        assertEquals(-1, ((Ping) peer.inbox().take(WAIT).message()).n());
    }

    private static byte[] hostileBytes(Random r) {
        byte[] hello = RawPeer.frame(HandshakeCodec.create(),
                new Hello(HostileBytes.randomBytes(r, Hello.NONCE_BYTES), HostileBytes.randomBytes(r, Hello.KEY_BYTES)));
        byte[] ping = RawPeer.frame(Ping.codec(), new Ping(r.nextLong(), HostileBytes.randomBytes(r, r.nextInt(100))));
        SigningKey someone = SigningKey.fromSeed(HostileBytes.randomBytes(r, 32));
        byte[] proof = RawPeer.frame(HandshakeCodec.create(),
                new Proof(someone.publicKey(), new NodeAddress("127.0.0.1", 1), HostileBytes.randomBytes(r, 64)));
        return switch (r.nextInt(7)) {
            case 0 -> HostileBytes.randomBytes(r, r.nextInt(256));
            case 1 -> mutate(r, hello);
            case 2 -> mutate(r, ping);
            case 3 -> HostileBytes.concat(new byte[] {(byte) 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff}, HostileBytes.randomBytes(r, r.nextInt(64)));
            case 4 -> Arrays.copyOf(hello, r.nextInt(hello.length));
            case 5 -> HostileBytes.concat(hello, proof);
            default -> ping;
        };
    }

    private static byte[] mutate(Random r, byte[] bytes) {
        byte[] out = bytes.clone();
        for (int k = 1 + r.nextInt(3); k > 0; k--) {
            out[r.nextInt(out.length)] ^= (byte) (1 + r.nextInt(255));
        }
        return out;
    }
}
