package io.riptide.core.object;

import io.riptide.core.id.Id;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The highest version seen certified current, per GUID: a verifier refuses anything older. Bounded
 * (least recently used GUIDs are forgotten past {@link #capacity()}) because the GUIDs come from
 * whatever replicas and heartbeats outsiders send. Forgetting a GUID only loses its protection
 * against replayed old versions, never accepts a bad signature. Thread-safe.
 */
public final class VersionFloor {
    /** A default size: 64 Ki GUIDs, a few megabytes. */
    public static final int DEFAULT_CAPACITY = 1 << 16;

    private final int capacity;
    private final LinkedHashMap<Id, Long> floors;

    public VersionFloor(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
        }
        this.capacity = capacity;
        this.floors = new LinkedHashMap<>(16, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<Id, Long> eldest) {
                return size() > VersionFloor.this.capacity;
            }
        };
    }

    /** The highest version recorded for {@code guid}, or 0 if none (versions start at 1). */
    public synchronized long floor(Id guid) {
        Long v = floors.get(guid);
        return v == null ? 0 : v;
    }

    /** Records that {@code version} of {@code guid} was certified current; never lowers the floor. */
    public synchronized void raise(Id guid, long version) {
        floors.merge(guid, version, Math::max);
    }

    /** How many GUIDs are remembered. */
    public synchronized int size() {
        return floors.size();
    }

    public int capacity() {
        return capacity;
    }
}
