package io.riptide.dolr.lease;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.Env;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.runtime.PendingRequests;
import io.riptide.dolr.lease.LeaseMessages.Claim;
import io.riptide.dolr.lease.LeaseMessages.ClaimReply;
import io.riptide.dolr.routing.RouteForwarder;
import io.riptide.dolr.routing.RouteHandler;
import io.riptide.dolr.routing.RoutingMessages.Routed;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Short-lived leases kept at a key's root, so that nodes anywhere can agree who does something
 * once: for example which gateway fetches a URL while others wait (CoralCDN's "fetching" record).
 * Soft state: a lease expires by itself, and a root's failure only means a second claimant may
 * proceed. Bounded: when full, expired leases go first, then the oldest.
 */
public final class Leases implements RouteHandler {
    private final Env env;
    private final RouteForwarder forwarder;
    private final int capacity;
    private final Duration deadline;
    private final PendingRequests<LeaseResult> pending;
    private final Map<Id, Lease> held = new LinkedHashMap<>();

    private record Lease(NodeHandle holder, long expiresAt) {
    }

    public Leases(Env env, RouteForwarder forwarder, int capacity, Duration deadline) {
        this.env = env;
        this.forwarder = forwarder;
        this.capacity = capacity;
        this.deadline = deadline;
        this.pending = new PendingRequests<>(env);
    }

    /** Claims the lease on {@code key} for {@code ttl}; {@code done} hears whether this node got it. */
    public void claim(Id key, Duration ttl, Consumer<LeaseResult> done) {
        long ttlMillis = Math.min(ttl.toMillis(), LeaseMessages.MAX_LEASE_MILLIS);
        long id = pending.add(deadline, done, () -> new LeaseResult(true, env.self(), ttlMillis, false));
        forwarder.route(new Routed(key, env.self(), 0, 0, new Claim(key, env.self(), id, ttlMillis, false)));
    }

    /** Gives back a lease this node holds on {@code key}. */
    public void release(Id key) {
        forwarder.route(new Routed(key, env.self(), 0, 0, new Claim(key, env.self(), 0, 0, true)));
    }

    @Override
    public boolean onHop(Routed message, boolean atRoot) {
        return true;
    }

    @Override
    public void onRoot(Routed message) {
        Claim c = (Claim) message.payload();
        long now = env.nowNanos();
        Lease current = held.get(c.key());
        if (current != null && current.expiresAt() <= now) {
            held.remove(c.key());
            current = null;
        }
        if (c.release()) {
            if (current != null && current.holder().id().equals(c.claimant().id())) {
                held.remove(c.key());
            }
            return;
        }
        ClaimReply reply;
        if (current == null || current.holder().id().equals(c.claimant().id())) {
            makeRoom();
            held.put(c.key(), new Lease(c.claimant(), now + c.ttlMillis() * 1_000_000L));
            reply = new ClaimReply(c.requestId(), c.key(), true, c.claimant(), c.ttlMillis());
        } else {
            reply = new ClaimReply(c.requestId(), c.key(), false, current.holder(), (current.expiresAt() - now) / 1_000_000L);
        }
        if (c.claimant().id().equals(env.self().id())) {
            onReply(reply);
        } else {
            env.send(c.claimant().address(), reply);
        }
    }

    private void makeRoom() {
        if (held.size() < capacity) {
            return;
        }
        long now = env.nowNanos();
        held.values().removeIf(l -> l.expiresAt() <= now);
        Iterator<Id> oldest = held.keySet().iterator();
        while (held.size() >= capacity && oldest.hasNext()) {
            oldest.next();
            oldest.remove();
        }
    }

    /** The root's answer to a claim of this node's. */
    public void onReply(ClaimReply reply) {
        pending.complete(reply.requestId(), new LeaseResult(reply.granted(), reply.holder(), reply.remainingMillis(), true));
    }

    /** Leases this node keeps as a root. */
    public int held() {
        return held.size();
    }
}
