package io.riptide.cachemanager.hot;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Request rates per key (an object, or a source of an object's load) over a sliding window, kept as
 * a few buckets per key so memory does not grow with the request rate. Bounded in keys: past
 * {@code maxObjects} the least recently requested are forgotten.
 */
public final class RequestRates<K> {
    private static final int BUCKETS = 10;
    private final long windowNanos;
    private final long bucketNanos;
    private final int maxObjects;
    // Access order: the least recently requested object comes first.
    private final Map<K, ArrayDeque<long[]>> buckets = new LinkedHashMap<>(64, 0.75f, true);

    public RequestRates(Duration window, int maxObjects) {
        this.windowNanos = window.toNanos();
        this.bucketNanos = Math.max(1, windowNanos / BUCKETS);
        this.maxObjects = maxObjects;
    }

    /** Counts {@code count} requests for {@code guid} at {@code nowNanos}. */
    public void record(K guid, long count, long nowNanos) {
        ArrayDeque<long[]> b = buckets.computeIfAbsent(guid, g -> new ArrayDeque<>());
        long start = nowNanos - Math.floorMod(nowNanos, bucketNanos);
        long[] last = b.peekLast();
        if (last != null && last[0] == start) {
            last[1] += count;
        } else {
            b.addLast(new long[] {start, count});
        }
        expire(b, nowNanos);
        Iterator<K> it = buckets.keySet().iterator();
        while (buckets.size() > maxObjects && it.hasNext()) {
            it.next();
            it.remove();
        }
    }

    /** Requests per second for {@code guid} over the window ending at {@code nowNanos}. */
    public double perSecond(K guid, long nowNanos) {
        ArrayDeque<long[]> b = buckets.get(guid);
        if (b == null) {
            return 0;
        }
        expire(b, nowNanos);
        long sum = 0;
        for (long[] bucket : b) {
            sum += bucket[1];
        }
        return sum * 1e9 / windowNanos;
    }

    private void expire(ArrayDeque<long[]> b, long nowNanos) {
        while (!b.isEmpty() && b.peekFirst()[0] + bucketNanos <= nowNanos - windowNanos) {
            b.pollFirst();
        }
    }

    /** The objects with requests in the window; forgets the rest. */
    public List<K> active(long nowNanos) {
        buckets.values().forEach(b -> expire(b, nowNanos));
        buckets.values().removeIf(ArrayDeque::isEmpty);
        return List.copyOf(buckets.keySet());
    }
}
