package io.riptide.core.store;

import io.riptide.core.id.Id;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * A {@link RecordTier} in a plain map on the Java heap, for tests and the simulator: bounded in
 * bytes (the records' lengths) with least-recently-used replacement, evictions reported to the
 * listener after the call that caused them. Nothing is ever written anywhere; "restarting" a
 * content store over it means opening a new store over the same MapTier, whose records survive. Thread-safe; {@link #get}
 * completes at once.
 */
public final class MapTier implements RecordTier {
    private final long maxBytes;
    private final Consumer<Id> onEvict;
    private final LinkedHashMap<Id, byte[]> records = new LinkedHashMap<>(64, 0.75f, true);
    private long bytes;
    private long evictions;

    /** A tier of at most {@code maxBytes} of record values; evicted keys go to {@code onEvict}. */
    public MapTier(long maxBytes, Consumer<Id> onEvict) {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("a tier needs room, got " + maxBytes + " bytes");
        }
        this.maxBytes = maxBytes;
        this.onEvict = onEvict;
    }

    /** An unbounded tier (never evicts by itself). */
    public MapTier(Consumer<Id> onEvict) {
        this(Long.MAX_VALUE, onEvict);
    }

    @Override
    public boolean put(Id key, byte[] value) {
        List<Id> evicted = new ArrayList<>();
        synchronized (this) {
            if (value.length > maxBytes) {
                return false;
            }
            byte[] old = records.put(key, value.clone());
            bytes += value.length - (old == null ? 0 : old.length);
            for (Iterator<Map.Entry<Id, byte[]>> it = records.entrySet().iterator(); bytes > maxBytes && it.hasNext(); ) {
                Map.Entry<Id, byte[]> oldest = it.next();
                if (oldest.getKey().equals(key)) {
                    continue;
                }
                bytes -= oldest.getValue().length;
                it.remove();
                evictions++;
                evicted.add(oldest.getKey());
            }
        }
        evicted.forEach(onEvict);
        return true;
    }

    @Override
    public synchronized CompletableFuture<byte[]> get(Id key) {
        byte[] value = records.get(key);
        return CompletableFuture.completedFuture(value == null ? null : value.clone());
    }

    @Override
    public synchronized boolean mayContain(Id key) {
        return records.containsKey(key);
    }

    @Override
    public synchronized boolean remove(Id key) {
        byte[] old = records.remove(key);
        if (old == null) {
            return false;
        }
        bytes -= old.length;
        return true;
    }

    /**
     * Drops {@code key}'s record as if the tier needed its room, and reports it: how tests make a
     * tier evict a chosen record. Returns whether it was here.
     */
    public boolean evict(Id key) {
        synchronized (this) {
            byte[] old = records.remove(key);
            if (old == null) {
                return false;
            }
            bytes -= old.length;
            evictions++;
        }
        onEvict.accept(key);
        return true;
    }

    @Override
    public synchronized long records() {
        return records.size();
    }

    /** The keys held, least recently used first. */
    public synchronized List<Id> keys() {
        return new ArrayList<>(records.keySet());
    }

    /** Bytes of record values held. */
    public synchronized long bytes() {
        return bytes;
    }

    public synchronized long evictions() {
        return evictions;
    }

    @Override
    public CompletableFuture<Void> scan(BiConsumer<Id, byte[]> visitor) {
        Map<Id, byte[]> snapshot;
        synchronized (this) {
            snapshot = new LinkedHashMap<>(records);
        }
        snapshot.forEach((k, v) -> visitor.accept(k, v.clone()));
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public void flush() {
    }

    /**
     * Nothing to release: the records stay and the tier stays usable, so that a new content store can
     * open over it as over a disk tier's reopened files (a simulated restart).
     */
    @Override
    public void close() {
    }
}
