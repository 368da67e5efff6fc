package io.riptide.simulator.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Event times (virtual nanoseconds) per integer key, such as the requests each replica served. */
public final class KeyedTimes {
    private final Map<Integer, List<Long>> times = new TreeMap<>();

    /** Records an event for {@code key} at {@code nanos}. */
    public void add(int key, long nanos) {
        times.computeIfAbsent(key, k -> new ArrayList<>()).add(nanos);
    }

    /** The keys with events, in ascending order. */
    public List<Integer> keys() {
        return List.copyOf(times.keySet());
    }

    /** Events of {@code key} in {@code [from, to)}. */
    public long count(int key, long from, long to) {
        long n = 0;
        for (long t : times.getOrDefault(key, List.of())) {
            if (t >= from && t < to) {
                n++;
            }
        }
        return n;
    }

    /** Events of {@code key} in each of {@code intervals} windows of {@code width} from {@code start}. */
    public long[] perInterval(int key, long start, long width, int intervals) {
        long[] counts = new long[intervals];
        for (long t : times.getOrDefault(key, List.of())) {
            long i = Math.floorDiv(t - start, width);
            if (i >= 0 && i < intervals) {
                counts[(int) i]++;
            }
        }
        return counts;
    }

    /** All events of all keys. */
    public long total() {
        return times.values().stream().mapToLong(List::size).sum();
    }
}
