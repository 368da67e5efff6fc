package io.riptide.cachemanager;

import io.riptide.cachemanager.hot.HotObjects;
import io.riptide.cachemanager.insert.GatewayRequests;
import io.riptide.cachemanager.insert.InsertTrigger;
import io.riptide.cachemanager.replicas.CampusCentre;
import io.riptide.cachemanager.replicas.InsertedCopies;
import io.riptide.cachemanager.replicas.SlowHits;
import io.riptide.core.crypto.PublicKey;
import io.riptide.core.gateway.GatewayMessages.InsertReply;
import io.riptide.core.hint.HintMessages.LatencyHint;
import io.riptide.core.hint.HintMessages.LoadReport;
import io.riptide.core.hint.HintMessages.MissHint;
import io.riptide.core.hint.HintMessages.SeenHint;
import io.riptide.core.hint.HintMessages.SightingAnswer;
import io.riptide.core.hint.HintMessages.SightingAsk;
import io.riptide.core.hint.HintMessages.StaleHint;
import io.riptide.core.id.Id;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.wire.WireMessage;
import io.riptide.dolr.OverlayApplication;
import io.riptide.dolr.OverlayNode;
import java.util.function.Function;

/**
 * The cache-manager agent on an overlay node: offers its provider's cache-manager service, so the
 * proxies for which it is the nearest provider send it their hints (with no configuration: a new
 * manager draws its neighbours' hints once its pointers spread, and when it fails anycast finds the
 * next nearest). Misses and staleness become gateway requests ({@link InsertTrigger}), whose results
 * are copied here for the stub that missed them ({@link InsertedCopies}), slow hits
 * replicas near their users ({@link SlowHits}), and climbing request rates extra replicas on the
 * nodes the load comes from ({@link HotObjects}).
 */
public final class CacheManager implements OverlayApplication {
    private final OverlayNode node;
    private final Id service;
    private final GatewayRequests gateway;
    private final InsertTrigger inserts;
    private final SlowHits slowHits;
    private final HotObjects hot;
    private final InsertedCopies copies;
    private final CampusCentre centre;
    private long hints;

    private CacheManager(OverlayNode node, PublicKey provider, CacheManagerConfig config) {
        this.node = node;
        this.service = ObjectNames.cacheManagerGuid(provider);
        this.hot = new HotObjects(node, config);
        this.copies = new InsertedCopies(node, config, hot::handOver);
        this.gateway = new GatewayRequests(node, ObjectNames.gatewayGuid(provider), config.requestDeadline(), copies::onAnswer);
        this.inserts = new InsertTrigger(node.env(), gateway, config);
        this.slowHits = new SlowHits(node, config);
        this.centre = new CampusCentre(node, config);
    }

    /** Makes the cache manager for the node it runs on (see {@code ServerSettings.withApplication}). */
    public static Function<OverlayNode, OverlayApplication> factory(PublicKey provider, CacheManagerConfig config) {
        return node -> new CacheManager(node, provider, config);
    }

    /** The cache manager running as {@code app}, if it is one. */
    public static CacheManager on(OverlayApplication app) {
        return app instanceof CacheManager m ? m : null;
    }

    @Override
    public void onJoined() {
        node.offerService(service);
        hot.start();
        centre.start();
    }

    @Override
    public void deliverToObject(Id guid, WireMessage payload, NodeHandle requester, long requestId, int hops) {
        if (!guid.equals(service)) {
            return; // a read of a replica this node holds: the overlay answered it already
        }
        if (payload instanceof MissHint m) {
            hints++;
            hot.onRequests(m.guid(), requester, 1);
            copies.onMiss(m.guid(), requester);
            inserts.onMiss(m);
        } else if (payload instanceof SeenHint s) {
            hints++;
            hot.onRequests(s.guid(), requester, 1);
            copies.onMiss(s.guid(), requester);
            inserts.onSeen(s);
        } else if (payload instanceof SightingAsk a) {
            hints++;
            hot.onRequests(a.guid(), requester, 1);
            copies.onMiss(a.guid(), requester);
            node.send(requester.address(), new SightingAnswer(a.requestId(), inserts.onSightingAsk(a)));
        } else if (payload instanceof StaleHint s) {
            hints++;
            inserts.onStale(s);
        } else if (payload instanceof LatencyHint l) {
            hints++;
            hot.onRequests(l.guid(), requester, 1);
            centre.onHits(l.guid(), requester, 1);
            slowHits.onLatency(l);
        } else if (payload instanceof LoadReport r) {
            hints++;
            hot.onRequests(r.guid(), requester, r.requests());
            centre.onHits(r.guid(), requester, r.requests());
        }
    }

    @Override
    public void onMessage(NodeHandle from, WireMessage message) {
        if (message instanceof InsertReply reply) {
            gateway.onReply(reply);
        }
    }

    /** Copies of what the campus reads at the node its readers are nearest. */
    public CampusCentre campusCentre() {
        return centre;
    }

    /** The cache-manager service GUID this manager offers. */
    public Id service() {
        return service;
    }

    /** Hints received so far. */
    public long hints() {
        return hints;
    }

    /** Where miss, stale and seen hints become gateway requests. */
    public InsertTrigger inserts() {
        return inserts;
    }

    public GatewayRequests gateway() {
        return gateway;
    }

    public SlowHits slowHits() {
        return slowHits;
    }

    public HotObjects hotObjects() {
        return hot;
    }

    /** Where what this manager had inserted is copied to its own node. */
    public InsertedCopies insertedCopies() {
        return copies;
    }
}
