package io.riptide.dolr.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.nio.NioEventLoopGroup;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.testing.Await;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.secure.SourceLimits;
import io.riptide.dolr.transport.NettyLogWatch;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Over TCP on loopback: six nodes on one address (127.0.0.9, as if one attacker's host) and four honest
 * nodes on addresses of their own (127.0.0.2 to .5) join through a node on 127.0.0.1. With at most two
 * IDs per source (loopback counted, as it is not by default), the node keeps two of the six and every
 * honest one, and counts the refusals. Nodes on 127.x connect from 127.0.0.1 (the kernel's choice),
 * which proves any loopback address: the transport lets them all in, and the limit alone decides.
 */
class SourceLimitOverTcpTest {
    private static final DolrConfig CONFIG = DolrConfig.defaults()
            .withMaintenance(Duration.ofMillis(500), Duration.ofSeconds(2), Duration.ofSeconds(3), Duration.ofSeconds(2))
            .withTimeouts(Duration.ofSeconds(1), Duration.ofSeconds(6))
            .withSourceLimits(SourceLimits.defaults().withIdsPerSource(2).limitingLoopback());
    private static final String ATTACKER = "127.0.0.9";

    private final NioEventLoopGroup group = new NioEventLoopGroup(2);
    private final List<OverlayServer> servers = new ArrayList<>();
    private final NettyLogWatch netty = new NettyLogWatch();
    private int keys;

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

    private OverlayServer start(String host, NodeAddress bootstrap) {
        byte[] seed = new byte[32];
        seed[0] = (byte) ++keys;
        seed[31] = 0x33;
        OverlayServer server = OverlayServer.start(ServerSettings.of(SigningKey.fromSeed(seed), new NodeAddress(host, 0))
                .withDolr(CONFIG).joining(bootstrap), group);
        servers.add(server);
        return server;
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void manyIdentitiesFromOneAddressAreCappedWhileHonestNodesAreAdmitted() throws Exception {
        OverlayServer victim = start("127.0.0.1", null);
        assertTrue(victim.awaitJoined(Duration.ofSeconds(10)));
        Set<Id> honest = new HashSet<>();
        for (int i = 2; i <= 5; i++) {
            honest.add(start("127.0.0." + i, victim.address()).self().id());
        }
        for (int i = 0; i < 6; i++) {
            start(ATTACKER, victim.address());
        }
        CompletableFuture.allOf(servers.stream().map(OverlayServer::joined).toArray(CompletableFuture[]::new))
                .get(60, TimeUnit.SECONDS);

        Await.until(Duration.ofSeconds(30), "every honest node in the victim's routing state",
                () -> routingState(victim).stream().map(NodeHandle::id).collect(java.util.stream.Collectors.toSet())
                        .containsAll(honest));
        // Maintenance keeps offering the attacker's nodes (their gossip, rows, pings): give it rounds.
        Thread.sleep(4_000);
        List<NodeHandle> state = routingState(victim);
        long fromAttacker = state.stream().filter(h -> h.address().host().equals(ATTACKER)).map(NodeHandle::id).distinct().count();
        assertEquals(2, fromAttacker, "IDs from " + ATTACKER + " in the victim's routing state: " + state);
        long refused = victim.call(n -> n.refusedOverSourceLimit()).get(10, TimeUnit.SECONDS);
        assertTrue(refused > 0, "the refusals are counted");
        assertEquals(0, victim.transportMetrics().handshakesAddressRefused(), "every loopback address is proved from this host");
    }

    private static List<NodeHandle> routingState(OverlayServer server) {
        try {
            return server.call(n -> {
                List<NodeHandle> all = new ArrayList<>(n.routingTable().all());
                all.addAll(n.leafSet().members());
                return all;
            }).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
