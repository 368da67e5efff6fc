package io.riptide.gateway;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.gateway.GatewayMessages.InsertReply;
import io.riptide.core.http.Headers;
import io.riptide.core.id.Id;
import io.riptide.core.object.CachedCopy;
import io.riptide.core.object.Heartbeat;
import io.riptide.core.object.ObjectVerifier;
import io.riptide.core.object.Verification;
import io.riptide.core.object.VersionFloor;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.dolr.DolrCodec;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.location.LocateResult;
import io.riptide.dolr.server.OverlayServer;
import io.riptide.dolr.server.ServerSettings;
import io.riptide.gateway.client.GatewayClient;
import io.riptide.gateway.origin.OriginFetcher;
import io.riptide.gateway.origin.OriginFetcherConfig;
import io.riptide.gateway.origin.OriginTls;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * A small real overlay on loopback for the gateway's tests: plain storage nodes, gateways of one
 * provider with real origin fetchers, and a client node that asks for inserts.
 */
final class GatewayOverlay implements AutoCloseable {
    static final DolrConfig FAST = DolrConfig.defaults().withMaintenance(Duration.ofMillis(500), Duration.ofSeconds(2),
            Duration.ofSeconds(3), Duration.ofSeconds(2));

    final SigningKey provider = SigningKey.generate(new SecureRandom());
    final EventLoopGroup group = new NioEventLoopGroup(4);
    final OriginFetcher fetcher;
    final List<OverlayServer> plain = new ArrayList<>();
    final List<OverlayServer> gateways = new ArrayList<>();
    final List<Gateway> gatewayApps = new ArrayList<>();
    final OverlayServer client;
    private final GatewayClient[] clientApp = new GatewayClient[1];

    GatewayOverlay(int plainNodes, int gatewayCount, GatewayConfig config, OriginFetcherConfig fetch) throws Exception {
        this(plainNodes, gatewayCount, config, fetch, UnaryOperator.identity());
    }

    /** As above, with {@code gatewayNode} adjusting the gateways' node settings (their stages, say). */
    GatewayOverlay(int plainNodes, int gatewayCount, GatewayConfig config, OriginFetcherConfig fetch,
                   UnaryOperator<ServerSettings> gatewayNode) throws Exception {
        fetcher = new OriginFetcher(group, fetch, OriginTls.systemDefault(), Clock.systemUTC());
        SecureRandom random = new SecureRandom();
        NodeAddress first = null;
        for (int i = 0; i < plainNodes; i++) {
            OverlayServer s = OverlayServer.start(settings(random, first), group);
            if (first == null) {
                first = s.address();
                s.awaitJoined(Duration.ofSeconds(10));
            }
            plain.add(s);
        }
        for (int i = 0; i < gatewayCount; i++) {
            Gateway[] holder = new Gateway[1];
            OverlayServer g = OverlayServer.start(gatewayNode.apply(settings(random, first)).withApplication(node -> {
                holder[0] = (Gateway) Gateway.factory(provider, fetcher::fetch, config).apply(node);
                return holder[0];
            }, DolrCodec.create()), group);
            gateways.add(g);
            gatewayApps.add(holder[0]);
        }
        client = OverlayServer.start(settings(random, first).withApplication(node -> {
            clientApp[0] = new GatewayClient(node, provider.publicKey(), Duration.ofSeconds(20));
            return clientApp[0];
        }, DolrCodec.create()), group);
        for (OverlayServer s : all()) {
            if (!s.awaitJoined(Duration.ofSeconds(20))) {
                throw new IllegalStateException("node did not join: " + s.address());
            }
        }
        Thread.sleep(1500); // gateways offer their service once joined; let the pointers land
    }

    private ServerSettings settings(SecureRandom random, NodeAddress join) {
        return ServerSettings.of(SigningKey.generate(random), new NodeAddress("127.0.0.1", 0)).joining(join).withDolr(FAST);
    }

    List<OverlayServer> all() {
        List<OverlayServer> all = new ArrayList<>(plain);
        all.addAll(gateways);
        all.add(client);
        return all;
    }

    /** Asks the nearest gateway (by anycast from the client node) to insert {@code url}. */
    InsertReply insert(String url, boolean stale) throws Exception {
        return insert(url, Headers.EMPTY, stale);
    }

    /** As {@link #insert(String, boolean)}, for a requester that sends {@code requestHeaders}. */
    InsertReply insert(String url, Headers requestHeaders, boolean stale) throws Exception {
        return insert(url, requestHeaders, stale, false);
    }

    /** As above; {@code wantsCopy}: as a proxy whose user waits for the fetch asks, for the copy in the reply. */
    InsertReply insert(String url, Headers requestHeaders, boolean stale, boolean wantsCopy) throws Exception {
        CompletableFuture<InsertReply> f = new CompletableFuture<>();
        client.call(node -> {
            clientApp[0].insert(url, requestHeaders, stale, wantsCopy, f::complete);
            return null;
        });
        return f.get(30, TimeUnit.SECONDS);
    }

    /** Sends an insert request straight to gateway {@code index}. */
    CompletableFuture<InsertReply> insertVia(int index, String url) {
        CompletableFuture<InsertReply> f = new CompletableFuture<>();
        client.call(node -> {
            clientApp[0].insertVia(gateways.get(index).address(), url, Headers.EMPTY, f::complete);
            return null;
        });
        return f;
    }

    /** Sends an insert request straight to gateway {@code index}, saying whether the requester found its copy stale. */
    InsertReply insertVia(int index, String url, boolean stale) throws Exception {
        CompletableFuture<InsertReply> f = new CompletableFuture<>();
        client.call(node -> {
            clientApp[0].insertVia(gateways.get(index).address(), url, Headers.EMPTY, stale, f::complete);
            return null;
        });
        return f.get(30, TimeUnit.SECONDS);
    }

    /** Pushes a signed publisher push from the client node to the nearest gateway. */
    void pushFromClient(io.riptide.core.gateway.GatewayMessages.PublisherPush push, java.util.function.Consumer<InsertReply> done) {
        client.call(node -> {
            clientApp[0].push(push, done);
            return null;
        });
    }

    /** Reads the nearest replica of {@code guid} from plain node {@code index}. */
    LocateResult read(int index, Id guid) throws Exception {
        CompletableFuture<LocateResult> f = new CompletableFuture<>();
        plain.get(index).call(node -> {
            node.read(guid, 16, f::complete);
            return null;
        });
        return f.get(30, TimeUnit.SECONDS);
    }

    /** Reads the replica an insert reported from plain node {@code fromNode}, asserting it is found and verifies. */
    CachedCopy readVerified(int fromNode, InsertReply reply) throws Exception {
        LocateResult read = read(fromNode, reply.guid());
        assertTrue(read.found(), "a replica of " + reply.url() + " is found from another node");
        CachedCopy copy = CachedCopy.fromBytes(read.data(), 1 << 20);
        assertTrue(verifier().verify(copy.object(), reply.guid()).ok(), "the replica verifies");
        return copy;
    }

    /**
     * The heartbeat {@code copy} carries, asserting that a reading peer accepts it as the provider's
     * word that the copy's version is still current.
     */
    Heartbeat verifiedHeartbeat(CachedCopy copy) {
        assertTrue(copy.heartbeat().isPresent(), "the replica carries a heartbeat");
        ObjectVerifier verifier = verifier();
        assertTrue(verifier.verify(copy.object(), copy.object().certificate().guid()).ok(), "the replica verifies");
        Verification v = verifier.verifyHeartbeat(copy.heartbeat().get(), copy.object().certificate());
        assertTrue(v.ok(), v.toString());
        return copy.heartbeat().get();
    }

    /** A fresh verifier trusting this overlay's provider, as a reading peer would have. */
    ObjectVerifier verifier() {
        return new ObjectVerifier(Set.of(provider.publicKey()), new VersionFloor(16));
    }

    @Override
    public void close() {
        for (OverlayServer s : all()) {
            s.close();
        }
        fetcher.close();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
}
