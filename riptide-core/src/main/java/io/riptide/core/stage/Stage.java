package io.riptide.core.stage;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A SEDA stage: a bounded event queue served by a pool of worker threads whose size a controller
 * adjusts between the configured minimum and maximum, with admission control at the door.
 *
 * <p>{@link #submit} never blocks: when the queue is full it refuses at once and the caller degrades.
 * Each event's work runs on a worker; its result or failure is handed to the caller's callback on the
 * caller's executor (a node's event loop), so protocol code never sees a worker thread.
 *
 * <p>The pool grows by one worker when the queue has stayed above the grow threshold for consecutive
 * controller samples, and shrinks as workers idle for the idle timeout retire (down to the minimum).
 */
public final class Stage implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Stage.class);
    /** How long {@link #close} waits for busy workers to notice the interrupt before giving up on them. */
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    private final StageConfig config;
    private final BlockingQueue<Job<?>> queue;
    private final StageStats stats = new StageStats();
    private final PoolController controller;
    private final ScheduledExecutorService controlTimer;
    /** The controller's thread, once the timer made it: close joins it, since a terminated executor's thread may still be exiting. */
    private volatile Thread controlThread;
    private final AtomicInteger threads = new AtomicInteger();
    private final AtomicInteger threadNumbers = new AtomicInteger();
    private final Set<Thread> workers = ConcurrentHashMap.newKeySet();
    private final long startNanos = System.nanoTime();
    private volatile boolean closed;

    private Stage(StageConfig config) {
        this.config = config;
        this.queue = new LinkedBlockingQueue<>(config.queueCapacity());
        this.controller = new PoolController(config.growThreshold(), config.maxThreads());
        this.controlTimer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "stage-" + config.name() + "-controller");
            t.setDaemon(true);
            controlThread = t;
            return t;
        });
    }

    /** Starts a stage with {@code config.minThreads()} workers and its pool controller running. */
    public static Stage start(StageConfig config) {
        Stage stage = new Stage(Objects.requireNonNull(config, "config"));
        for (int i = 0; i < config.minThreads(); i++) {
            stage.addWorker();
        }
        long period = config.controlPeriod().toNanos();
        stage.controlTimer.scheduleAtFixedRate(stage::control, period, period, TimeUnit.NANOSECONDS);
        return stage;
    }

    public String name() {
        return config.name();
    }

    public StageConfig config() {
        return config;
    }

    /**
     * Queues {@code work}; when it has run, {@code done} runs on {@code callbackOn} with its result
     * (failure null) or its failure (result null). Returns false at once, never calling {@code done},
     * when the queue is full or the stage is closed.
     */
    public <T> boolean submit(Callable<T> work, BiConsumer<T, Throwable> done, Executor callbackOn) {
        Objects.requireNonNull(work, "work");
        Objects.requireNonNull(done, "done");
        Objects.requireNonNull(callbackOn, "callbackOn");
        if (closed) {
            stats.refused();
            return false;
        }
        Job<T> job = new Job<>(work, done, callbackOn, System.nanoTime());
        // Counted as accepted before it is visible to workers, so completed never runs ahead of accepted.
        stats.accepted();
        if (!queue.offer(job)) {
            stats.refusedAfterAll();
            return false;
        }
        // close() may have drained the queue between our check and the offer; take the job back.
        if (closed && queue.remove(job)) {
            stats.refusedAfterAll();
            return false;
        }
        return true;
    }

    /** Events waiting now. */
    public int queueLength() {
        return queue.size();
    }

    /** Workers alive now. */
    public int threadCount() {
        return threads.get();
    }

    /** Whether {@link #close} was called. */
    public boolean isClosed() {
        return closed;
    }

    /** A snapshot of this stage's counters. */
    public StageMetrics metrics() {
        return stats.snapshot(config.name(), queue.size(), threads.get(), System.nanoTime() - startNanos);
    }

    /**
     * Stops the stage: refuses new work, interrupts the workers, and fails every event still queued
     * with a {@link RejectedExecutionException} (so each accepted event's callback runs exactly once).
     * Waits a bounded time for busy workers to finish.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        controlTimer.shutdownNow();
        List<Thread> running = new ArrayList<>(workers);
        running.forEach(Thread::interrupt);
        List<Job<?>> stranded = new ArrayList<>();
        queue.drainTo(stranded);
        RejectedExecutionException closedFailure = new RejectedExecutionException("stage " + name() + " closed");
        for (Job<?> job : stranded) {
            deliver(job, null, closedFailure);
        }
        long deadline = System.nanoTime() + CLOSE_WAIT.toNanos();
        for (Thread t : running) {
            if (t == Thread.currentThread()) {
                continue; // closed from its own work: waiting for ourselves would only stall
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            try {
                TimeUnit.NANOSECONDS.timedJoin(t, left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        try {
            // The controller's thread ends with its timer: wait for it too, so a closed stage leaves
            // no thread of its own behind.
            long left = Math.max(0, deadline - System.nanoTime());
            controlTimer.awaitTermination(left, TimeUnit.NANOSECONDS);
            Thread control = controlThread;
            if (control != null && control != Thread.currentThread()) {
                // Termination is declared before the thread has quite exited; a closed stage leaves no thread alive.
                TimeUnit.NANOSECONDS.timedJoin(control, Math.max(1, deadline - System.nanoTime()));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!workers.isEmpty()) {
            LOG.warn("stage {}: {} workers still busy after close", name(), workers.size());
        }
    }

    @Override
    public String toString() {
        return "Stage[" + name() + ", threads=" + threads.get() + ", queued=" + queue.size() + "]";
    }

    private void control() {
        // Runs on the scheduler: an escaping exception would silently cancel all future samples.
        try {
            if (!closed && controller.shouldGrow(queue.size(), threads.get())) {
                addWorker();
            }
        } catch (RuntimeException e) {
            LOG.error("stage {}: pool controller failed", name(), e);
        }
    }

    private void addWorker() {
        int n;
        do {
            n = threads.get();
            if (n >= config.maxThreads() || closed) {
                return;
            }
        } while (!threads.compareAndSet(n, n + 1));
        Thread t = new Thread(this::work, "stage-" + name() + "-" + threadNumbers.incrementAndGet());
        t.setDaemon(true);
        workers.add(t);
        t.start();
    }

    /** Gives up this worker's place if the pool is above its minimum; true if it did. */
    private boolean retire() {
        int n;
        do {
            n = threads.get();
            if (n <= config.minThreads()) {
                return false;
            }
        } while (!threads.compareAndSet(n, n - 1));
        return true;
    }

    private void work() {
        long idleNanos = config.idleTimeout().toNanos();
        boolean retired = false;
        try {
            while (!closed) {
                Job<?> job;
                try {
                    job = queue.poll(idleNanos, TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    // Only close() should stop a worker; a stray interrupt from earlier work is ignored.
                    continue;
                }
                if (job == null) {
                    if (retire()) {
                        retired = true;
                        return;
                    }
                    continue;
                }
                run(job);
                if (!closed) {
                    // Work that left the interrupt flag set must not disturb the next event.
                    Thread.interrupted();
                }
            }
        } finally {
            if (!retired) {
                threads.decrementAndGet();
            }
            workers.remove(Thread.currentThread());
        }
    }

    private <T> void run(Job<T> job) {
        long start = System.nanoTime();
        stats.waited(start - job.enqueuedNanos);
        T result = null;
        Throwable failure = null;
        try {
            result = job.work.call();
        } catch (Throwable t) {
            // Any failure, errors included, belongs to the caller; the worker lives on.
            failure = t;
        }
        stats.served(System.nanoTime() - start, failure == null);
        deliver(job, result, failure);
    }

    private <T> void deliver(Job<T> job, T result, Throwable failure) {
        try {
            job.callbackOn.execute(() -> job.done.accept(result, failure));
        } catch (RuntimeException e) {
            // The caller's loop is shutting down; nobody is left to tell.
            LOG.warn("stage {}: callback executor refused a result", name(), e);
        }
    }

    /**
     * One queued event. A class, not a record: the queue must remove this very job on a close race,
     * and two submissions of equal parts are still two events.
     */
    private static final class Job<T> {
        final Callable<T> work;
        final BiConsumer<T, Throwable> done;
        final Executor callbackOn;
        final long enqueuedNanos;

        Job(Callable<T> work, BiConsumer<T, Throwable> done, Executor callbackOn, long enqueuedNanos) {
            this.work = work;
            this.done = done;
            this.callbackOn = callbackOn;
            this.enqueuedNanos = enqueuedNanos;
        }
    }
}
