package io.riptide.dolr.store;

import io.riptide.core.id.Id;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The replicas this node holds, in memory, bounded in bytes and in objects; the least recently used
 * replica is evicted first and the eviction reported (so its pointers can be withdrawn). The
 * content-store issue replaces this with the disk-backed engine.
 */
public final class ReplicaStore {
    private final long maxBytes;
    private final int maxObjects;
    private final Consumer<Id> onEvict;
    private final LinkedHashMap<Id, byte[]> replicas = new LinkedHashMap<>(64, 0.75f, true);
    private long bytes;
    private long evictions;

    public ReplicaStore(long maxBytes, int maxObjects, Consumer<Id> onEvict) {
        this.maxBytes = maxBytes;
        this.maxObjects = maxObjects;
        this.onEvict = onEvict;
    }

    /**
     * Stores {@code data} as the replica of {@code guid}, evicting older replicas to make room.
     * Returns false if the object alone is larger than the store.
     */
    public boolean put(Id guid, byte[] data) {
        if (data.length > maxBytes) {
            return false;
        }
        byte[] old = replicas.put(guid, data.clone());
        if (old != null) {
            bytes -= old.length;
        }
        bytes += data.length;
        List<Id> evicted = new ArrayList<>();
        Iterator<Map.Entry<Id, byte[]>> it = replicas.entrySet().iterator();
        while ((bytes > maxBytes || replicas.size() > maxObjects) && it.hasNext()) {
            Map.Entry<Id, byte[]> eldest = it.next();
            if (eldest.getKey().equals(guid)) {
                continue;
            }
            bytes -= eldest.getValue().length;
            it.remove();
            evictions++;
            evicted.add(eldest.getKey());
        }
        evicted.forEach(onEvict);
        return true;
    }

    /** The replica of {@code guid} (a copy), or null. */
    public byte[] get(Id guid) {
        byte[] data = replicas.get(guid);
        return data == null ? null : data.clone();
    }

    /** Whether a replica of {@code guid} is here, without touching its recency. */
    public boolean contains(Id guid) {
        return replicas.containsKey(guid);
    }

    /** Drops the replica of {@code guid}; returns true if it was here. */
    public boolean remove(Id guid) {
        byte[] old = replicas.remove(guid);
        if (old != null) {
            bytes -= old.length;
            return true;
        }
        return false;
    }

    /** The GUIDs held, least recently used first. */
    public List<Id> guids() {
        return new ArrayList<>(replicas.keySet());
    }

    public int size() {
        return replicas.size();
    }

    public long bytes() {
        return bytes;
    }

    public long evictions() {
        return evictions;
    }
}
