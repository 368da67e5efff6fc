package io.riptide.core.object;

import io.riptide.core.id.Id;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The highest version seen certified current, per GUID: a verifier refuses anything older
 * ({@link #admits}, which counts each refusal). Bounded (least recently used GUIDs are forgotten
 * past {@link #capacity()}) because the GUIDs come from whatever replicas and heartbeats outsiders
 * send. Forgetting a GUID only loses its protection against replayed old versions, never accepts a
 * bad signature. Thread-safe.
 *
 * <p>A floor that outlives its process (an overlay node's, kept beside its disk store) is restored
 * with {@link #restore}, which tells no listener, and hears of every raise that changed it through
 * the {@link Listener} it was built with; {@link #entries()} lists what it holds, least recently
 * used first, for rewriting the copy kept on disk.
 */
public final class VersionFloor {
    /** A default size: 64 Ki GUIDs, a few megabytes. */
    public static final int DEFAULT_CAPACITY = 1 << 16;

    /** Hears each raise that changed a floor: a GUID newly remembered, or a higher version. */
    @FunctionalInterface
    public interface Listener {
        /** {@code guid}'s floor is now {@code version}. Called outside the floor's lock, on the raising thread. */
        void raised(Id guid, long version);
    }

    private static final Listener NONE = (guid, version) -> { };

    private final int capacity;
    private final Listener listener;
    private final LinkedHashMap<Id, Long> floors;
    private long refused;

    /** A floor of at most {@code capacity} GUIDs, kept in memory only. */
    public VersionFloor(int capacity) {
        this(capacity, NONE);
    }

    /** A floor of at most {@code capacity} GUIDs whose raises {@code listener} hears (to keep a copy). */
    public VersionFloor(int capacity, Listener listener) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
        }
        this.capacity = capacity;
        this.listener = listener;
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

    /**
     * Whether {@code version} of {@code guid} is at least its floor (so may be current); a version
     * below it is a replay of an older one, refused and counted ({@link #refused()}).
     */
    public synchronized boolean admits(Id guid, long version) {
        if (version >= floor(guid)) {
            return true;
        }
        refused++;
        return false;
    }

    /** Records that {@code version} of {@code guid} was certified current; never lowers the floor. */
    public void raise(Id guid, long version) {
        boolean changed;
        synchronized (this) {
            Long before = floors.get(guid);
            changed = before == null || version > before;
            if (changed) {
                floors.put(guid, version);
            }
        }
        if (changed) {
            listener.raised(guid, version);
        }
    }

    /**
     * Puts back a floor remembered from before a restart, as the most recently used GUID, without
     * telling the listener; never lowers the floor.
     */
    public synchronized void restore(Id guid, long version) {
        floors.merge(guid, version, Math::max);
    }

    /** Every GUID remembered with its floor, least recently used first (a snapshot). */
    public synchronized List<Map.Entry<Id, Long>> entries() {
        List<Map.Entry<Id, Long>> out = new ArrayList<>(floors.size());
        floors.forEach((guid, version) -> out.add(Map.entry(guid, version)));
        return out;
    }

    /** Versions refused so far for being older than their GUID's floor. */
    public synchronized long refused() {
        return refused;
    }

    /** How many GUIDs are remembered. */
    public synchronized int size() {
        return floors.size();
    }

    public int capacity() {
        return capacity;
    }
}
