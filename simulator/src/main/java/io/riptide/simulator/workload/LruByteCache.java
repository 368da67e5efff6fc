package io.riptide.simulator.workload;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A plain proxy cache as trace studies model one: URL-keyed, bounded in bytes, least recently used
 * out first; a request hits when the URL is held at the requested size (a new size is a new version,
 * fetched and stored again). Objects larger than the whole cache are never stored.
 */
public final class LruByteCache {
    private final long capacity;
    private final LinkedHashMap<String, Long> sizes = new LinkedHashMap<>(1024, 0.75f, true);
    private long used;

    public LruByteCache(long capacityBytes) {
        this.capacity = capacityBytes;
    }

    /** Serves one request; true on a hit. A miss stores the object (evicting as needed). */
    public boolean request(String url, long bytes) {
        Long held = sizes.get(url);
        if (held != null && held == bytes) {
            return true;
        }
        if (held != null) {
            sizes.remove(url);
            used -= held;
        }
        if (bytes <= capacity) {
            sizes.put(url, bytes);
            used += bytes;
            Iterator<Map.Entry<String, Long>> eldest = sizes.entrySet().iterator();
            while (used > capacity && eldest.hasNext()) {
                Map.Entry<String, Long> e = eldest.next();
                used -= e.getValue();
                eldest.remove();
            }
        }
        return false;
    }

    /** Bytes held. */
    public long used() {
        return used;
    }
}
