package io.riptide.core.stage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.testing.Await;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class StageTest {
    private static final String LOOP_THREAD = "test-loop";

    private final ExecutorService loop = Executors.newSingleThreadExecutor(r -> new Thread(r, LOOP_THREAD));
    private final List<Stage> stages = new ArrayList<>();

    /** One callback's outcome, with the thread it ran on. */
    private record Outcome(Object result, Throwable failure, String thread) {
    }

    private final BlockingQueue<Outcome> outcomes = new LinkedBlockingQueue<>();

    @AfterEach
    void tearDown() throws InterruptedException {
        stages.forEach(Stage::close);
        loop.shutdownNow();
        assertTrue(loop.awaitTermination(5, TimeUnit.SECONDS));
    }

    private Stage start(StageConfig config) {
        Stage s = Stage.start(config);
        stages.add(s);
        return s;
    }

    private <T> boolean submit(Stage s, java.util.concurrent.Callable<T> work) {
        return s.submit(work, (r, f) -> outcomes.add(new Outcome(r, f, Thread.currentThread().getName())), loop);
    }

    private Outcome next() throws InterruptedException {
        Outcome o = outcomes.poll(5, TimeUnit.SECONDS);
        if (o == null) {
            throw new AssertionError("no callback within 5 s");
        }
        return o;
    }

    private static long liveThreadsNamed(String prefix) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().matches(java.util.regex.Pattern.quote(prefix) + "\\d+"))
                .count();
    }

    @Test
    void runsWorkOnANamedDaemonWorkerAndCallsBackOnTheGivenExecutor() throws Exception {
        Stage s = start(StageConfig.of("named", 10, 1, 1));
        AtomicReference<Thread> worker = new AtomicReference<>();
        assertTrue(submit(s, () -> {
            worker.set(Thread.currentThread());
            return 42;
        }));
        Outcome o = next();
        assertEquals(42, o.result());
        assertNull(o.failure());
        assertEquals(LOOP_THREAD, o.thread());
        assertTrue(worker.get().getName().matches("stage-named-\\d+"), worker.get().getName());
        assertTrue(worker.get().isDaemon());
    }

    @Test
    void deliversFailuresAsThrowableOnTheGivenExecutor() throws Exception {
        Stage s = start(StageConfig.of("failing", 10, 1, 1));
        IOException boom = new IOException("disk on fire");
        submit(s, () -> {
            throw boom;
        });
        submit(s, () -> {
            throw new StackOverflowError("deep");
        });
        Outcome o = next();
        assertNull(o.result());
        assertSame(boom, o.failure());
        assertEquals(LOOP_THREAD, o.thread());
        assertInstanceOf(StackOverflowError.class, next().failure(), "errors reach the caller too");
        // The worker survived both and still serves.
        submit(s, () -> "alive");
        assertEquals("alive", next().result());
        StageMetrics m = s.metrics();
        assertEquals(2, m.failed());
        assertEquals(1, m.completed());
    }

    @Test
    void refusesAtOnceWhenTheQueueIsFullAndCountsRefusals() throws Exception {
        Stage s = start(StageConfig.of("admission", 2, 1, 1));
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch gate = new CountDownLatch(1);
        assertTrue(submit(s, () -> {
            started.countDown();
            return gate.await(5, TimeUnit.SECONDS);
        }));
        assertTrue(started.await(5, TimeUnit.SECONDS));
        assertTrue(submit(s, () -> "a"));
        assertTrue(submit(s, () -> "b"));
        assertEquals(2, s.queueLength());

        AtomicInteger calledBack = new AtomicInteger();
        for (int i = 0; i < 5; i++) {
            assertFalse(s.submit(() -> "refused", (r, f) -> calledBack.incrementAndGet(), loop));
        }
        StageMetrics full = s.metrics();
        assertEquals(5, full.refused());
        assertEquals(3, full.accepted());
        assertEquals(2, full.queueLength());
        assertEquals(2, s.queueLength(), "a refused event never enters the queue");

        gate.countDown();
        List<Object> results = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            results.add(next().result());
        }
        assertEquals(List.of(true, "a", "b"), results, "one worker serves in FIFO order");
        assertEquals(0, calledBack.get(), "refused work is never run nor called back");
        assertTrue(submit(s, () -> "room again"));
        assertEquals("room again", next().result());
    }

    @Test
    void growsUnderABacklogUpToTheMaximumAndShrinksBackWhenIdle() throws Exception {
        StageConfig config = StageConfig.of("elastic", 100, 1, 4)
                .withGrowThreshold(0)
                .withControlPeriod(Duration.ofMillis(5))
                .withIdleTimeout(Duration.ofMillis(100));
        Stage s = start(config);
        assertEquals(1, s.threadCount());
        CountDownLatch gate = new CountDownLatch(1);
        AtomicInteger concurrent = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        int jobs = 20;
        for (int i = 0; i < jobs; i++) {
            assertTrue(submit(s, () -> {
                peak.accumulateAndGet(concurrent.incrementAndGet(), Math::max);
                try {
                    return gate.await(10, TimeUnit.SECONDS);
                } finally {
                    concurrent.decrementAndGet();
                }
            }));
        }
        Await.until("pool grows to its maximum", () -> s.threadCount() == 4);
        Await.until("every worker busy on the backlog", () -> concurrent.get() == 4);
        assertEquals(4, liveThreadsNamed("stage-elastic-"));
        assertEquals(jobs - 4, s.queueLength());
        assertEquals(4, s.metrics().threads());

        gate.countDown();
        for (int i = 0; i < jobs; i++) {
            assertEquals(true, next().result());
        }
        assertEquals(4, peak.get(), "never more workers than the maximum");
        Await.until("idle workers retire down to the minimum", () -> s.threadCount() == 1);
        Await.until("retired worker threads end", () -> liveThreadsNamed("stage-elastic-") == 1);
        // The survivor still serves.
        assertTrue(submit(s, () -> "after shrink"));
        assertEquals("after shrink", next().result());
    }

    @Test
    void doesNotGrowWhileTheQueueStaysAtOrBelowTheThreshold() throws Exception {
        StageConfig config = StageConfig.of("steady", 100, 1, 4)
                .withGrowThreshold(50)
                .withControlPeriod(Duration.ofMillis(2));
        Stage s = start(config);
        CountDownLatch gate = new CountDownLatch(1);
        for (int i = 0; i < 10; i++) {
            submit(s, () -> gate.await(10, TimeUnit.SECONDS));
        }
        // Give the controller many sampling periods to (wrongly) react, observed via its own clock.
        long samplesWorth = System.nanoTime() + Duration.ofMillis(100).toNanos();
        while (System.nanoTime() < samplesWorth) {
            assertEquals(1, s.threadCount());
            Thread.onSpinWait();
        }
        gate.countDown();
        for (int i = 0; i < 10; i++) {
            next();
        }
    }

    @Test
    void metricsAddUp() throws Exception {
        Stage s = start(StageConfig.of("counted", 1000, 2, 2));
        int attempts = 300;
        int accepted = 0;
        for (int i = 0; i < attempts; i++) {
            int n = i;
            boolean ok = submit(s, () -> {
                if (n % 3 == 0) {
                    throw new IllegalStateException("every third fails");
                }
                if (n == 7) {
                    spin(Duration.ofMillis(3));
                }
                return n;
            });
            if (ok) {
                accepted++;
            }
        }
        for (int i = 0; i < accepted; i++) {
            next();
        }
        Await.until("all work counted", () -> s.metrics().finished() == attempts);
        StageMetrics m = s.metrics();
        assertEquals("counted", m.name());
        assertEquals(attempts, m.accepted() + m.refused());
        assertEquals(m.accepted(), m.completed() + m.failed());
        assertEquals(100, m.failed());
        assertEquals(200, m.completed());
        assertEquals(0, m.queueLength());
        assertTrue(m.maxServiceNanos() >= Duration.ofMillis(3).toNanos(), "the slow event shows: " + m);
        assertTrue(m.maxServiceNanos() >= m.meanServiceNanos());
        assertTrue(m.meanServiceNanos() > 0);
        assertTrue(m.maxWaitNanos() >= m.meanWaitNanos());
        assertTrue(m.maxWaitNanos() > 0, "events behind the slow one waited: " + m);
        assertTrue(m.throughputPerSecond() > 0);
    }

    @Test
    void closeStopsWorkersRefusesNewWorkAndFailsQueuedWork() throws Exception {
        Stage s = start(StageConfig.of("closing", 10, 2, 3));
        CountDownLatch started = new CountDownLatch(2);
        for (int i = 0; i < 2; i++) {
            submit(s, () -> {
                started.countDown();
                return new CountDownLatch(1).await(10, TimeUnit.SECONDS); // until interrupted
            });
        }
        assertTrue(started.await(5, TimeUnit.SECONDS));
        submit(s, () -> "queued");
        assertEquals(2, liveThreadsNamed("stage-closing-"));
        assertTrue(Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().equals("stage-closing-controller")), "controller running");

        s.close();

        assertTrue(s.isClosed());
        assertEquals(0, s.threadCount());
        assertEquals(0, liveThreadsNamed("stage-closing-"));
        assertTrue(Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.isAlive() && t.getName().equals("stage-closing-controller")), "controller stopped");
        List<Outcome> got = List.of(next(), next(), next());
        long interrupted = got.stream().filter(o -> o.failure() instanceof InterruptedException).count();
        long rejected = got.stream().filter(o -> o.failure() instanceof RejectedExecutionException).count();
        assertEquals(2, interrupted, "running work was interrupted: " + got);
        assertEquals(1, rejected, "queued work was failed, not forgotten: " + got);
        assertFalse(submit(s, () -> "late"));
        assertEquals(1, s.metrics().refused());
        assertNull(outcomes.poll(), "exactly one callback per accepted event");
        s.close(); // idempotent
    }

    @Test
    void aStrayInterruptFromWorkDoesNotKillTheWorker() throws Exception {
        Stage s = start(StageConfig.of("stray", 10, 1, 1));
        submit(s, () -> {
            Thread.currentThread().interrupt();
            return "left flag set";
        });
        next();
        submit(s, () -> Thread.currentThread().isInterrupted());
        assertEquals(false, next().result(), "the next event starts with a clean interrupt flag");
        assertEquals(1, s.threadCount());
    }

    @Test
    void aCallbackExecutorThatRefusesDoesNotKillTheWorker() throws Exception {
        Stage s = start(StageConfig.of("refusing-loop", 10, 1, 1));
        assertTrue(s.submit(() -> 1, (r, f) -> { }, r -> {
            throw new RejectedExecutionException("loop shut down");
        }));
        assertTrue(submit(s, () -> 2));
        assertEquals(2, next().result());
        assertEquals(1, s.threadCount());
    }

    private static void spin(Duration d) {
        long end = System.nanoTime() + d.toNanos();
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }
}
