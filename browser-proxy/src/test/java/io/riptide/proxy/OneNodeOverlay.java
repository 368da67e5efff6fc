package io.riptide.proxy;

import io.riptide.core.crypto.PublicKey;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.http.CanonicalUrl;
import io.riptide.core.http.Headers;
import io.riptide.core.id.Id;
import io.riptide.core.object.CachedCopy;
import io.riptide.core.object.ObjectCertificate;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.object.StoredResponse;
import io.riptide.core.object.WebObject;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.dolr.DolrCodec;
import io.riptide.dolr.OverlayApplication;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.server.OverlayServer;
import io.riptide.dolr.server.ServerSettings;
import io.riptide.proxy.cache.OverlayCacheConfig;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;

/**
 * A one-node overlay on loopback for proxy tests: the node is the proxy's only access node, holds the signed copies
 * the test stores, and can be made slow or unresponsive by keeping its loop busy.
 */
final class OneNodeOverlay implements AutoCloseable {
    final SigningKey provider = SigningKey.generate(new SecureRandom());
    final OverlayServer node;

    /** A plain storage node. */
    OneNodeOverlay() throws InterruptedException {
        this((n, p) -> OverlayApplication.NONE);
    }

    /** A node running {@code application}, made from the node and the provider's public key. */
    OneNodeOverlay(BiFunction<OverlayNode, PublicKey, OverlayApplication> application) throws InterruptedException {
        node = OverlayServer.start(ServerSettings.of(SigningKey.generate(new SecureRandom()), new NodeAddress("127.0.0.1", 0))
                .withApplication(n -> application.apply(n, provider.publicKey()), DolrCodec.create()));
        if (!node.awaitJoined(Duration.ofSeconds(10))) {
            node.close();
            throw new IllegalStateException("the node did not start an overlay");
        }
    }

    /** Stores a copy of {@code url} signed by the provider, fresh for ten minutes, with {@code body}; returns its GUID. */
    Id store(String url, String body) throws Exception {
        return store(url, body, Headers.of("Cache-Control", "max-age=600", "Content-Type", "text/plain"), System.currentTimeMillis());
    }

    /** Stores a copy of {@code url} signed by the provider with {@code headers} and {@code body}, fetched at {@code fetchedAt} (epoch ms). */
    Id store(String url, String body, Headers headers, long fetchedAt) throws Exception {
        Id guid = ObjectNames.objectGuid(provider.publicKey(), CanonicalUrl.of(url).value(), "");
        if (!node.storeReplica(guid, signedCopy(url, body, headers, fetchedAt)).get(5, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the node refused the copy of " + url);
        }
        return guid;
    }

    /** Version 1 of {@code url} signed by the provider, as a replica holds it (and a gateway's reply carries it). */
    byte[] signedCopy(String url, String body, Headers headers, long fetchedAt) {
        String canonical = CanonicalUrl.of(url).value();
        StoredResponse stored = new StoredResponse(200, "OK", headers, body.getBytes(StandardCharsets.UTF_8));
        ObjectCertificate cert = ObjectCertificate.sign(provider, canonical, "", 1, stored, fetchedAt, fetchedAt, 600);
        return new CachedCopy(new WebObject(cert, stored), Optional.empty()).toBytes();
    }

    /**
     * Stores version {@code version} of {@code url}, fresh for ten minutes, certified for {@code certified}
     * but carrying {@code served} (the same for a genuine copy, another body for a tampered one), as a
     * pushed update would leave it on the node.
     */
    Id storeVersion(String url, long version, String certified, String served) throws Exception {
        String canonical = CanonicalUrl.of(url).value();
        Id guid = ObjectNames.objectGuid(provider.publicKey(), canonical, "");
        Headers headers = Headers.of("Cache-Control", "max-age=600", "Content-Type", "text/plain");
        long now = System.currentTimeMillis();
        StoredResponse genuine = new StoredResponse(200, "OK", headers, certified.getBytes(StandardCharsets.UTF_8));
        ObjectCertificate cert = ObjectCertificate.sign(provider, canonical, "", version, genuine, now, now, 600);
        StoredResponse carried = new StoredResponse(200, "OK", headers, served.getBytes(StandardCharsets.UTF_8));
        if (!node.storeReplica(guid, new CachedCopy(new WebObject(cert, carried), Optional.empty()).toBytes()).get(5, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the node refused version " + version + " of " + url);
        }
        return guid;
    }

    /** The browser proxy on a free port, reading through this node and trusting its provider; attached before it returns. */
    RiptideProxy proxy(OverlayCacheConfig config) throws InterruptedException {
        return proxy(config, Clock.systemUTC());
    }

    /** As above, judging freshness by {@code clock}. */
    RiptideProxy proxy(OverlayCacheConfig config, Clock clock) throws InterruptedException {
        RiptideProxy proxy = RiptideProxy.start(ProxyConfig.builder().port(0).build(), List.of(node.address()),
                List.of(provider.publicKey()), config, clock);
        if (!proxy.awaitAttached(Duration.ofSeconds(10))) {
            proxy.close();
            throw new IllegalStateException("the proxy did not attach to the node");
        }
        return proxy;
    }

    /** Keeps the node's loop busy until {@code released} opens (at most 30 s): whatever is sent to it meanwhile waits. */
    void busyUntil(CountDownLatch released) {
        node.call(n -> {
            try {
                released.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return null;
        });
    }

    /** Keeps the node's loop busy for {@code time}. */
    void busyFor(Duration time) {
        node.call(n -> {
            try {
                Thread.sleep(time.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return null;
        });
    }

    @Override
    public void close() {
        node.close();
    }
}
