package io.riptide.core.store;

import io.riptide.core.id.Id;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A memory tier in front of a backing tier (the disk log), as one {@link RecordTier}. The backing
 * tier holds every record and decides what the store holds; the memory tier holds copies of the hot
 * ones.
 *
 * <ul>
 *   <li>{@link #put} writes through: the backing tier first (if it refuses, so does the store), then
 *       the memory tier, whose W-TinyLFU policy decides whether the copy stays.</li>
 *   <li>{@link #get} reads memory first; on a miss it reads the backing tier and offers what it read to
 *       the memory tier (the frequency sketch counts the read, so a record read often gets in).</li>
 *   <li>The memory tier's evictions are not evictions of the store (the record is still in the backing
 *       tier) and are not reported. The backing tier's evictions remove the memory copy too and are
 *       reported to this store's listener.</li>
 * </ul>
 *
 * <p>Writes are not atomic across the two tiers: callers serialise puts and removes of one key
 * ({@link ContentStore} does, under its lock); reads may run at any time.
 *
 * <p>A backing read that completes after a put or remove of the same key (or the backing tier's
 * eviction of it) must not bring the older value back into memory: each key hashes to one of
 * {@link #STRIPES} write counters, and a read's result is admitted only if its key's counter did not
 * move while it was in flight (a write to another key of the stripe just costs an admission).
 */
public final class TieredStore implements RecordTier {
    /** Write counters guarding admissions of backing reads. */
    static final int STRIPES = 1024;

    private final RecordTier memory;
    private final RecordTier backing;
    private final Consumer<Id> onEvict;
    private final long[] writes = new long[STRIPES];

    /**
     * A store over {@code memory} (built with a listener that ignores its evictions) and the backing
     * tier {@code backingFactory} builds with the eviction hook it is given; the backing tier's
     * evictions go on to {@code onEvict}.
     */
    public TieredStore(RecordTier memory, Function<Consumer<Id>, RecordTier> backingFactory, Consumer<Id> onEvict) {
        this.memory = memory;
        this.onEvict = onEvict;
        this.backing = backingFactory.apply(this::onBackingEviction);
    }

    private static int stripe(Id key) {
        return key.hashCode() & (STRIPES - 1);
    }

    private synchronized void bump(Id key) {
        writes[stripe(key)]++;
    }

    private synchronized long stamp(Id key) {
        return writes[stripe(key)];
    }

    private void onBackingEviction(Id key) {
        bump(key);
        memory.remove(key);
        onEvict.accept(key);
    }

    @Override
    public boolean put(Id key, byte[] value) {
        bump(key);
        if (!backing.put(key, value)) {
            return false;
        }
        if (!memory.put(key, value)) {
            // The memory tier would not take the new value (too large, or closed): its old copy must
            // not go on answering reads for a key whose record has changed.
            memory.remove(key);
        }
        return true;
    }

    @Override
    public CompletableFuture<byte[]> get(Id key) {
        return memory.get(key).thenCompose(hot -> {
            if (hot != null) {
                return CompletableFuture.completedFuture(hot);
            }
            long stamp = stamp(key);
            return backing.get(key).thenApply(cold -> {
                if (cold != null) {
                    admit(key, cold, stamp);
                }
                return cold;
            });
        });
    }

    private void admit(Id key, byte[] value, long stamp) {
        synchronized (this) {
            if (writes[stripe(key)] != stamp) {
                return;
            }
            // Still under the lock: a put or remove of this key waits in bump() until the copy is in,
            // and then overwrites or removes it.
            memory.put(key, value);
        }
    }

    /** The backing tier's limit: it holds every record. */
    @Override
    public int maxValueBytes() {
        return backing.maxValueBytes();
    }

    @Override
    public boolean mayContain(Id key) {
        return memory.mayContain(key) || backing.mayContain(key);
    }

    @Override
    public boolean remove(Id key) {
        bump(key);
        memory.remove(key);
        return backing.remove(key);
    }

    /** Records the backing tier holds (the memory tier's are copies of some of them). */
    @Override
    public long records() {
        return backing.records();
    }

    /** The memory tier in front. */
    public RecordTier memory() {
        return memory;
    }

    /** The backing tier. */
    public RecordTier backing() {
        return backing;
    }

    /** Lists the backing tier's records (every record of the store). */
    @Override
    public CompletableFuture<Void> scan(BiConsumer<Id, byte[]> visitor) {
        return backing.scan(visitor);
    }

    @Override
    public void flush() {
        backing.flush();
    }

    @Override
    public void close() {
        try {
            backing.close();
        } finally {
            memory.close();
        }
    }
}
