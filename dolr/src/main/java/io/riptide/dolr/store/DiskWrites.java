package io.riptide.dolr.store;

import io.riptide.core.runtime.Env;
import java.time.Duration;
import java.util.ArrayDeque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's disk writes, run in the order they were asked for and off its event loop: on the node's
 * {@code disk} stage ({@link Env#submit}), so protocol code never waits on a disk. The replica
 * store's record puts and removes ({@link WriteBehindTier}) and the version floor's appends
 * ({@link VersionFloorFile}) queue here.
 *
 * <pre>
 *  node loop ── offer / append ──► queue (bounded) ──► disk stage: one batch at a time ──┐
 *      ▲                                                                                 │
 *      └────────────── completion: submit the next batch ◄───────────────────────────────┘
 * </pre>
 *
 * <p><b>Order.</b> One thread runs writes at a time, taking them from the head of the queue: a
 * batch of at most {@link #BATCH} on the stage, whose completion on the loop submits the next, or
 * everything at once on a thread that {@link #drain drains} or {@link #close closes}. So writes land
 * in the order queued whatever the stage's thread count (its second thread stays idle).
 *
 * <p><b>Bound.</b> {@link #offer} (a record put) is refused and counted when {@link Limits} writes or
 * bytes already wait: the caller degrades (the replica is not stored) rather than the loop waiting
 * for the disk. {@link #append} (a remove, a floor raise: small, and owed to state the caller has
 * already changed) is never refused; it counts against the bound all the same. A stage that refuses
 * the batch (its own queue full) is asked again after {@link #RETRY}.
 *
 * <p><b>Before and after.</b> Until {@link #attach} gives it the node's {@link Env} (while the store
 * is opened, off the loop) a write runs at once on the caller. A stopped node's completions never
 * come; {@link #close} (and {@link #drain}) run what is left on the calling thread, after any batch
 * in progress, so a clean stop loses nothing queued. After close, offers are refused and appends
 * dropped. Thread-safe.
 */
public final class DiskWrites {
    private static final Logger LOG = LoggerFactory.getLogger(DiskWrites.class);
    /** Most writes one stage event runs, so a completion reaches the loop at least this often. */
    static final int BATCH = 64;
    /** How long to wait before asking a stage that refused the batch again. */
    static final Duration RETRY = Duration.ofMillis(10);

    /** One write: runs on the disk stage (or on a draining thread) and may block on the disk. */
    @FunctionalInterface
    public interface Write {
        void run() throws Exception;
    }

    /**
     * How much may wait for the disk before record puts are refused.
     *
     * @param maxWrites writes waiting at most
     * @param maxBytes  bytes of values waiting at most
     */
    public record Limits(int maxWrites, long maxBytes) {
        /** The disk stage's own queue length (256) and sixteen LOG write buffers. */
        public static final Limits DEFAULT = new Limits(256, 64L << 20);

        public Limits {
            if (maxWrites < 1 || maxBytes < 1) {
                throw new IllegalArgumentException("the write queue needs room, got " + maxWrites + " writes and " + maxBytes + " bytes");
            }
        }
    }

    /**
     * What the queue did.
     *
     * @param queued       writes waiting now
     * @param queuedBytes  bytes of those
     * @param accepted     writes queued since start
     * @param refused      record puts refused because the queue was full (or closed)
     * @param completed    writes run
     * @param failed       of those, writes that threw (an I/O error, a closed tier)
     * @param batches      batches the disk stage ran
     * @param stageRefusals times the stage would not take a batch (asked again after {@link #RETRY})
     * @param maxWaitNanos longest a write waited in the queue (by the node's clock; 0 before attach)
     */
    public record Stats(int queued, long queuedBytes, long accepted, long refused, long completed, long failed, long batches,
                        long stageRefusals, long maxWaitNanos) {
        /** Writes accepted and not yet run: queued, or running now. Zero: everything accepted has reached the tier. */
        public long outstanding() {
            return accepted - completed;
        }
    }

    private record Entry(Write write, long bytes, long queuedAtNanos) {
    }

    private final String stage;
    private final Limits limits;
    // Guarded by this.
    private final ArrayDeque<Entry> queue = new ArrayDeque<>();
    private Env env;
    private boolean submitted;
    private Thread runner;
    private boolean closed;
    private long queuedBytes;
    private long accepted;
    private long refused;
    private long completed;
    private long failed;
    private long batches;
    private long stageRefusals;
    private long maxWaitNanos;

    /** Writes that will run on the stage called {@code stage}, within {@code limits}. */
    public DiskWrites(String stage, Limits limits) {
        this.stage = stage;
        this.limits = limits;
    }

    /** From now on writes run on {@code env}'s disk stage; the node's loop hears each batch end. */
    void attach(Env env) {
        synchronized (this) {
            this.env = env;
        }
        startIfIdle();
    }

    /**
     * Queues {@code write} ({@code bytes} of value) unless the queue is full or closed; then it is
     * refused, counted, and false returned. {@code accepted} runs first, under the queue's lock, when
     * the write is taken: the caller's bookkeeping for it (a pending record) then never outlives a
     * refusal, and is in place before the write can run.
     */
    boolean offer(long bytes, Runnable accepted, Write write) {
        synchronized (this) {
            if (closed || queue.size() >= limits.maxWrites() || queuedBytes + bytes > limits.maxBytes()) {
                refused++;
                return false;
            }
            enqueue(bytes, accepted, write);
        }
        kick();
        return true;
    }

    /** Queues {@code write} whatever the bound (see the class comment); dropped once closed. */
    void append(long bytes, Runnable accepted, Write write) {
        synchronized (this) {
            if (closed) {
                return;
            }
            enqueue(bytes, accepted, write);
        }
        kick();
    }

    private void enqueue(long bytes, Runnable onAccepted, Write write) {
        onAccepted.run();
        queue.addLast(new Entry(write, bytes, env == null ? 0 : env.nowNanos()));
        queuedBytes += bytes;
        accepted++;
    }

    /** Runs the write at once on this thread while unattached, else makes sure a batch is on its way. */
    private void kick() {
        boolean inline;
        synchronized (this) {
            inline = env == null;
        }
        if (inline) {
            drain();
        } else {
            startIfIdle();
        }
    }

    private void startIfIdle() {
        Env e;
        synchronized (this) {
            if (env == null || submitted || closed || queue.isEmpty()) {
                return;
            }
            submitted = true;
            e = env;
        }
        boolean queued = e.submit(stage, () -> run(BATCH, true), (ran, failure) -> batchEnded());
        if (!queued) {
            synchronized (this) {
                submitted = false;
                stageRefusals++;
            }
            e.schedule(RETRY, this::startIfIdle);
        }
    }

    /** On the node's loop: the batch ran (or the stage failed it unrun); the next one goes. */
    private void batchEnded() {
        synchronized (this) {
            submitted = false;
        }
        startIfIdle();
    }

    /**
     * Runs every queued write on the calling thread, after a batch in progress: for a flush, and
     * while unattached. Not on the node's loop once attached (it may wait on the disk).
     */
    public void drain() {
        run(Integer.MAX_VALUE, false);
    }

    /**
     * Runs up to {@code max} writes from the head of the queue, one runner at a time; returns how
     * many ran. A runner that queues more (a write whose tier reports an eviction) finds them in its
     * own loop. A stage thread interrupted while waiting for another runner gives up its turn.
     */
    private int run(int max, boolean onStage) {
        Thread me = Thread.currentThread();
        boolean interrupted = false;
        synchronized (this) {
            if (runner == me) {
                return 0;
            }
            while (runner != null) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    if (onStage) {
                        me.interrupt();
                        return 0;
                    }
                    interrupted = true; // a drain must not leave writes behind; the flag is restored below
                }
            }
            runner = me;
            if (onStage) {
                batches++;
            }
        }
        int ran = 0;
        try {
            while (ran < max) {
                Entry next;
                Env clock;
                synchronized (this) {
                    next = queue.pollFirst();
                    if (next == null) {
                        break;
                    }
                    queuedBytes -= next.bytes();
                    clock = env;
                }
                long wait = clock == null || next.queuedAtNanos() == 0 ? 0 : clock.nowNanos() - next.queuedAtNanos();
                boolean ok = true;
                try {
                    next.write().run();
                } catch (Exception e) {
                    ok = false;
                    LOG.warn("a disk write failed", e);
                }
                ran++;
                synchronized (this) {
                    completed++;
                    if (!ok) {
                        failed++;
                    }
                    maxWaitNanos = Math.max(maxWaitNanos, wait);
                }
            }
        } finally {
            synchronized (this) {
                runner = null;
                notifyAll();
            }
            if (interrupted) {
                me.interrupt();
            }
        }
        return ran;
    }

    /**
     * Refuses further writes, then runs what is queued on the calling thread (after a batch in
     * progress): a clean stop loses nothing. Idempotent. Not on the node's loop while it serves.
     */
    public void close() {
        synchronized (this) {
            closed = true;
        }
        drain();
    }

    /** A snapshot of the counters. */
    public synchronized Stats stats() {
        return new Stats(queue.size(), queuedBytes, accepted, refused, completed, failed, batches, stageRefusals, maxWaitNanos);
    }
}
