package io.riptide.core.stage;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

/**
 * How long an event may wait in a queue before it is shed: the controlled-delay rule (CoDel, RFC 8289) as it is
 * applied to request queues ("Fail at Scale", Maurer, ACM Queue 13(8), 2015). While the queue has been empty at some
 * moment within the last {@code interval}, an event may wait up to {@code interval}: a burst is absorbed. Once the queue
 * has stood non-empty for longer than that, an event may wait only {@code target}: the standing queue is drained by
 * shedding what waited longer, so whoever is served waited little, and those shed are told at once instead of timing
 * out. A queue that had to shed within the last {@code interval} counts as standing too, even if shedding emptied it:
 * dropping what could not be served is not catching up, and without this rule a pause of the server (a collection, a
 * busy machine) that sheds the whole queue would let the next interval's arrivals wait the interval again. Judged by
 * time waited, not by count: a queue of fast events may be long, one of slow events must be short, and a count fixed in
 * advance is right for neither.
 *
 * <p>Scaled to the queue's service time. CoDel's constants suit a queue whose events take microseconds to serve; a
 * queue whose events take tens of milliseconds (an origin's connections: each is held for a whole exchange) drains a
 * page's burst more slowly than 100 ms and would shed it, and a queue that keeps almost draining would be held to a wait
 * shorter than one event's service. So when the caller knows how long an event takes to serve, a standing queue may
 * wait one service time ({@code target} at least) and a burst {@value #SERVICE_TIMES_PER_INTERVAL} service times
 * ({@code interval} at least): the target stays a tenth of the interval, as RFC 8289 §4.4 advises (5–10 %). Neither
 * ever exceeds {@code ceiling}, the longest any event may wait.
 *
 * <p>Time is passed in (nanoseconds on any one monotonic clock), so the rule is pure; one instance per queue, used
 * from one thread (a queue's event loop).
 */
public final class WaitLimit {
    /**
     * CoDel's target, RFC 8289 §4.4: a standing queue is allowed this much wait. Five milliseconds is far below what a
     * person notices on a page load, and above the jitter of an event loop's scheduling.
     */
    public static final Duration DEFAULT_TARGET = Duration.ofMillis(5);
    /**
     * CoDel's interval, RFC 8289 §4.5: how long a queue may stand before it is treated as standing, and the most a burst
     * may wait. A hundred milliseconds covers a burst of a page's requests arriving together.
     */
    public static final Duration DEFAULT_INTERVAL = Duration.ofMillis(100);

    /** How many service times a burst may wait, once the service time exceeds a tenth of the interval. */
    public static final int SERVICE_TIMES_PER_INTERVAL = 10;

    private final long targetNanos;
    private final long intervalNanos;
    private final long ceilingNanos;
    private long lastEmptyNanos;
    private boolean seenEmpty;
    private long lastShedNanos;
    private boolean seenShed;

    /** The rule with its two bounds and no ceiling; {@code target} must be positive and at most {@code interval}. */
    public WaitLimit(Duration target, Duration interval) {
        this(target, interval, ChronoUnit.FOREVER.getDuration());
    }

    /**
     * The rule with its two bounds, and the longest any event may wait however slow its service ({@code ceiling}, at
     * least {@code interval}).
     */
    public WaitLimit(Duration target, Duration interval, Duration ceiling) {
        if (target.isNegative() || target.isZero() || interval.compareTo(target) < 0) {
            throw new IllegalArgumentException("need 0 < target <= interval, got " + target + " and " + interval);
        }
        if (ceiling.compareTo(interval) < 0) {
            throw new IllegalArgumentException("the ceiling on waits (" + ceiling + ") is below the interval (" + interval + ")");
        }
        this.targetNanos = target.toNanos();
        this.intervalNanos = interval.toNanos();
        this.ceilingNanos = saturatedNanos(ceiling);
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }

    /** The rule with {@link #DEFAULT_TARGET} and {@link #DEFAULT_INTERVAL}. */
    public static WaitLimit defaults() {
        return new WaitLimit(DEFAULT_TARGET, DEFAULT_INTERVAL);
    }

    /** The queue was seen empty at {@code nowNanos} (an event found no one waiting, or the last waiter was served). */
    public void empty(long nowNanos) {
        lastEmptyNanos = nowNanos;
        seenEmpty = true;
    }

    /** An event was shed (or refused at the door) at {@code nowNanos}. */
    public void shedAt(long nowNanos) {
        lastShedNanos = nowNanos;
        seenShed = true;
    }

    /** The longest an event taken from the queue at {@code nowNanos} may have waited, its service time unknown. */
    public long limitNanos(long nowNanos) {
        return limitNanos(nowNanos, 0);
    }

    /**
     * The longest an event taken from the queue at {@code nowNanos} may have waited, when serving one takes
     * {@code serviceNanos} (0 when not known yet).
     */
    public long limitNanos(long nowNanos, long serviceNanos) {
        long target = Math.min(ceilingNanos, Math.max(targetNanos, serviceNanos));
        long interval = Math.min(ceilingNanos,
                Math.max(intervalNanos, Math.min(Long.MAX_VALUE / SERVICE_TIMES_PER_INTERVAL, serviceNanos) * SERVICE_TIMES_PER_INTERVAL));
        boolean standing = !seenEmpty || nowNanos - lastEmptyNanos > interval
                || seenShed && nowNanos - lastShedNanos <= interval;
        return standing ? target : interval;
    }

    /** Whether an event that has waited {@code waitedNanos} by {@code nowNanos} is to be shed rather than served. */
    public boolean tooLong(long waitedNanos, long nowNanos) {
        return waitedNanos > limitNanos(nowNanos);
    }

    public Duration target() {
        return Duration.ofNanos(targetNanos);
    }

    public Duration interval() {
        return Duration.ofNanos(intervalNanos);
    }
}
