package io.riptide.core.store.disk;

import io.riptide.core.stage.Stage;
import io.riptide.core.stage.StageConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One device of a disk tier: its pre-allocated file and the threads that touch it, a read stage, a
 * single-threaded write stage (so writes stay sequential), and the timer that drives flushes. Both
 * policies' tiers keep their index and record layout to themselves and do their I/O through this.
 */
final class Device {
    private static final Logger LOG = LoggerFactory.getLogger(Device.class);

    /** Work for the write stage. */
    interface IoWork {
        Void run() throws IOException;
    }

    private final DiskTierConfig config;
    private final FileChannel ch;
    private Stage reads;
    private Stage writes;
    private ScheduledExecutorService timer;

    Device(DiskTierConfig config, FileChannel ch) {
        this.config = config;
        this.ch = ch;
    }

    /** Starts the stages, and the timer calling {@code tick} twice per flush interval. */
    void start(Runnable tick) {
        String name = config.file().getFileName().toString();
        reads = Stage.start(StageConfig.of("disk-read-" + name, config.readQueue(), 1, config.readThreads()));
        writes = Stage.start(StageConfig.of("disk-write-" + name, 64, 1, 1));
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "disk-timer-" + name);
            t.setDaemon(true);
            return t;
        });
        long period = Math.max(5, config.flushInterval().toMillis() / 2);
        timer.scheduleAtFixedRate(tick, period, period, TimeUnit.MILLISECONDS);
    }

    Stage reads() {
        return reads;
    }

    Stage writes() {
        return writes;
    }

    /** Runs {@code work} on the write stage and waits for it; its I/O failure comes back unchecked. */
    void runOnWriter(IoWork work) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        boolean queued = writes.submit(work::run, (v, e) -> {
            if (e != null) {
                done.completeExceptionally(e);
            } else {
                done.complete(null);
            }
        }, Runnable::run);
        if (!queued) {
            throw new IllegalStateException("disk tier " + config.file() + ": the write stage refused work");
        }
        try {
            done.join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof IOException io ? new UncheckedIOException(io) : new IllegalStateException(cause);
        }
    }

    /** Makes what was written durable, unless the configuration trades that for speed (tests). */
    void force() throws IOException {
        if (config.sync()) {
            ch.force(false);
        }
    }

    /** Stops the flush timer; work already queued still runs. */
    void stopTimer() {
        timer.shutdownNow();
    }

    /** Closes the stages and the file. */
    void close() {
        reads.close();
        writes.close();
        try {
            ch.close();
        } catch (IOException e) {
            LOG.warn("disk tier {}: close failed", config.file(), e);
        }
    }
}
