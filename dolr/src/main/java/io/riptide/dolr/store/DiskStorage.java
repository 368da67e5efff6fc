package io.riptide.dolr.store;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.Env;
import io.riptide.core.store.ContentStore;
import io.riptide.core.store.MemoryTier;
import io.riptide.core.store.TieredStore;
import io.riptide.core.store.disk.DiskTier;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Replicas on disk: a W-TinyLFU {@link MemoryTier} for hot objects in front of a HashCache disk tier
 * ({@link DiskTier}, LOG or SETMEM), so a node offers cheap disk and keeps its cache across restarts.
 *
 * <p>The store is opened by {@link #open(StoreSettings)}, off the event loop, since opening rebuilds
 * the reference counts from the disk tier (checkpoint plus replay, then a scan on the tier's read
 * stage) and blocks; the node then takes it with {@link #open(Env, Consumer, Predicate)}. Reads
 * complete on the disk tier's read stage and evictions are reported from its write stage; both hop to
 * the node's loop. The master-preserving preference is not applied: neither W-TinyLFU nor the disk
 * log can choose victims by it (see docs/architecture.md).
 */
public final class DiskStorage implements ReplicaStorage {
    private final ContentStore store;
    // Set once the node takes the store; evictions before that (none are published yet) are dropped.
    private volatile Consumer<Id> sink = guid -> { };

    private DiskStorage(StoreSettings settings) {
        try {
            Files.createDirectories(settings.dir());
            this.store = ContentStore.open(hook -> new TieredStore(new MemoryTier(settings.memoryBytes(), key -> { }),
                    backingHook -> DiskTier.open(settings.diskTier(), backingHook), hook), guid -> sink.accept(guid));
        } catch (IOException | UncheckedIOException e) {
            throw new StoreUnavailableException(settings.dir().toString(), e);
        }
    }

    /**
     * Opens (or creates) the store in {@code settings.dir()}, recovering what it held. Blocks: not on
     * an event loop. Throws {@link StoreUnavailableException} if its files cannot be created or read.
     */
    public static DiskStorage open(StoreSettings settings) {
        return new DiskStorage(settings);
    }

    /** The opened store, before a node takes it (tests, inspection). */
    public ContentStore store() {
        return store;
    }

    @Override
    public ContentStore open(Env env, Consumer<Id> evicted, Predicate<Id> heldNearby) {
        sink = guid -> env.execute(() -> evicted.accept(guid));
        return store;
    }
}
