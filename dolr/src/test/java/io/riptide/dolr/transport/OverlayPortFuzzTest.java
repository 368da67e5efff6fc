package io.riptide.dolr.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.nio.NioEventLoopGroup;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.wire.Frames;
import io.riptide.core.wire.WireException;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.location.LocateResult;
import io.riptide.dolr.server.OverlayServer;
import io.riptide.dolr.server.ServerSettings;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A live overlay node under attack from peers that pass the handshake (anyone can make a key) and
 * then send mutated overlay messages: every undecodable frame closes its connection, and all the
 * while the node keeps serving its overlay — its own locates and its neighbours' still succeed —
 * with memory bounded.
 */
class OverlayPortFuzzTest {
    private static final String HOST = "127.0.0.1";
    private static final int ROUNDS = 8;
    private static final int HOSTILE_PER_ROUND = 25;
    private static final long MEMORY_BOUND = 64L << 20;
    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final DolrConfig CONFIG = DolrConfig.defaults().withMaintenance(
            Duration.ofMillis(500), Duration.ofSeconds(2), Duration.ofSeconds(3), Duration.ofSeconds(2));

    private final NioEventLoopGroup group = new NioEventLoopGroup(2);
    private final List<OverlayServer> servers = new ArrayList<>();
    private final NettyLogWatch netty = new NettyLogWatch();

    @AfterEach
    void tearDown() throws InterruptedException {
        try {
            servers.forEach(OverlayServer::close);
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS);
            netty.assertClean();
        } finally {
            netty.close();
        }
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void authenticatedPeersSendingMutatedMessagesAreCutOffAndTheNodeKeepsServing() throws Exception {
        MessageCorpus corpus = MessageCorpus.record(11);
        List<byte[]> bodies = corpus.bodies();
        Random random = new Random(0x0F_F2_22);

        OverlayServer victim = start(1, null);
        assertTrue(victim.awaitJoined(WAIT));
        OverlayServer holder = start(2, victim.address());
        OverlayServer neighbour = start(3, victim.address());
        CompletableFuture.allOf(holder.joined(), neighbour.joined()).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        Id object = Id.hash("object held while the victim is attacked");
        assertTrue(holder.storeReplica(object, "body".getBytes(StandardCharsets.UTF_8)).get(10, TimeUnit.SECONDS));
        Await.until(WAIT, "the object locatable from the victim", () -> locate(victim, object).found());

        long heapBefore = HostileBytes.usedHeapAfterGc();
        long directBefore = PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory();
        long refusedBefore = victim.transportMetrics().framesRefused();
        int undecodable = 0;
        int located = 0;
        for (int round = 0; round < ROUNDS; round++) {
            List<RawPeer> peers = new ArrayList<>();
            List<Boolean> mustClose = new ArrayList<>();
            try {
                for (int i = 0; i < HOSTILE_PER_ROUND; i++) {
                    RawPeer peer = new RawPeer(victim.address());
                    peers.add(peer);
                    SigningKey someone = key(1000 + round * HOSTILE_PER_ROUND + i);
                    peer.handshake(someone, someone, new NodeAddress(HOST, 1));
                    byte[] body = mutate(random, bodies);
                    boolean bad = !decodes(corpus, body);
                    mustClose.add(bad);
                    undecodable += bad ? 1 : 0;
                    peer.writeSealed(frame(body));
                }
                // The attack is under way on the victim's event loop; it must keep answering meanwhile.
                located += locate(victim, object).found() ? 1 : 0;
                located += locate(neighbour, object).found() ? 1 : 0;
                for (int i = 0; i < peers.size(); i++) {
                    if (mustClose.get(i)) {
                        assertTrue(peers.get(i).closedByServerWithin(WAIT), "round " + round + ": undecodable frame " + i + " closes");
                    }
                }
            } finally {
                for (RawPeer peer : peers) {
                    peer.close();
                }
            }
        }
        try (RawPeer deep = new RawPeer(victim.address())) {
            SigningKey someone = key(999);
            deep.handshake(someone, someone, new NodeAddress(HOST, 1));
            deep.writeSealed(frame(endlesslyNestedHops(200_000)));
            assertTrue(deep.closedByServerWithin(WAIT), "a frame of 200,000 nested hops closes its connection");
        }
        assertEquals(2 * ROUNDS, located, "every locate during the attack succeeded");
        assertTrue(undecodable > ROUNDS * HOSTILE_PER_ROUND / 4, "the attack sent undecodable frames: " + undecodable);
        assertTrue(victim.transportMetrics().framesRefused() - refusedBefore >= undecodable,
                "each undecodable frame refused and counted: " + victim.transportMetrics());
        assertTrue(victim.status().get(10, TimeUnit.SECONDS).joined(), "the victim is still a member");
        assertTrue(locate(holder, object).found() && locate(victim, object).found(), "the overlay still serves after the attack");
        long heapGrowth = HostileBytes.usedHeapAfterGc() - heapBefore;
        long directGrowth = PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory() - directBefore;
        assertTrue(heapGrowth < MEMORY_BOUND, "heap grew by " + heapGrowth);
        assertTrue(directGrowth < MEMORY_BOUND, "pooled direct memory grew by " + directGrowth);
    }

    private static boolean decodes(MessageCorpus corpus, byte[] body) {
        try {
            corpus.codec().decodeBody(Unpooled.wrappedBuffer(body));
            return true;
        } catch (WireException e) {
            return false;
        }
    }

    /** A routing hop inside a hop inside a hop..., {@code levels} deep, around a hop acknowledgement. */
    private static byte[] endlesslyNestedHops(int levels) {
        int hop = 2;
        int hopAck = 3;
        int innermost = 2 + 8;
        int header = 2 + 8 + 4;
        ByteBuffer b = ByteBuffer.allocate(levels * header + innermost);
        for (int i = 0; i < levels; i++) {
            b.putShort((short) hop).putLong(i).putInt(header * (levels - 1 - i) + innermost);
        }
        b.putShort((short) hopAck).putLong(0);
        return b.array();
    }

    /** A body framed as a node frames it: length, wire version, body. */
    private static byte[] frame(byte[] body) {
        return ByteBuffer.allocate(5 + body.length).putInt(1 + body.length).put((byte) Frames.OLDEST_VERSION).put(body).array();
    }

    private static byte[] mutate(Random r, List<byte[]> bodies) {
        byte[] b = bodies.get(r.nextInt(bodies.size())).clone();
        return switch (r.nextInt(3)) {
            case 0 -> HostileBytes.flipBits(r, b);
            case 1 -> Arrays.copyOf(b, r.nextInt(b.length));
            default -> HostileBytes.retag(b, bodies.get(r.nextInt(bodies.size())));
        };
    }

    private OverlayServer start(int seed, NodeAddress bootstrap) {
        OverlayServer server = OverlayServer.start(
                ServerSettings.of(key(seed), new NodeAddress(HOST, 0)).withDolr(CONFIG).joining(bootstrap), group);
        servers.add(server);
        return server;
    }

    private static LocateResult locate(OverlayServer from, Id guid) {
        try {
            return from.locate(guid).get(CONFIG.locateDeadline().plusSeconds(5).toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new AssertionError("locate from " + from.self() + " did not answer", e);
        }
    }

    private static SigningKey key(int n) {
        byte[] seed = new byte[32];
        seed[0] = (byte) n;
        seed[1] = (byte) (n >>> 8);
        seed[31] = 42;
        return SigningKey.fromSeed(seed);
    }
}
