package io.riptide.core.runtime.sim;

import io.riptide.core.runtime.Cancellable;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * A deterministic discrete-event engine: one thread, virtual time in nanoseconds, one event queue.
 * Events at the same instant run in the order they were scheduled, so a seed fixes the whole run.
 */
public final class Simulation {
    private final PriorityQueue<Event> queue = new PriorityQueue<>();
    private final SplittableRandom seeds;
    private long now;
    private long sequence;
    private long eventsRun;

    /** An engine whose randomness all descends from {@code seed}. */
    public Simulation(long seed) {
        this.seeds = new SplittableRandom(seed);
    }

    /** Virtual time now, in nanoseconds since the start. */
    public long now() {
        return now;
    }

    /** Events run so far. */
    public long eventsRun() {
        return eventsRun;
    }

    /** Events waiting. */
    public int pending() {
        return queue.size();
    }

    /** A new independent random stream, split deterministically from the engine's seed. */
    public SplittableRandom newRandom() {
        return seeds.split();
    }

    /** Runs {@code task} {@code delayNanos} from now. */
    public Cancellable at(long delayNanos, Runnable task) {
        Event e = new Event(now + Math.max(0, delayNanos), sequence++, task);
        queue.add(e);
        return e;
    }

    /** Runs events until the queue is empty or virtual time would pass {@code untilNanos}. */
    public void runUntil(long untilNanos) {
        while (!queue.isEmpty() && queue.peek().time <= untilNanos) {
            step();
        }
        if (untilNanos > now) {
            now = untilNanos;
        }
    }

    /** Runs for {@code nanos} of virtual time. */
    public void runFor(long nanos) {
        runUntil(now + nanos);
    }

    /** Runs until nothing is left to do (beware periodic timers: they never leave). */
    public void runToQuiescence() {
        while (!queue.isEmpty()) {
            step();
        }
    }

    private void step() {
        Event e = queue.poll();
        now = e.time;
        if (!e.cancelled) {
            eventsRun++;
            e.task.run();
        }
    }

    private static final class Event implements Comparable<Event>, Cancellable {
        final long time;
        final long seq;
        final Runnable task;
        boolean cancelled;

        Event(long time, long seq, Runnable task) {
            this.time = time;
            this.seq = seq;
            this.task = task;
        }

        @Override
        public void cancel() {
            cancelled = true;
        }

        @Override
        public int compareTo(Event o) {
            int c = Long.compare(time, o.time);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }
}
