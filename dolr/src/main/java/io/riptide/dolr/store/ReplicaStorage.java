package io.riptide.dolr.store;

import io.riptide.core.id.Id;
import io.riptide.core.object.KeyRecords;
import io.riptide.core.object.VersionFloor;
import io.riptide.core.runtime.Env;
import io.riptide.core.store.ContentStore;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Where an overlay node keeps its replicas: the {@link ContentStore} it opens over a tier in memory
 * ({@link MemoryStorage}, the simulator's and the default) or over a disk tier ({@link DiskStorage},
 * which also keeps the node's version floor and the key revocations it learned).
 */
public interface ReplicaStorage {

    /**
     * The node's store. GUIDs that leave it to make room go to {@code evicted}, always on the node's
     * loop ({@code env}); {@code heldNearby} says whether a local-area neighbour also holds a copy,
     * for tiers that prefer evicting such copies.
     */
    ContentStore open(Env env, Consumer<Id> evicted, Predicate<Id> heldNearby);

    /**
     * As {@link #open}, handing {@code evicted} each evicted object's replica with its GUID, byte
     * for byte, where the store can (so the node can pass the neighbourhood's last copy on); null
     * where it cannot. The default, for stores that cannot (on disk): always null.
     */
    default ContentStore openHandingOver(Env env, BiConsumer<Id, byte[]> evicted, Predicate<Id> heldNearby) {
        return open(env, guid -> evicted.accept(guid, null), heldNearby);
    }

    /**
     * The version floor kept with this store across restarts, if it keeps one (a disk store does);
     * empty if the node's floor lives only in memory.
     */
    default Optional<VersionFloor> versionFloor() {
        return Optional.empty();
    }

    /**
     * The key records (revocations) kept with this store across restarts; none if the store keeps
     * none (in memory).
     */
    default KeyRecords keyRecords() {
        return KeyRecords.EMPTY;
    }

    /** Keeps {@code records}, everything the node knows now, for {@link #keyRecords()} after a restart; a store in memory forgets them. */
    default void keepKeyRecords(KeyRecords records) {
    }

    /** An in-memory store of at most {@code maxBytes} of records and {@code maxReplicas} objects. */
    static ReplicaStorage inMemory(long maxBytes, int maxReplicas) {
        return new MemoryStorage(maxBytes, maxReplicas);
    }
}
