package io.riptide.proxy.upstream;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;
import io.riptide.core.stage.WaitLimit;
import java.util.ArrayDeque;
import java.util.IdentityHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The requests for one origin on one event loop, admitted to its connections: at most {@code slots} exchanges talk to
 * the origin at once (the pool's bound), the rest wait here in arrival order. This is where a proxy in front of a slow or
 * popular origin queues, so this is where it sheds: a waiter that has waited longer than the {@link WaitLimit} allows is
 * dropped unserved when its turn comes, or when a sweep finds it, and told so (a 503 with {@code Retry-After}), and a
 * request that finds {@code maxWaiting} already waiting is refused at once. Whoever is served waited little; whoever is
 * shed learns it within milliseconds instead of timing out. The limit is scaled to how long this origin holds a
 * connection for one exchange (smoothed like TCP's round-trip time, RFC 6298: an eighth of each new sample), so that a
 * page's burst for an origin that takes 50 ms an answer is not shed as though the origin took 5 ms. Only exchanges that
 * finished count: an origin that hangs does not teach the queue to wait longer for it. Used on its event loop only: no
 * locks.
 */
final class OriginQueue {
    /** One exchange waiting for a connection. */
    interface Waiter {
        /** A slot is this waiter's: it may take a connection. */
        void admitted();

        /** It waited longer than the limit (or the queue was full): it will not be served. */
        void shed(long waitedNanos, long limitNanos);
    }

    private final EventLoop loop;
    private final int slots;
    private final int maxWaiting;
    private final WaitLimit limit;
    private final LongSupplier clock;
    private final OriginStage stage;
    private final ArrayDeque<Queued> waiting = new ArrayDeque<>();
    /** When each admitted waiter got its slot: at most {@code slots} entries. */
    private final IdentityHashMap<Waiter, Long> holding = new IdentityHashMap<>();
    /** The smoothed time a slot is held for one exchange; 0 until one has finished (then see {@link #limitNanos}). */
    private long serviceNanos;
    private int inUse;
    private ScheduledFuture<?> sweep;

    private record Queued(Waiter waiter, long since) {
    }

    OriginQueue(EventLoop loop, int slots, int maxWaiting, WaitLimit limit, LongSupplier clock, OriginStage stage) {
        this.loop = loop;
        this.slots = slots;
        this.maxWaiting = maxWaiting;
        this.limit = limit;
        this.clock = clock;
        this.stage = stage;
        // A new queue is empty: a first burst may wait the interval.
        limit.empty(clock.getAsLong());
    }

    /**
     * A request for a connection: admitted now (its {@link Waiter#admitted} runs before this returns) if a slot is free
     * and no one waits; else queued; or, with {@code maxWaiting} waiting already, refused (its {@link Waiter#shed} runs
     * before this returns). Returns false only when refused.
     */
    boolean enter(Waiter w) {
        long now = clock.getAsLong();
        shedExpired(now);
        if (waiting.isEmpty() && inUse < slots) {
            // Nobody waits and a connection is free: service has caught up (unless it shed lately; the limit knows).
            limit.empty(now);
            admit(w, now);
            stage.admittedAtOnce();
            w.admitted();
            return true;
        }
        if (waiting.size() >= maxWaiting) {
            limit.shedAt(now);
            stage.refused();
            w.shed(0, limitNanos(now));
            return false;
        }
        waiting.add(new Queued(w, now));
        stage.queued();
        armSweep();
        return true;
    }

    /** A waiter gave up (its browser left) before it was admitted; nothing happens if it was not waiting. */
    void cancel(Waiter w) {
        if (waiting.removeIf(q -> q.waiter() == w)) {
            stage.cancelled();
        }
    }

    /** The admitted {@code w} is done with its slot: the next waiter within the limit gets it. */
    void leave(Waiter w) {
        Long since = holding.remove(w);
        if (since == null) {
            throw new IllegalStateException("leave without a slot");
        }
        inUse--;
        stage.released();
        long now = clock.getAsLong();
        long held = now - since;
        serviceNanos = serviceNanos == 0 ? held : serviceNanos + (held - serviceNanos) / 8;
        shedExpired(now);
        Queued next = waiting.poll();
        if (next == null || waiting.isEmpty()) {
            limit.empty(now);
        }
        if (next == null) {
            return;
        }
        admit(next.waiter(), now);
        stage.admittedAfter(now - next.since());
        next.waiter().admitted();
    }

    private void admit(Waiter w, long now) {
        inUse++;
        holding.put(w, now);
    }

    /**
     * The wait allowed now. Until an exchange has finished, the service time is at least how long the oldest one in
     * progress has taken: a new origin across a WAN holds its first connections for a round trip or two, and a page's
     * first burst must not be shed for that. An origin that hangs then holds its waiters up to the ceiling (the connect
     * timeout), as a connect to it would.
     */
    private long limitNanos(long now) {
        return limit.limitNanos(now, serviceNanos > 0 ? serviceNanos : oldestHold(now));
    }

    /** How long the oldest exchange now holding a slot has held it; 0 if none does. */
    private long oldestHold(long now) {
        long oldest = 0;
        for (long since : holding.values()) {
            oldest = Math.max(oldest, now - since);
        }
        return oldest;
    }

    /** Waiters now; for tests. */
    int waiting() {
        return waiting.size();
    }

    /** The smoothed time one exchange holds a slot, 0 until one has finished; for tests. */
    long serviceNanos() {
        return serviceNanos;
    }

    /** Sheds, from the head, every waiter that has waited past the limit. */
    private void shedExpired(long now) {
        long allowed = limitNanos(now);
        for (Queued q; (q = waiting.peek()) != null && now - q.since() > allowed; ) {
            waiting.poll();
            limit.shedAt(now);
            stage.shed(now - q.since());
            q.waiter().shed(now - q.since(), allowed);
        }
    }

    /**
     * Makes sure waiters are shed on time even when no connection frees and no request comes (an origin that hangs):
     * a sweep when the head waiter's limit runs out.
     */
    private void armSweep() {
        if (sweep != null || waiting.isEmpty()) {
            return;
        }
        long now = clock.getAsLong();
        long due = Math.max(0, waiting.peek().since() + limitNanos(now) - now) + 1;
        sweep = loop.schedule(() -> {
            sweep = null;
            shedExpired(clock.getAsLong());
            armSweep();
        }, due, TimeUnit.NANOSECONDS);
    }
}
