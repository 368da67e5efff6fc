package io.riptide.dolr.bloom;

import io.riptide.core.id.Id;
import java.util.List;

/**
 * An attenuated Bloom filter for one link to a neighbour: level i summarises the objects i hops
 * away through that neighbour (level 1 the neighbour's own replicas, level 2 its neighbours', …).
 * Level 0 (this node) is not stored per link.
 */
public final class AttenuatedBloomFilter {
    private final List<BloomFilter> levels;

    /** Levels 1..d, nearest first. */
    public AttenuatedBloomFilter(List<BloomFilter> levels) {
        this.levels = List.copyOf(levels);
    }

    /** The nearest level (1-based) that probably holds {@code guid}, or 0 if none does. */
    public int firstLevelHolding(Id guid) {
        for (int i = 0; i < levels.size(); i++) {
            if (levels.get(i).mightContain(guid)) {
                return i + 1;
            }
        }
        return 0;
    }

    /** Level {@code level} (1-based). */
    public BloomFilter level(int level) {
        return levels.get(level - 1);
    }

    /** How many levels this filter has. */
    public int depth() {
        return levels.size();
    }
}
