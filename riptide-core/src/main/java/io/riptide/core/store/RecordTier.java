package io.riptide.core.store;

import io.riptide.core.id.Id;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * A bounded tier of records keyed by 160-bit IDs: the disk log with its compact index, or a plain
 * map in tests. The content store keeps object records (keyed by GUID) and body records (keyed by
 * a body's digest) in one tier. Keys leave the tier when it needs room; the tier reports them to
 * the listener it was built with, so the owner can withdraw pointers.
 */
public interface RecordTier extends AutoCloseable {

    /**
     * Accepts {@code value} as the record of {@code key}, replacing an older one. It is servable at
     * once and durable after the next flush. Returns false if it can never fit.
     */
    boolean put(Id key, byte[] value);

    /**
     * Reads the record of {@code key}. Completes with null on a miss; a tag collision, a stale
     * generation or a torn or corrupt record is a miss, never a wrong record. Disk reads run on the
     * tier's own I/O stage, never on the caller's thread.
     */
    CompletableFuture<byte[]> get(Id key);

    /**
     * The record of {@code key} if the tier can hand it over at once without counting a use (a tier
     * on the heap), else null. The default, for tiers that would have to read a disk: null.
     */
    default byte[] peek(Id key) {
        return null;
    }

    /**
     * Whether records of {@code bytes} bytes in all, {@code records} of them, would fit by evicting
     * only records the tier's victim preference accepts. The default, for tiers without one (they
     * evict as they always do): true.
     */
    default boolean roomSparing(long bytes, int records) {
        return true;
    }

    /**
     * The longest value {@link #put} can ever accept; a longer one is refused whatever the tier
     * holds. The default, for tiers with no fixed limit: {@link Integer#MAX_VALUE}. A caller that
     * accepts a put before the tier sees it (a write queued for a disk) checks this first.
     */
    default int maxValueBytes() {
        return Integer.MAX_VALUE;
    }

    /** Whether the in-memory index may hold {@code key}, without touching the disk (false positives possible). */
    boolean mayContain(Id key);

    /** Forgets {@code key}'s record; true if the index held it. */
    boolean remove(Id key);

    /** Records the index holds now. */
    long records();

    /** Writes everything accepted so far and waits until it is on disk. */
    void flush();

    /**
     * Visits every record the tier holds, key and value, in no particular order, and completes when
     * every one was visited. The content store calls it once, when it opens over a tier that may
     * already hold records (after a restart), to rebuild its in-memory reference counts; nothing else
     * should need it. A disk tier reads its log on its own I/O stage. Puts and removes during a scan
     * may or may not be seen. The default, for tiers that cannot list their records, completes
     * exceptionally with {@link UnsupportedOperationException}.
     */
    default CompletableFuture<Void> scan(BiConsumer<Id, byte[]> visitor) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException(
                getClass().getSimpleName() + " cannot list its records"));
    }

    /** Flushes and releases the tier's files and threads. */
    @Override
    void close();
}
