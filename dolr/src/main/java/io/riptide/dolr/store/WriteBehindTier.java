package io.riptide.dolr.store;

import io.riptide.core.id.Id;
import io.riptide.core.store.RecordTier;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * A disk-backed tier as the node's content store sees it: a put or remove is accepted at once into
 * a map of pending records and reaches the backing tier (memory over disk) later, through the
 * node's {@link DiskWrites} on its disk stage. The store's calls on the loop then never wait on the
 * disk (a LOG tier's full write buffers, a wrap's sweep, a tombstone's append).
 *
 * <p><b>Reads see the node's own writes.</b> A key with a write still queued is answered from the
 * pending map: the queued value, or a miss for a queued remove. When the write has run, its entry
 * goes (unless a later write of the key replaced it) and reads go to the backing tier, which holds
 * it. The map holds only queued writes, so it is bounded by the queue's {@link DiskWrites.Limits}.
 *
 * <p><b>Refusals.</b> A put longer than the backing tier could ever take is refused at once, as
 * before (a disk node's size limit); a put that finds the queue full is refused and counted
 * ({@link DiskWrites.Stats#refused()}): the content store's put returns false and the replica is not
 * stored. A put that the backing tier refuses or fails when it finally runs (an I/O error, a closed
 * tier) is reported to the content store as an eviction of the key, so the store forgets the object
 * (and the node withdraws its pointers) rather than name a record that is not there.
 *
 * <p>Durability is as before, one step later: a record is durable once its write has run and the
 * disk tier's next flush has completed; a crash loses what was queued, as it loses a write buffer.
 */
final class WriteBehindTier implements RecordTier {
    /** Bytes counted against the queue's bound for a remove (and on top of a put's value): a key and a header. */
    static final int RECORD_OVERHEAD = 64;

    private final RecordTier backing;
    private final DiskWrites writes;
    private final Consumer<Id> lost;
    private final ConcurrentHashMap<Id, Pending> pending = new ConcurrentHashMap<>();

    /** A queued write of one key: its value, or null for a remove. Compared by identity. */
    private static final class Pending {
        final byte[] value;

        Pending(byte[] value) {
            this.value = value;
        }
    }

    /**
     * A tier over {@code backing} whose writes go through {@code writes}; a put that cannot land is
     * reported to {@code lost} (the content store's eviction hook).
     */
    WriteBehindTier(RecordTier backing, DiskWrites writes, Consumer<Id> lost) {
        this.backing = backing;
        this.writes = writes;
        this.lost = lost;
    }

    /** The tier the writes land in. */
    RecordTier backing() {
        return backing;
    }

    /** Writes still queued for the backing tier (keys, the latest write of each). */
    int pendingKeys() {
        return pending.size();
    }

    @Override
    public boolean put(Id key, byte[] value) {
        if (value.length > backing.maxValueBytes()) {
            return false;
        }
        Pending p = new Pending(value);
        return writes.offer(RECORD_OVERHEAD + (long) value.length, () -> pending.put(key, p), () -> {
            boolean landed = false;
            try {
                landed = backing.put(key, value);
            } finally {
                pending.remove(key, p);
                if (!landed) {
                    lost.accept(key);
                }
            }
        });
    }

    @Override
    public boolean remove(Id key) {
        Pending before = pending.get(key);
        boolean had = before != null ? before.value != null : backing.mayContain(key);
        Pending p = new Pending(null);
        writes.append(RECORD_OVERHEAD, () -> pending.put(key, p), () -> {
            try {
                backing.remove(key);
            } finally {
                pending.remove(key, p);
            }
        });
        return had;
    }

    @Override
    public CompletableFuture<byte[]> get(Id key) {
        Pending p = pending.get(key);
        return p != null ? CompletableFuture.completedFuture(p.value) : backing.get(key);
    }

    @Override
    public byte[] peek(Id key) {
        Pending p = pending.get(key);
        return p != null ? p.value : backing.peek(key);
    }

    @Override
    public boolean roomSparing(long bytes, int records) {
        return backing.roomSparing(bytes, records);
    }

    @Override
    public int maxValueBytes() {
        return backing.maxValueBytes();
    }

    @Override
    public boolean mayContain(Id key) {
        Pending p = pending.get(key);
        return p != null ? p.value != null : backing.mayContain(key);
    }

    /** Records the backing tier holds (writes still queued not counted). */
    @Override
    public long records() {
        return backing.records();
    }

    /** The backing tier's records: called once, at open, before any write is queued. */
    @Override
    public CompletableFuture<Void> scan(BiConsumer<Id, byte[]> visitor) {
        return backing.scan(visitor);
    }

    /** Runs the queued writes on the calling thread, then flushes the backing tier: blocks, so not on the loop. */
    @Override
    public void flush() {
        writes.drain();
        backing.flush();
    }

    /** Runs what is queued (see {@link DiskWrites#close}), then closes the backing tier. */
    @Override
    public void close() {
        try {
            writes.close();
        } finally {
            backing.close();
        }
    }
}
