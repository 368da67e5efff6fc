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
import java.util.function.Predicate;

/**
 * A {@link RecordTier} in a plain map on the Java heap, for tests and the simulator: bounded in
 * bytes (the records' lengths) with least-recently-used replacement, evictions reported to the
 * listener after the call that caused them. Nothing is ever written anywhere; "restarting" a
 * content store over it means opening a new store over the same MapTier, whose records survive. Thread-safe; {@link #get}
 * completes at once.
 *
 * <p>Optionally also bounded in records, and with a <b>victim preference</b>: when it must evict, it
 * looks through its {@link #PREFERENCE_SCAN} least recently used records for one the preference
 * accepts and evicts that first, falling back to plain LRU. An overlay node uses it for the
 * cooperative-caching paper's master-preserving rule (evict copies a neighbour also holds before the
 * neighbourhood's last copy).
 *
 * <p>A tier built with a {@link BiConsumer} listener hands it each evicted record's value with its key:
 * the bytes are at hand when the tier drops them, so its owner can pass an evicted object on (an
 * overlay node forwards the neighbourhood's last copy to a neighbour) instead of losing it.
 */
public final class MapTier implements RecordTier {
    /** How many of the least recently used records an eviction looks through for a preferred victim. */
    public static final int PREFERENCE_SCAN = 64;

    private final long maxBytes;
    private final long maxRecords;
    private final BiConsumer<Id, byte[]> onEvict;
    private final Predicate<Id> preferredVictim;
    // Least recently used first. Insertion-ordered, each use moving its key to the end by hand, so that
    // peek can read a record without counting a use.
    private final LinkedHashMap<Id, byte[]> records = new LinkedHashMap<>(64, 0.75f, false);
    private long bytes;
    private long evictions;
    private long preferredEvictions;

    /** A tier of at most {@code maxBytes} of record values; evicted keys go to {@code onEvict}. */
    public MapTier(long maxBytes, Consumer<Id> onEvict) {
        this(maxBytes, Long.MAX_VALUE, onEvict, key -> false);
    }

    /**
     * A tier of at most {@code maxBytes} of record values and {@code maxRecords} records, evicting
     * records {@code preferredVictim} accepts before older ones it does not (see the class comment).
     * The preference is asked under the tier's lock, from the thread whose put made room.
     */
    public MapTier(long maxBytes, long maxRecords, Consumer<Id> onEvict, Predicate<Id> preferredVictim) {
        this(maxBytes, maxRecords, (BiConsumer<Id, byte[]>) (key, value) -> onEvict.accept(key), preferredVictim);
    }

    /**
     * As {@link #MapTier(long, long, Consumer, Predicate)}, handing {@code onEvict} each evicted record's
     * value along with its key (the listener owns the array).
     */
    public MapTier(long maxBytes, long maxRecords, BiConsumer<Id, byte[]> onEvict, Predicate<Id> preferredVictim) {
        if (maxBytes <= 0 || maxRecords <= 0) {
            throw new IllegalArgumentException("a tier needs room, got " + maxBytes + " bytes and " + maxRecords + " records");
        }
        this.maxBytes = maxBytes;
        this.maxRecords = maxRecords;
        this.onEvict = onEvict;
        this.preferredVictim = preferredVictim;
    }

    /** An unbounded tier (never evicts by itself). */
    public MapTier(Consumer<Id> onEvict) {
        this(Long.MAX_VALUE, onEvict);
    }

    @Override
    public boolean put(Id key, byte[] value) {
        Map<Id, byte[]> evicted = new LinkedHashMap<>();
        synchronized (this) {
            if (value.length > maxBytes) {
                return false;
            }
            byte[] old = records.remove(key); // re-inserted last: the most recently used
            records.put(key, value.clone());
            bytes += value.length - (old == null ? 0 : old.length);
            while (bytes > maxBytes || records.size() > maxRecords) {
                Id victim = victim(key);
                if (victim == null) {
                    break;
                }
                byte[] gone = records.remove(victim);
                bytes -= gone.length;
                evictions++;
                evicted.put(victim, gone);
            }
        }
        evicted.forEach(onEvict);
        return true;
    }

    /**
     * The first record among the {@link #PREFERENCE_SCAN} least recently used that the preference
     * accepts, else the least recently used; never {@code keep}, the record being put.
     */
    private Id victim(Id keep) {
        Id oldest = null;
        int scanned = 0;
        for (Iterator<Id> it = records.keySet().iterator(); it.hasNext() && scanned < PREFERENCE_SCAN; scanned++) {
            Id candidate = it.next();
            if (candidate.equals(keep)) {
                continue;
            }
            if (preferredVictim.test(candidate)) {
                preferredEvictions++;
                return candidate;
            }
            if (oldest == null) {
                oldest = candidate;
            }
        }
        return oldest;
    }

    /**
     * Whether records of {@code addBytes} bytes in all, {@code addRecords} of them, would fit by
     * evicting only records the victim preference accepts (or none), as {@link #put} looks for them:
     * among the {@link #PREFERENCE_SCAN} least recently used records not accepted so far. A guess
     * made now; the put itself may find otherwise if the preference changes its mind meanwhile.
     */
    public synchronized boolean roomSparing(long addBytes, int addRecords) {
        long needBytes = bytes + addBytes - maxBytes;
        long needRecords = records.size() + (long) addRecords - maxRecords;
        int refused = 0;
        for (Iterator<Map.Entry<Id, byte[]>> it = records.entrySet().iterator();
             (needBytes > 0 || needRecords > 0) && it.hasNext() && refused < PREFERENCE_SCAN; ) {
            Map.Entry<Id, byte[]> e = it.next();
            if (preferredVictim.test(e.getKey())) {
                needBytes -= e.getValue().length;
                needRecords--;
            } else {
                refused++; // stays, and keeps its place in every later scan's window
            }
        }
        return needBytes <= 0 && needRecords <= 0;
    }

    @Override
    public synchronized CompletableFuture<byte[]> get(Id key) {
        byte[] value = records.remove(key);
        if (value != null) {
            records.put(key, value); // now the most recently used
        }
        return CompletableFuture.completedFuture(value == null ? null : value.clone());
    }

    /** The record of {@code key} (a copy), without counting a use: its place in the LRU order stays. */
    @Override
    public synchronized byte[] peek(Id key) {
        byte[] value = records.get(key);
        return value == null ? null : value.clone();
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
        byte[] onEvictValue;
        synchronized (this) {
            byte[] old = records.remove(key);
            if (old == null) {
                return false;
            }
            bytes -= old.length;
            evictions++;
            onEvictValue = old;
        }
        onEvict.accept(key, onEvictValue);
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

    /** Records evicted to make room (or by {@link #evict}). */
    public synchronized long evictions() {
        return evictions;
    }

    /** Evictions that took a record the victim preference accepted. */
    public synchronized long preferredEvictions() {
        return preferredEvictions;
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
