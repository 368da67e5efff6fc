package io.riptide.benchmarks.bloom;

import io.riptide.benchmarks.fixture.RandomIds;
import io.riptide.core.id.Id;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.bloom.AttenuatedBloomFilter;
import io.riptide.dolr.bloom.BloomFilter;
import java.util.Arrays;
import java.util.List;
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

/**
 * Bloom filter queries and inserts at the deployment's size (2048 bits, 4 hashes), filled as a
 * neighbour's filter typically is, and a two-level attenuated filter as kept per neighbour link.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class BloomFilterBenchmark {
    private static final long SEED = 20_240_603L;
    private static final int MASK = RandomIds.KEYS - 1;
    /** GUIDs in one neighbour's level-1 filter: about 100 replicas, a filter about 18% full. */
    private static final int LEVEL1_ENTRIES = 100;
    /** Level 2 is the union of that neighbour's neighbours' filters, so it is fuller (about 44%). */
    private static final int LEVEL2_ENTRIES = 300;

    private BloomFilter filter;
    private BloomFilter scratch;
    private AttenuatedBloomFilter attenuated;
    private Id[] present;
    private Id[] absent;
    private Id[] atLevel2;
    private int next;

    @Setup(Level.Trial)
    public void setUp() {
        DolrConfig config = DolrConfig.defaults();
        int bits = config.bloomBits();
        int hashes = config.bloomHashes();
        SplittableRandom random = new SplittableRandom(SEED);

        Id[] level1Guids = RandomIds.ids(random, LEVEL1_ENTRIES);
        Id[] level2Guids = RandomIds.ids(random, LEVEL2_ENTRIES);
        filter = filled(bits, hashes, level1Guids);
        BloomFilter level2 = filled(bits, hashes, level2Guids);
        // Level 0 (this node) is not kept per link, so a 3-level configuration stores levels 1 and 2.
        attenuated = new AttenuatedBloomFilter(List.of(filter, level2));
        scratch = new BloomFilter(bits, hashes);

        // Cycle through the members many times over so present and absent arrays are equally long.
        present = new Id[RandomIds.KEYS];
        atLevel2 = new Id[RandomIds.KEYS];
        for (int i = 0; i < RandomIds.KEYS; i++) {
            present[i] = level1Guids[i % LEVEL1_ENTRIES];
            atLevel2[i] = level2Guids[i % LEVEL2_ENTRIES];
        }
        shuffle(present, random);
        shuffle(atLevel2, random);
        // Fresh random GUIDs: absent, bar the rare false positive, exactly as a real miss is.
        absent = RandomIds.ids(random, RandomIds.KEYS);
    }

    private static BloomFilter filled(int bits, int hashes, Id[] guids) {
        BloomFilter f = new BloomFilter(bits, hashes);
        Arrays.stream(guids).forEach(f::add);
        return f;
    }

    // Shuffled so consecutive queries do not repeat the same member in order.
    private static void shuffle(Id[] ids, SplittableRandom random) {
        for (int i = ids.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            Id t = ids[i];
            ids[i] = ids[j];
            ids[j] = t;
        }
    }

    /** A member: all k bits are tested. */
    @Benchmark
    public boolean mightContainPresent() {
        return filter.mightContain(present[next++ & MASK]);
    }

    /** A non-member: usually stops at the first clear bit. */
    @Benchmark
    public boolean mightContainAbsent() {
        return filter.mightContain(absent[next++ & MASK]);
    }

    /** Setting k bits (cost does not depend on how full the filter already is). */
    @Benchmark
    public void add() {
        scratch.add(absent[next++ & MASK]);
    }

    /** An object at the neighbour itself: answered by level 1. */
    @Benchmark
    public int attenuatedLevel1() {
        return attenuated.firstLevelHolding(present[next++ & MASK]);
    }

    /** An object two hops away: level 1 misses, level 2 answers. */
    @Benchmark
    public int attenuatedLevel2() {
        return attenuated.firstLevelHolding(atLevel2[next++ & MASK]);
    }

    /** An object not near this link: both levels are consulted and miss. */
    @Benchmark
    public int attenuatedAbsent() {
        return attenuated.firstLevelHolding(absent[next++ & MASK]);
    }
}
