package io.riptide.dolr.simulation;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.Env;
import io.riptide.core.store.ContentStore;
import io.riptide.core.store.MapTier;
import io.riptide.core.store.RecordTier;
import io.riptide.dolr.store.ReplicaStorage;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * A simulated node's disk: the replica store of {@link io.riptide.dolr.store.MemoryStorage} (a
 * {@link MapTier}, LRU with the master-preserving preference), except that its records outlive the
 * node. A node that crashes and is started again on the same disk opens a new {@link ContentStore}
 * over the same records, which rebuilds its counts from them and publishes them once joined, as a
 * node restarted on its {@code --store} directory does.
 *
 * <p>Reads may be slow ({@link #setReadDelay}): each record read then completes that long later in
 * virtual time, on the node's loop, as a disk tier's read completes on its read stage; a replica
 * read is two record reads (its head, then its body). Writes are accepted at once, as a disk tier's
 * write buffer accepts them. With no delay, reads complete at once and a run is event for event as
 * over {@link io.riptide.dolr.store.MemoryStorage}.
 */
public final class SimulatedDisk implements ReplicaStorage {
    private final MapTier records;
    // The store open over the records now, and its eviction hook: a new one at each (re)start.
    private ContentStore.EvictionHook hook = (key, value) -> { };
    private ContentStore store;
    private Predicate<Id> heldNearby = guid -> false;
    private Env env;
    private long readDelayNanos;
    private long reads;
    private long slowReads;

    /** A disk of at most {@code maxBytes} of records and {@code maxReplicas} objects, as {@code MemoryStorage}'s bounds. */
    public SimulatedDisk(long maxBytes, int maxReplicas) {
        if (maxBytes <= 0 || maxReplicas <= 0) {
            throw new IllegalArgumentException("a disk needs room, got " + maxBytes + " bytes and " + maxReplicas + " objects");
        }
        this.records = new MapTier(maxBytes, 2L * maxReplicas, (key, value) -> hook.evicted(key, value), this::nonMaster);
    }

    private boolean nonMaster(Id key) {
        ContentStore s = store;
        return s != null && s.everyObjectOf(key, heldNearby);
    }

    @Override
    public ContentStore open(Env nodeEnv, Consumer<Id> evicted, Predicate<Id> nearby) {
        return openHandingOver(nodeEnv, (guid, replica) -> evicted.accept(guid), nearby);
    }

    /** Opens a store over this disk's records for the node on {@code nodeEnv}: the one started now, after any before it. */
    @Override
    public ContentStore openHandingOver(Env nodeEnv, BiConsumer<Id, byte[]> evicted, Predicate<Id> nearby) {
        this.env = nodeEnv;
        this.heldNearby = nearby;
        this.store = null;
        this.store = ContentStore.openHandingOver(h -> {
            hook = h;
            return new Reads();
        }, evicted, ContentStore.ReplacedBodies.DROP);
        return store;
    }

    /** Makes every record read take {@code delay} from now on (zero: at once). */
    public void setReadDelay(Duration delay) {
        if (delay.isNegative()) {
            throw new IllegalArgumentException("negative read delay " + delay);
        }
        this.readDelayNanos = delay.toNanos();
    }

    /** The delay each record read takes now. */
    public Duration readDelay() {
        return Duration.ofNanos(readDelayNanos);
    }

    /** Record reads so far, and how many of them were slow. */
    public long reads() {
        return reads;
    }

    /** Record reads that waited {@link #readDelay}. */
    public long slowReads() {
        return slowReads;
    }

    /** Objects on the disk now (whether or not a node is running over it). */
    public int objects() {
        return store == null ? 0 : store.objects();
    }

    /** The records, delaying reads while the disk is slow; everything else as the tier does it. */
    private final class Reads implements RecordTier {
        @Override
        public boolean put(Id key, byte[] value) {
            return records.put(key, value);
        }

        @Override
        public CompletableFuture<byte[]> get(Id key) {
            reads++;
            CompletableFuture<byte[]> read = records.get(key);
            Env reader = env;
            if (readDelayNanos == 0 || reader == null) {
                return read;
            }
            slowReads++;
            CompletableFuture<byte[]> later = new CompletableFuture<>();
            // A node that crashes meanwhile never sees the answer, as a process killed mid-read.
            reader.schedule(Duration.ofNanos(readDelayNanos), () -> later.complete(read.join()));
            return later;
        }

        @Override
        public byte[] peek(Id key) {
            return records.peek(key);
        }

        @Override
        public boolean roomSparing(long bytes, int count) {
            return records.roomSparing(bytes, count);
        }

        @Override
        public boolean mayContain(Id key) {
            return records.mayContain(key);
        }

        @Override
        public boolean remove(Id key) {
            return records.remove(key);
        }

        @Override
        public long records() {
            return records.records();
        }

        @Override
        public void flush() {
        }

        @Override
        public CompletableFuture<Void> scan(BiConsumer<Id, byte[]> visitor) {
            return records.scan(visitor);
        }

        @Override
        public void close() {
        }
    }
}
