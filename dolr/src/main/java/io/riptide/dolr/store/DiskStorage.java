package io.riptide.dolr.store;

import io.riptide.core.id.Id;
import io.riptide.core.object.KeyRecords;
import io.riptide.core.object.VersionFloor;
import io.riptide.core.runtime.Env;
import io.riptide.core.store.ContentStore;
import io.riptide.core.store.MemoryTier;
import io.riptide.core.store.RecordTier;
import io.riptide.core.store.TieredStore;
import io.riptide.core.store.disk.DiskStats;
import io.riptide.core.store.disk.DiskTier;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Replicas on disk: a W-TinyLFU {@link MemoryTier} for hot objects in front of a HashCache disk tier
 * ({@link DiskTier}, LOG or SETMEM), so a node offers cheap disk and keeps its cache across restarts;
 * and beside them the node's {@link VersionFloor} ({@link VersionFloorFile}) and the key revocations it
 * learned ({@link KeyRecordsFile}), kept across restarts too.
 *
 * <p>The store is opened by {@link #open(StoreSettings)}, off the event loop, since opening rebuilds
 * the reference counts from the disk tier (checkpoint plus replay, then a scan on the tier's read
 * stage) and reads the floor file, and blocks; the node then takes it with
 * {@link #open(Env, Consumer, Predicate)}. From then on every write (record puts and removes, floor
 * raises) queues in the node's {@link DiskWrites} and runs on its {@value StoreSettings#DISK_STAGE}
 * stage, in order; reads of a key whose write is queued are answered from memory
 * ({@link WriteBehindTier}). Reads complete on the disk tier's read stage and evictions are reported
 * from the disk threads; both hop to the node's loop. The master-preserving preference is not
 * applied: neither W-TinyLFU nor the disk log can choose victims by it (see docs/architecture.md).
 *
 * <p>{@link #close} runs what is still queued and closes the files: call it once the node has
 * stopped, off its loop (it waits on the disk).
 */
public final class DiskStorage implements ReplicaStorage, AutoCloseable {
    private final DiskWrites writes;
    private final ContentStore store;
    private final WriteBehindTier tier;
    private final VersionFloorFile floorFile;
    private final KeyRecordsFile keyFile;
    // Set once the node takes the store; evictions before that (none are published yet) are dropped.
    private volatile Consumer<Id> sink = guid -> { };

    private DiskStorage(Path dir, Function<Consumer<Id>, RecordTier> backing, DiskWrites.Limits limits, int floorCapacity) {
        WriteBehindTier[] made = new WriteBehindTier[1];
        ContentStore opened = null;
        try {
            Files.createDirectories(dir);
            this.writes = new DiskWrites(StoreSettings.DISK_STAGE, limits);
            opened = ContentStore.open(hook -> made[0] = new WriteBehindTier(backing.apply(hook), writes, hook),
                    guid -> sink.accept(guid));
            this.store = opened;
            this.tier = made[0];
            this.floorFile = VersionFloorFile.open(dir, floorCapacity, writes);
            this.keyFile = KeyRecordsFile.open(dir, writes);
        } catch (IOException | UncheckedIOException e) {
            if (opened != null) {
                opened.close();
            }
            throw new StoreUnavailableException(dir.toString(), e);
        }
    }

    /**
     * Opens (or creates) the store in {@code settings.dir()}, recovering what it held and the
     * version floor. Blocks: not on an event loop. Throws {@link StoreUnavailableException} if its
     * files cannot be created or read.
     */
    public static DiskStorage open(StoreSettings settings) {
        return new DiskStorage(settings.dir(), hook -> new TieredStore(new MemoryTier(settings.memoryBytes(), key -> { }),
                backingHook -> DiskTier.open(settings.diskTier(), backingHook), hook), DiskWrites.Limits.DEFAULT,
                VersionFloor.DEFAULT_CAPACITY);
    }

    /**
     * A store whose records live in the tier {@code backing} builds (given the eviction hook it must
     * report to), with its writes on the disk stage within {@code limits} and its version floor in
     * {@code dir}, exactly as a disk store's: for a disk the settings do not describe (tests inject
     * a slow or failing one). Blocks while it opens.
     */
    public static DiskStorage over(Path dir, Function<Consumer<Id>, RecordTier> backing, DiskWrites.Limits limits) {
        return new DiskStorage(dir, backing, limits, VersionFloor.DEFAULT_CAPACITY);
    }

    /** The opened store, before a node takes it (tests, inspection). */
    public ContentStore store() {
        return store;
    }

    @Override
    public ContentStore open(Env env, Consumer<Id> evicted, Predicate<Id> heldNearby) {
        sink = guid -> env.execute(() -> evicted.accept(guid));
        writes.attach(env);
        return store;
    }

    /** The floor kept in the store's directory. */
    @Override
    public Optional<VersionFloor> versionFloor() {
        return Optional.of(floorFile.floor());
    }

    /** The key records kept in the store's directory ({@link KeyRecordsFile}). */
    @Override
    public KeyRecords keyRecords() {
        return keyFile.restored();
    }

    @Override
    public void keepKeyRecords(KeyRecords records) {
        keyFile.keep(records);
    }

    /** What the write queue did. */
    public DiskWrites.Stats writeStats() {
        return writes.stats();
    }

    /** Keys whose latest write is still queued (the reads answered from memory). */
    public int pendingKeys() {
        return tier.pendingKeys();
    }

    /** The disk tier's counters, if the records are on a {@link DiskTier} (not so for an injected tier). */
    public Optional<DiskStats.Snapshot> diskStats() {
        RecordTier backing = tier.backing();
        if (backing instanceof TieredStore tiered) {
            backing = tiered.backing();
        }
        return backing instanceof DiskTier disk ? Optional.of(disk.stats()) : Optional.empty();
    }

    /** Runs the writes still queued, closes the floor file and the store (a LOG tier's checkpoint). Blocks. */
    @Override
    public void close() {
        try {
            writes.close();
            floorFile.close();
        } finally {
            store.close();
        }
    }
}
