package io.riptide.dolr.store;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.Env;
import io.riptide.core.store.ContentStore;
import io.riptide.core.store.MapTier;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Replicas on the Java heap: a {@link MapTier} (LRU, deterministic, reads complete at once, so a
 * simulation stays identical per seed) with the cooperative-caching paper's master-preserving rule as
 * its victim preference: among the oldest records, one whose objects a local-area neighbour also
 * holds (a "non-master" copy: losing it costs a nearby fetch) goes before the neighbourhood's last
 * copy (its "master": losing it sends the next read out of the stub).
 *
 * <p>Bounded in bytes of records (bodies, and heads of a few dozen bytes) and in objects: a replica is
 * two records (its head and its body), so the tier holds at most twice {@code maxReplicas} records;
 * a shared body lets more objects in.
 *
 * @param maxBytes    bytes of records held at most
 * @param maxReplicas objects held at most (as records: see above)
 */
public record MemoryStorage(long maxBytes, int maxReplicas) implements ReplicaStorage {
    public MemoryStorage {
        if (maxBytes <= 0 || maxReplicas <= 0) {
            throw new IllegalArgumentException("a replica store needs room, got " + maxBytes + " bytes and " + maxReplicas + " objects");
        }
    }

    @Override
    public ContentStore open(Env env, Consumer<Id> evicted, Predicate<Id> heldNearby) {
        return openHandingOver(env, (guid, replica) -> evicted.accept(guid), heldNearby);
    }

    /** The tier hands its evicted records' values to the store, which hands each evicted object's replica on. */
    @Override
    public ContentStore openHandingOver(Env env, BiConsumer<Id, byte[]> evicted, Predicate<Id> heldNearby) {
        // The tier asks the store which objects a record serves; the store exists once open returns.
        AtomicReference<ContentStore> store = new AtomicReference<>();
        Predicate<Id> nonMaster = key -> {
            ContentStore s = store.get();
            return s != null && s.everyObjectOf(key, heldNearby);
        };
        // MapTier reports evictions during the put that caused them, on the caller's thread: the loop.
        store.set(ContentStore.openHandingOver(hook -> new MapTier(maxBytes, 2L * maxReplicas, hook::evicted, nonMaster), evicted,
                ContentStore.ReplacedBodies.DROP));
        return store.get();
    }
}
