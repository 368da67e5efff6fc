package io.riptide.gateway;

import io.riptide.core.crypto.SigningKey;
import io.riptide.core.gateway.GatewayMessages.InsertHandoff;
import io.riptide.core.gateway.GatewayMessages.InsertRequest;
import io.riptide.core.gateway.GatewayMessages.PublisherPush;
import io.riptide.core.gateway.GatewayMessages.Waiter;
import io.riptide.core.id.Id;
import io.riptide.core.object.KeyRecords;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.object.PushMode;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.wire.WireMessage;
import io.riptide.dolr.OverlayApplication;
import io.riptide.dolr.OverlayNode;
import io.riptide.gateway.insert.Inserter;
import io.riptide.gateway.insert.Purger;
import io.riptide.gateway.keys.KeyPublisher;
import io.riptide.gateway.monitor.Monitors;
import io.riptide.gateway.push.PushHandler;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The gateway agent on an overlay node: offers its provider's gateway service, so that cache
 * managers and proxies reach the nearest gateway by anycast, and answers their insert requests
 * (see {@link Inserter}), runs monitors for URLs that keep going stale ({@link Monitors}), takes
 * publishers' pushes ({@link PushHandler}) and its operator's takedowns ({@link Purger}), and publishes
 * its provider's key records: rotations leading to its key, revocations ({@link KeyPublisher}).
 */
public final class Gateway implements OverlayApplication {
    private final OverlayNode node;
    private final Id service;
    private final Inserter inserter;
    private final Monitors monitors;
    private final PushHandler push;
    private final Purger purger;
    private final KeyPublisher keys;
    // The gateway services answered: the provider key's, then those of the keys it rotated from.
    private final List<Id> services = new ArrayList<>();

    private Gateway(OverlayNode node, SigningKey provider, Origin origin, GatewayConfig config, PushMode pushMode,
                    KeyRecords certificate) {
        this.node = node;
        this.service = ObjectNames.gatewayGuid(provider.publicKey());
        this.keys = new KeyPublisher(node, provider.publicKey(), certificate);
        services.add(service);
        // Cache managers and proxies still configured with an older key find this gateway under its name.
        keys.predecessors().forEach(old -> services.add(ObjectNames.gatewayGuid(old)));
        Monitors[] monitorsRef = new Monitors[1];
        this.inserter = new Inserter(node, provider, origin, config, finished -> monitorsRef[0].onFinished(finished));
        this.monitors = new Monitors(node.env(), config, inserter, pushMode);
        monitorsRef[0] = monitors;
        this.push = new PushHandler(node, config, inserter);
        this.purger = new Purger(inserter, node.env());
    }

    /** Makes the gateway for the node it runs on (see {@code ServerSettings.withApplication}). */
    public static Function<OverlayNode, OverlayApplication> factory(SigningKey provider, Origin origin, GatewayConfig config) {
        return factory(provider, origin, config, PushMode.NONE);
    }

    /** As {@link #factory(SigningKey, Origin, GatewayConfig)}, keeping URLs in {@code pushMode} current by pushes. */
    public static Function<OverlayNode, OverlayApplication> factory(SigningKey provider, Origin origin, GatewayConfig config,
                                                                    PushMode pushMode) {
        return factory(provider, origin, config, pushMode, KeyRecords.EMPTY);
    }

    /**
     * As {@link #factory(SigningKey, Origin, GatewayConfig, PushMode)}, for a provider key that
     * succeeds others: {@code certificate} holds the rotations leading to it ({@code riptide keygen
     * --rotate}), which the gateway publishes for proxies (see {@link KeyPublisher}).
     *
     * @throws IllegalArgumentException (when the factory runs) if the certificate does not certify the key
     */
    public static Function<OverlayNode, OverlayApplication> factory(SigningKey provider, Origin origin, GatewayConfig config,
                                                                    PushMode pushMode, KeyRecords certificate) {
        return node -> new Gateway(node, provider, origin, config, pushMode, certificate);
    }

    /** The gateway running on {@code node}, if it runs one. */
    public static Gateway on(OverlayApplication app) {
        return app instanceof Gateway g ? g : null;
    }

    @Override
    public void onJoined() {
        services.forEach(node::offerService);
        keys.start();
    }

    @Override
    public void deliverToObject(Id guid, WireMessage payload, NodeHandle requester, long requestId, int hops) {
        if (!services.contains(guid)) {
            return;
        }
        if (payload instanceof InsertRequest r) {
            inserter.request(new Waiter(requester, r.requestId(), r.wantsCopy()), r.url(), r.requestHeaders(), r.stale());
        } else if (payload instanceof PublisherPush p) {
            push.onPush(requester, p);
        }
    }

    @Override
    public void onMessage(NodeHandle from, WireMessage message) {
        if (message instanceof InsertHandoff handoff) {
            inserter.onHandoff(handoff);
        } else if (message instanceof InsertRequest r) {
            inserter.request(new Waiter(from, r.requestId(), r.wantsCopy()), r.url(), r.requestHeaders(), r.stale());
        } else if (message instanceof PublisherPush p) {
            push.onPush(from, p);
        }
    }

    /** The gateway service GUID this gateway offers. */
    public Id service() {
        return service;
    }

    public Inserter inserter() {
        return inserter;
    }

    public Monitors monitors() {
        return monitors;
    }

    /** Takes URLs down at an operator's request ({@code riptide purge}). */
    public Purger purger() {
        return purger;
    }

    /** The provider key records this gateway publishes, and takes revocations ({@code riptide revoke}). */
    public KeyPublisher keys() {
        return keys;
    }

    public PushHandler push() {
        return push;
    }
}
