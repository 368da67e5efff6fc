package io.riptide.benchmarks.routing;

import io.riptide.benchmarks.fixture.RandomIds;
import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.dolr.routing.Router;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/** {@link Router#nextHop} for one node of a 10,000-node overlay: random keys and keys inside its leaf set. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class NextHopBenchmark {
    private static final int NODES = 10_000;
    private static final long SEED = 20_240_601L;
    private static final int MASK = RandomIds.KEYS - 1;
    // Nothing excluded: the fault-free path every hop takes first.
    private static final Predicate<Id> NONE_EXCLUDED = id -> false;

    private Router router;
    private Id[] randomKeys;
    private Id[] leafSetKeys;
    private int next;

    @Setup(Level.Trial)
    public void setUp() {
        OverlayFixture overlay = OverlayFixture.build(NODES, SEED);
        SplittableRandom random = new SplittableRandom(SEED + 1);
        router = overlay.router;
        randomKeys = overlay.randomKeys(random, RandomIds.KEYS);
        leafSetKeys = overlay.leafSetKeys(random, RandomIds.KEYS);
    }

    /** A random key: almost always a routing-table lookup. */
    @Benchmark
    public NodeHandle randomKey() {
        return router.nextHop(randomKeys[next++ & MASK], NONE_EXCLUDED);
    }

    /** A key within the leaf set's range: the last hop, choosing the numerically closest member. */
    @Benchmark
    public NodeHandle leafSetKey() {
        return router.nextHop(leafSetKeys[next++ & MASK], NONE_EXCLUDED);
    }
}
