package io.riptide.dolr.store;

import io.riptide.core.id.Id;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The replicas this node holds, in memory, bounded in bytes and in objects; evictions are reported
 * (so pointers can be withdrawn). Replacement is least-recently-used with the cooperative-caching
 * paper's master-preserving rule: among the oldest replicas, one that a local-area neighbour also
 * holds (a "non-master" copy: losing it costs a nearby fetch) goes before the neighbourhood's last
 * copy (its "master": losing it sends the next read out of the stub). The content-store issue
 * replaces this with the disk-backed engine.
 */
public final class ReplicaStore {
    /** How many of the oldest replicas an eviction looks through for a non-master copy. */
    static final int NON_MASTER_SCAN = 64;

    private final long maxBytes;
    private final int maxObjects;
    private final Consumer<Id> onEvict;
    private final Predicate<Id> heldNearby;
    private final LinkedHashMap<Id, byte[]> replicas = new LinkedHashMap<>(64, 0.75f, true);
    private long bytes;
    private long evictions;
    private long nonMasterEvictions;

    /** A plain LRU store (no neighbourhood knowledge). */
    public ReplicaStore(long maxBytes, int maxObjects, Consumer<Id> onEvict) {
        this(maxBytes, maxObjects, onEvict, guid -> false);
    }

    /**
     * A store that evicts copies {@code heldNearby} says a neighbour also holds before the
     * neighbourhood's last copies.
     */
    public ReplicaStore(long maxBytes, int maxObjects, Consumer<Id> onEvict, Predicate<Id> heldNearby) {
        this.maxBytes = maxBytes;
        this.maxObjects = maxObjects;
        this.onEvict = onEvict;
        this.heldNearby = heldNearby;
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
        while (bytes > maxBytes || replicas.size() > maxObjects) {
            Id victim = victim(guid);
            if (victim == null) {
                break;
            }
            bytes -= replicas.remove(victim).length;
            evictions++;
            evicted.add(victim);
        }
        evicted.forEach(onEvict);
        return true;
    }

    /**
     * The oldest non-master copy among the {@link #NON_MASTER_SCAN} oldest replicas, else the oldest
     * replica (global LRU); never {@code keep}, the replica being stored.
     */
    private Id victim(Id keep) {
        Id oldest = null;
        int scanned = 0;
        for (Iterator<Id> it = replicas.keySet().iterator(); it.hasNext() && scanned < NON_MASTER_SCAN; scanned++) {
            Id candidate = it.next();
            if (candidate.equals(keep)) {
                continue;
            }
            if (heldNearby.test(candidate)) {
                nonMasterEvictions++;
                return candidate;
            }
            if (oldest == null) {
                oldest = candidate;
            }
        }
        return oldest;
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

    /** Evictions that chose a copy a neighbour also holds over an older last copy (or as the oldest). */
    public long nonMasterEvictions() {
        return nonMasterEvictions;
    }
}
