package io.riptide.benchmarks.id;

import io.riptide.benchmarks.fixture.RandomIds;
import io.riptide.core.id.Id;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
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

/** The ID arithmetic under every routing decision: shared prefix length, ring distance and closeness to a key. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class IdBenchmark {
    private static final long SEED = 20_240_602L;
    private static final int MASK = RandomIds.KEYS - 1;

    private Id[] left;
    private Id[] right;
    private int next;

    @Setup(Level.Trial)
    public void setUp() {
        SplittableRandom random = new SplittableRandom(SEED);
        left = RandomIds.ids(random, RandomIds.KEYS);
        right = RandomIds.ids(random, RandomIds.KEYS);
    }

    /** Prefix of two random IDs: settled in the top word, as for most keys a node sees. */
    @Benchmark
    public int sharedPrefixLength() {
        int i = next++ & MASK;
        return left[i].sharedPrefixLength(right[i]);
    }

    /** Shorter way round the ring: two subtractions (each a new ID) and a compare. */
    @Benchmark
    public Id ringDistance() {
        int i = next++ & MASK;
        return left[i].ringDistance(right[i]);
    }

    /** Which of two IDs is nearer a key: the comparison the last routing hop makes per leaf-set member. */
    @Benchmark
    public boolean closerTo() {
        int i = next++ & MASK;
        return left[i].closerTo(right[i], right[(i + 1) & MASK]);
    }
}
