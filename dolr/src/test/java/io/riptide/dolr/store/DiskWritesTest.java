package io.riptide.dolr.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.DefaultEventLoopGroup;
import io.netty.channel.EventLoop;
import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.runtime.real.RealEnv;
import io.riptide.core.runtime.real.Transport;
import io.riptide.core.stage.StageConfig;
import io.riptide.core.stage.Stages;
import io.riptide.core.wire.WireMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The write queue: writes run in the order queued, one at a time, on the disk stage even when it has
 * two threads; a stage that refuses the batch is asked again; before the node takes it, writes run
 * on the caller; closing runs what is queued after the batch in progress.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class DiskWritesTest {
    private final DefaultEventLoopGroup loops = new DefaultEventLoopGroup(1);
    private final EventLoop loop = loops.next();
    private Stages stages;

    @AfterEach
    void tearDown() {
        if (stages != null) {
            stages.close();
        }
        loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private RealEnv env(StageConfig disk) {
        stages = Stages.start(disk);
        Transport none = new Transport() {
            @Override
            public void send(NodeAddress to, WireMessage message) {
            }

            @Override
            public void close() {
            }
        };
        return new RealEnv(loop, new NodeHandle(Id.hash("n"), new NodeAddress("127.0.0.1", 1)), none, stages,
                new SplittableRandom(1));
    }

    private static void await(java.util.function.BooleanSupplier done, String what) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!done.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, what);
            LockSupport.parkNanos(1_000_000); // polling interval only
        }
    }

    @Test
    void writesRunInOrderOneAtATimeOnTheStageWhateverItsThreads() {
        RealEnv env = env(StageConfig.of(StoreSettings.DISK_STAGE, 256, 2, 2));
        DiskWrites writes = new DiskWrites(StoreSettings.DISK_STAGE, new DiskWrites.Limits(10_000, 1L << 30));
        writes.attach(env);
        List<Integer> order = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger running = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        List<String> threads = Collections.synchronizedList(new ArrayList<>());
        int n = 500;
        for (int i = 0; i < n; i++) {
            int k = i;
            assertTrue(writes.offer(1, () -> { }, () -> {
                if (running.incrementAndGet() > 1) {
                    overlaps.incrementAndGet();
                }
                threads.add(Thread.currentThread().getName());
                order.add(k);
                LockSupport.parkNanos(20_000); // a little disk time
                running.decrementAndGet();
            }));
        }
        await(() -> writes.stats().completed() == n, "all writes ran");
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            expected.add(i);
        }
        assertEquals(expected, order);
        assertEquals(0, overlaps.get(), "never two writes at once");
        assertTrue(threads.stream().allMatch(t -> t.startsWith("stage-" + StoreSettings.DISK_STAGE)), "on the stage: " + threads);
        DiskWrites.Stats stats = writes.stats();
        assertTrue(stats.batches() >= n / DiskWrites.BATCH, "batches of at most " + DiskWrites.BATCH + ": " + stats);
    }

    @Test
    void aStageThatRefusesTheBatchIsAskedAgain() throws Exception {
        RealEnv env = env(StageConfig.of(StoreSettings.DISK_STAGE, 1, 1, 1));
        CountDownLatch release = new CountDownLatch(1);
        // Another user of the stage holds its one thread and fills its one-place queue.
        assertTrue(env.submit(StoreSettings.DISK_STAGE, () -> release.await(10, TimeUnit.SECONDS), (r, e) -> { }));
        await(() -> stages.metrics().get(StoreSettings.DISK_STAGE).queueLength() == 0, "the blocker started");
        assertTrue(env.submit(StoreSettings.DISK_STAGE, () -> null, (r, e) -> { }));
        DiskWrites writes = new DiskWrites(StoreSettings.DISK_STAGE, DiskWrites.Limits.DEFAULT);
        writes.attach(env);
        AtomicInteger ran = new AtomicInteger();
        assertTrue(writes.offer(1, () -> { }, ran::incrementAndGet));
        await(() -> writes.stats().stageRefusals() > 0, "the stage refused the batch");
        assertEquals(0, ran.get());
        release.countDown();
        await(() -> ran.get() == 1, "the write ran once the stage had room");
    }

    @Test
    void beforeTheNodeTakesItAWriteRunsOnTheCaller() {
        DiskWrites writes = new DiskWrites(StoreSettings.DISK_STAGE, DiskWrites.Limits.DEFAULT);
        List<String> threads = new ArrayList<>();
        writes.append(1, () -> { }, () -> threads.add(Thread.currentThread().getName()));
        assertEquals(List.of(Thread.currentThread().getName()), threads);
        assertEquals(1, writes.stats().completed());
    }

    @Test
    void closeRunsWhatIsQueuedAfterTheBatchInProgressAndRefusesMore() throws Exception {
        RealEnv env = env(StageConfig.of(StoreSettings.DISK_STAGE, 256, 1, 1));
        DiskWrites writes = new DiskWrites(StoreSettings.DISK_STAGE, DiskWrites.Limits.DEFAULT);
        writes.attach(env);
        CountDownLatch inFirst = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<Integer> order = Collections.synchronizedList(new ArrayList<>());
        assertTrue(writes.offer(1, () -> { }, () -> {
            inFirst.countDown();
            release.await(10, TimeUnit.SECONDS);
            order.add(0);
        }));
        assertTrue(inFirst.await(10, TimeUnit.SECONDS));
        for (int i = 1; i <= 3; i++) {
            int k = i;
            assertTrue(writes.offer(1, () -> { }, () -> order.add(k)));
        }
        Thread closer = new Thread(writes::close, "closer");
        closer.start();
        LockSupport.parkNanos(50_000_000); // the closer now waits for the batch in progress
        assertEquals(List.of(), order);
        release.countDown();
        closer.join(10_000);
        assertFalse(closer.isAlive());
        assertEquals(List.of(0, 1, 2, 3), order);
        assertFalse(writes.offer(1, () -> { }, () -> order.add(9)), "closed");
        assertEquals(0, writes.stats().queued());
    }
}
