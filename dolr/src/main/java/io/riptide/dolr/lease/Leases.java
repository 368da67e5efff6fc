package io.riptide.dolr.lease;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.Env;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.runtime.Cancellable;
import io.riptide.dolr.lease.LeaseMessages.Claim;
import io.riptide.dolr.lease.LeaseMessages.ClaimReply;
import io.riptide.dolr.routing.HopChoice;
import io.riptide.dolr.routing.RouteForwarder;
import io.riptide.dolr.routing.RouteHandler;
import io.riptide.dolr.routing.RoutingMessages.Routed;
import io.riptide.core.runtime.RoundTripEstimate;
import java.time.Duration;
import java.util.HashMap;
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
    /** RFC 6298's first retransmission timeout, before any round trip has been measured. */
    private static final Duration INITIAL_TIMEOUT = Duration.ofSeconds(1);

    private final Env env;
    private final RouteForwarder forwarder;
    private final int capacity;
    private final Duration budget;
    private final RoundTripEstimate roundTrip;
    private final Map<Long, InFlight> inFlight = new HashMap<>();
    private final Map<Id, Lease> held = new LinkedHashMap<>();
    private long nextRequestId;
    private long resent;
    private long unanswered;

    private record Lease(NodeHandle holder, long expiresAt) {
    }

    /** A claim of this node's waiting for its root's answer. */
    private static final class InFlight {
        final Id key;
        final long ttlMillis;
        final Consumer<LeaseResult> done;
        final long giveUpAt;
        int attempts;
        long sentAt;
        Cancellable timer;

        InFlight(Id key, long ttlMillis, Consumer<LeaseResult> done, long giveUpAt) {
            this.key = key;
            this.ttlMillis = ttlMillis;
            this.done = done;
            this.giveUpAt = giveUpAt;
        }
    }

    /**
     * @param budget      how long a claim may keep trying before it is answered as unconfirmed
     * @param minTimeout  the shortest wait before a claim is resent
     */
    public Leases(Env env, RouteForwarder forwarder, int capacity, Duration budget, Duration minTimeout) {
        this.env = env;
        this.forwarder = forwarder;
        this.capacity = capacity;
        this.budget = budget;
        this.roundTrip = new RoundTripEstimate(INITIAL_TIMEOUT, minTimeout, budget);
    }

    /**
     * Claims the lease on {@code key} for {@code ttl}; {@code done} hears whether this node got it.
     * A claim or its answer lost on a congested path is resent (same request: the root's answer
     * is the same) after a timeout learnt from earlier claims' round trips, until the budget runs out;
     * only then is the result unconfirmed ({@code answered} false).
     */
    public void claim(Id key, Duration ttl, Consumer<LeaseResult> done) {
        long ttlMillis = Math.min(ttl.toMillis(), LeaseMessages.MAX_LEASE_MILLIS);
        long id = ++nextRequestId;
        InFlight claim = new InFlight(key, ttlMillis, done, env.nowNanos() + budget.toNanos());
        inFlight.put(id, claim);
        send(id, claim);
    }

    private void send(long id, InFlight claim) {
        claim.attempts++;
        claim.sentAt = env.nowNanos();
        long wait = Math.min(roundTrip.timeout().toNanos(), Math.max(0, claim.giveUpAt - claim.sentAt));
        // The timer first: when this node is the key's root the answer arrives before route() returns.
        claim.timer = env.schedule(Duration.ofNanos(wait), () -> onTimeout(id));
        forwarder.route(new Routed(claim.key, env.self(), 0, 0, new Claim(claim.key, env.self(), id, claim.ttlMillis, false)));
    }

    private void onTimeout(long id) {
        InFlight claim = inFlight.get(id);
        if (claim == null) {
            return;
        }
        roundTrip.backOff();
        if (env.nowNanos() >= claim.giveUpAt) {
            inFlight.remove(id);
            unanswered++;
            claim.done.accept(new LeaseResult(true, env.self(), claim.ttlMillis, false));
            return;
        }
        resent++;
        send(id, claim);
    }

    /** Gives back a lease this node holds on {@code key}. */
    public void release(Id key) {
        forwarder.route(new Routed(key, env.self(), 0, 0, new Claim(key, env.self(), 0, 0, true)));
    }

    @Override
    public boolean onHop(Routed message, boolean atRoot) {
        return true;
    }

    /** Only the root holds leases, so a claim takes the shorter path there. */
    @Override
    public HopChoice hopChoice() {
        return HopChoice.NEAR_CLOSEST_TO_KEY;
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
            answer(reply, false);
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
        answer(reply, true);
    }

    private void answer(ClaimReply reply, boolean remote) {
        InFlight claim = inFlight.remove(reply.requestId());
        if (claim == null) {
            return; // a second answer to a resent claim, or one after the budget ran out
        }
        claim.timer.cancel();
        if (remote && claim.attempts == 1) {
            roundTrip.sample(env.nowNanos() - claim.sentAt);
        }
        claim.done.accept(new LeaseResult(reply.granted(), reply.holder(), reply.remainingMillis(), true));
    }

    /** Claims resent after a timeout, since this node started. */
    public long resent() {
        return resent;
    }

    /** Claims that ran out of budget unanswered (and proceeded as unconfirmed), since this node started. */
    public long unanswered() {
        return unanswered;
    }

    /** How long a claim now waits for its answer before it is resent. */
    public Duration timeout() {
        return roundTrip.timeout();
    }

    /** Leases this node keeps as a root. */
    public int held() {
        return held.size();
    }
}
