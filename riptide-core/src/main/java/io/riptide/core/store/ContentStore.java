package io.riptide.core.store;

import io.riptide.core.id.Id;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A node's replicas, each payload stored once (the duplicate storage avoidance of Mogul, Chan and
 * Kelly's Duplicate Transfer Detection), in one {@link RecordTier}:
 *
 * <ul>
 *   <li>an <b>object record</b> per GUID: the replica's {@link ReplicaHead} (its bytes but the body,
 *       and the body's SHA-256 and length), small;</li>
 *   <li>a <b>body record</b> per distinct body, keyed by {@link ReplicaHead#bodyKey(byte[])} of its
 *       SHA-256: {@code u8 type (2) | 32 bytes SHA-256 | body}.</li>
 * </ul>
 *
 * <p>Several URLs with one body, or one URL whose versions rotate among bodies, keep one copy of each
 * body, and the tier's byte bound (its replacement) counts each payload once. The digest is always
 * computed here from the bytes being stored, never taken from a certificate or a peer: a body is only
 * ever indexed under its own SHA-256.
 *
 * <p><b>Reference counts.</b> The store keeps, on the heap, which GUIDs use each body (the count is
 * the set's size) and which body each GUID uses: a few dozen bytes per object. {@link #remove} drops a
 * body no object uses any more. A put of a new version leaves the old version's body in the tier,
 * unreferenced, until the tier's replacement drops it: DTD's rotation case, where the URL's next
 * version may be that body again and {@link #holdsBody} then spares the transfer.
 *
 * <p><b>Evictions.</b> The tier evicts records on its own; the store keeps itself consistent: an
 * evicted object record decrements its body's count (an unreferenced body stays, as above); an
 * evicted body record takes every object using it with it (their records are removed). Every GUID
 * that leaves the store other than by {@link #remove} is reported to the owner's listener, so it can
 * withdraw pointers. The tier's reports are queued and applied at the end of the store's current
 * call, or at once when they arrive between calls; a report is applied conservatively (the record is
 * removed from the tier even if it was put again since), so no object ever names a missing body.
 * A tier that hands over each evicted record's value ({@link EvictionHook#evicted}, a tier on the
 * heap) lets a store opened with {@link #openHandingOver} pass each evicted object's whole replica to
 * its owner, byte for byte as {@link #get} would have returned it: the evicted record's value and the
 * other record of the pair, evicted in the same call or still in the tier ({@link RecordTier#peek}).
 *
 * <p><b>Restart.</b> {@link #open} scans the tier ({@link RecordTier#scan}) and rebuilds the maps
 * from the records: each object record names its body's digest, so the counts are the number of
 * object records naming each body. An object record whose body record is missing (a crash between
 * the two writes, or an eviction not yet applied) is removed; a body record no object names is kept
 * as an unreferenced body; a record of neither type is removed.
 *
 * <p><b>Threads.</b> Thread-safe. {@link #put} and {@link #remove} run on the caller's thread and do
 * not wait on disk I/O (a tier's put is accepted in memory); {@link #get} returns the tier's future,
 * completed on the tier's I/O stage, so protocol code on an event loop hands the result back to its
 * loop (e.g. {@code Env.execute}) rather than blocking. The listener is called on whichever thread
 * applied the eviction, outside the store's lock. {@link #open} blocks for the scan: call it at
 * start-up, not on an event loop.
 */
public final class ContentStore implements AutoCloseable {
    /** First byte of a body record. */
    static final int BODY_TYPE = 2;

    /** What becomes of a body no object uses any more after a put of a new version. */
    public enum ReplacedBodies {
        /** Left in the tier, unreferenced, until its replacement drops it: DTD's rotation case (a disk tier). */
        KEEP,
        /** Dropped at once, so it does not take room from live objects (a small memory tier). */
        DROP
    }

    /**
     * How a tier reports the records it evicts: by key, or (a tier that has the bytes at hand) by key
     * and value, so the store can hand the evicted object's replica on.
     */
    public interface EvictionHook extends Consumer<Id> {
        /** {@code key}'s record left the tier; {@code value} is what it held, or null if unknown. */
        void evicted(Id key, byte[] value);

        @Override
        default void accept(Id key) {
            evicted(key, null);
        }
    }

    private final RecordTier tier;
    private final BiConsumer<Id, byte[]> onEvict;
    private final ReplacedBodies replaced;
    private final ReentrantLock lock = new ReentrantLock();
    private final Queue<Id> tierEvictions = new ConcurrentLinkedQueue<>();
    // Values the tier handed over with evictions not yet applied.
    private final Map<Id, byte[]> victimValues = new ConcurrentHashMap<>();
    // guid -> key of the body it uses
    private final Map<Id, Id> objects = new HashMap<>();
    // body key -> the body's digest, length and users
    private final Map<Id, Body> bodies = new HashMap<>();
    private long payloadBytes;
    private long bodyWrites;
    private long bodiesShared;

    private static final class Body {
        final byte[] digest;
        final int length;
        final Set<Id> users = new LinkedHashSet<>();

        Body(byte[] digest, int length) {
            this.digest = digest;
            this.length = length;
        }
    }

    private ContentStore(Function<EvictionHook, RecordTier> tierFactory, BiConsumer<Id, byte[]> onEvict, ReplacedBodies replaced) {
        this.onEvict = onEvict;
        this.replaced = replaced;
        this.tier = tierFactory.apply(this::onTierEviction);
    }

    /**
     * Opens a store over the tier {@code tierFactory} builds with the eviction hook it is given, and
     * rebuilds the reference counts from whatever the tier already holds (see the class comment).
     * GUIDs that leave the store other than by {@link #remove} go to {@code onEvict}. Blocks for the scan.
     */
    public static ContentStore open(Function<Consumer<Id>, RecordTier> tierFactory, Consumer<Id> onEvict) {
        return open(tierFactory, onEvict, ReplacedBodies.KEEP);
    }

    /**
     * As {@link #open(Function, Consumer)}, choosing what becomes of a body a new version leaves
     * unused: kept for the rotation case, or dropped at once where room is scarce.
     */
    public static ContentStore open(Function<Consumer<Id>, RecordTier> tierFactory, Consumer<Id> onEvict,
                                    ReplacedBodies replaced) {
        return openHandingOver(tierFactory::apply, (guid, replica) -> onEvict.accept(guid), replaced);
    }

    /**
     * As {@link #open(Function, Consumer, ReplacedBodies)}, handing {@code onEvict} each evicted
     * object's replica along with its GUID, byte for byte as {@link #get} would have returned it,
     * when the tier handed over the evicted records' values ({@link EvictionHook#evicted}); null
     * when it did not (a disk tier) or the replica could not be put together.
     */
    public static ContentStore openHandingOver(Function<EvictionHook, RecordTier> tierFactory, BiConsumer<Id, byte[]> onEvict,
                                               ReplacedBodies replaced) {
        ContentStore store = new ContentStore(tierFactory, onEvict, replaced);
        store.rebuild();
        return store;
    }

    private void rebuild() {
        Map<Id, ReplicaHead> heads = new HashMap<>();
        Map<Id, Body> found = new HashMap<>();
        List<Id> junk = new ArrayList<>();
        try {
            tier.scan((key, value) -> {
                ReplicaHead head = ReplicaHead.fromBytes(value);
                Body body = head == null ? bodyOf(key, value) : null;
                synchronized (heads) {
                    if (head != null) {
                        heads.put(key, head);
                    } else if (body != null) {
                        found.put(key, body);
                    } else {
                        junk.add(key);
                    }
                }
            }).join();
        } catch (CompletionException e) {
            throw new IllegalStateException("cannot rebuild the content store: its tier could not be scanned", e.getCause());
        }
        lock.lock();
        try {
            junk.forEach(tier::remove);
            bodies.putAll(found);
            found.values().forEach(b -> payloadBytes += b.length);
            heads.forEach((guid, head) -> {
                Body body = bodies.get(head.bodyKey());
                if (body == null || body.length != head.bodyLength()) {
                    tier.remove(guid);
                } else {
                    objects.put(guid, head.bodyKey());
                    body.users.add(guid);
                }
            });
        } finally {
            unlockAndApply(new LinkedHashMap<>());
        }
    }

    /** The body record {@code value} under {@code key}, or null if it is not a well-formed one. */
    private static Body bodyOf(Id key, byte[] value) {
        if (value == null || value.length < 1 + ReplicaHead.DIGEST_BYTES || value[0] != BODY_TYPE) {
            return null;
        }
        byte[] digest = Arrays.copyOfRange(value, 1, 1 + ReplicaHead.DIGEST_BYTES);
        return ReplicaHead.bodyKey(digest).equals(key) ? new Body(digest, value.length - 1 - ReplicaHead.DIGEST_BYTES) : null;
    }

    private static byte[] bodyRecord(byte[] digest, ByteBuffer body) {
        ByteBuffer out = ByteBuffer.allocate(1 + digest.length + body.remaining());
        out.put((byte) BODY_TYPE).put(digest).put(body.duplicate());
        return out.array();
    }

    // ---- writes ---------------------------------------------------------------------------------

    /**
     * Stores {@code replica} as the replica of {@code guid}, replacing the one held. The body's
     * digest is computed here. Returns whether the replica is held after the call: false if it could
     * never fit, or the tier refused it at once (W-TinyLFU may); then a replica held before stays if
     * the tier still has it, and is reported evicted if not.
     */
    public boolean put(Id guid, byte[] replica) {
        ReplicaHead.Split split = ReplicaHead.split(replica);
        return store(guid, split.head(), split.body());
    }

    /**
     * Stores the replica of {@code guid} whose head a peer sent, with the body this store holds
     * under the head's digest (a digest-first transfer that skipped the body). The body was
     * digested here when it was stored, so the replica's body has the digest its head names. Returns
     * false, storing nothing, if no body with that digest is held (fetch it, then
     * {@link #putTransferred}).
     */
    public boolean putHead(Id guid, ReplicaHead head) {
        return store(guid, head, null);
    }

    /**
     * Stores the replica of {@code guid} from a head and a body a peer sent separately. The body's
     * SHA-256 is computed here; if it is not the one the head announces, nothing is stored or
     * indexed and the result is false.
     */
    public boolean putTransferred(Id guid, ReplicaHead head, byte[] body) {
        ByteBuffer view = ByteBuffer.wrap(body).asReadOnlyBuffer();
        if (body.length != head.bodyLength() || !Arrays.equals(ReplicaHead.sha256(view), head.digest())) {
            return false;
        }
        return store(guid, head, view);
    }

    private boolean store(Id guid, ReplicaHead head, ByteBuffer body) {
        Id bodyKey = head.bodyKey();
        Map<Id, byte[]> evicted = new LinkedHashMap<>();
        boolean held;
        boolean heldBefore;
        lock.lock();
        try {
            heldBefore = objects.containsKey(guid);
            boolean stored = storeLocked(guid, head, bodyKey, body);
            applyEvictions(evicted); // the put may have made the tier evict, the new records included
            held = stored && bodyKey.equals(objects.get(guid));
        } finally {
            unlockAndApply(evicted);
        }
        if (!held && !heldBefore) {
            evicted.remove(guid); // never held: nothing was published for it
        }
        evicted.forEach(onEvict);
        return held;
    }

    private boolean storeLocked(Id guid, ReplicaHead head, Id bodyKey, ByteBuffer body) {
        Body b = bodies.get(bodyKey);
        if (b != null && b.length != head.bodyLength()) {
            return false; // a head whose length contradicts the held body's is not about that body
        }
        boolean newBody = b == null;
        if (newBody) {
            if (body == null) {
                return false;
            }
            byte[] digest = head.digest();
            if (!tier.put(bodyKey, bodyRecord(digest, body))) {
                return false;
            }
            bodyWrites++;
            b = new Body(digest, body.remaining());
            bodies.put(bodyKey, b);
            payloadBytes += b.length;
        } else {
            bodiesShared++;
        }
        if (!tier.put(guid, head.toBytes())) {
            if (newBody && b.users.isEmpty()) {
                dropBody(bodyKey);
            }
            return false;
        }
        Id oldKey = objects.put(guid, bodyKey);
        if (oldKey != null && !oldKey.equals(bodyKey)) {
            Body old = bodies.get(oldKey);
            if (old != null) {
                old.users.remove(guid); // an unreferenced old body stays (see "Reference counts") unless DROP
                if (old.users.isEmpty() && replaced == ReplacedBodies.DROP) {
                    dropBody(oldKey);
                }
            }
        }
        b.users.add(guid);
        return true;
    }

    /**
     * Drops the replica of {@code guid}, and its body if no other object uses it. Returns whether it
     * was here. Not reported to the listener (the caller knows).
     */
    public boolean remove(Id guid) {
        Map<Id, byte[]> evicted = new LinkedHashMap<>();
        boolean was;
        lock.lock();
        try {
            Id bodyKey = objects.remove(guid);
            was = bodyKey != null;
            if (was) {
                tier.remove(guid);
                Body b = bodies.get(bodyKey);
                if (b != null) {
                    b.users.remove(guid);
                    if (b.users.isEmpty()) {
                        dropBody(bodyKey);
                    }
                }
            }
        } finally {
            unlockAndApply(evicted);
        }
        evicted.forEach(onEvict);
        return was;
    }

    private void dropBody(Id bodyKey) {
        Body b = bodies.remove(bodyKey);
        if (b != null) {
            payloadBytes -= b.length;
            tier.remove(bodyKey);
        }
    }

    // ---- evictions ------------------------------------------------------------------------------

    private void onTierEviction(Id key, byte[] value) {
        if (value != null) {
            victimValues.put(key, value);
        }
        tierEvictions.add(key);
        if (lock.isHeldByCurrentThread()) {
            return; // the call in progress applies it before it returns
        }
        Map<Id, byte[]> evicted = new LinkedHashMap<>();
        if (lock.tryLock()) {
            unlockAndApply(evicted);
            evicted.forEach(onEvict);
        }
        // Else the thread holding the lock applies it after letting go (see unlockAndApply).
    }

    /**
     * Applies the queued tier evictions (collecting the GUIDs that left into {@code evicted}) and lets
     * go of the lock, which the caller holds once; then applies reports that arrived meanwhile, if it
     * can take the lock again, so none waits for the next call.
     */
    private void unlockAndApply(Map<Id, byte[]> evicted) {
        try {
            if (lock.getHoldCount() == 1) {
                applyEvictions(evicted);
            }
        } finally {
            lock.unlock();
        }
        while (!tierEvictions.isEmpty() && !lock.isHeldByCurrentThread() && lock.tryLock()) {
            try {
                applyEvictions(evicted);
            } finally {
                lock.unlock();
            }
        }
    }

    private void applyEvictions(Map<Id, byte[]> evicted) {
        for (Id key; (key = tierEvictions.poll()) != null; ) {
            byte[] value = victimValues.remove(key);
            Id bodyKey = objects.remove(key);
            if (bodyKey != null) {
                tier.remove(key);
                // The body is evicted in this same call (its value is handed over too) or still held.
                evicted.put(key, value == null ? null : replicaOf(ReplicaHead.fromBytes(value), heldRecord(bodyKey)));
                Body b = bodies.get(bodyKey);
                if (b != null) {
                    b.users.remove(key);
                }
                continue;
            }
            Body b = bodies.remove(key);
            if (b != null) {
                payloadBytes -= b.length;
                tier.remove(key);
                for (Id guid : b.users) {
                    objects.remove(guid);
                    byte[] replica = value == null ? null : replicaOf(ReplicaHead.fromBytes(heldRecord(guid)), value);
                    tier.remove(guid);
                    evicted.put(guid, replica);
                }
            }
        }
    }

    /** The record of {@code key}: a value handed over with an eviction not yet applied, or the tier's, read without counting a use. */
    private byte[] heldRecord(Id key) {
        byte[] value = victimValues.get(key);
        return value != null ? value : tier.peek(key);
    }

    /** The replica {@code head} and the body record {@code record} make up, or null if either is missing or they do not match. */
    private static byte[] replicaOf(ReplicaHead head, byte[] record) {
        if (head == null || record == null) {
            return null;
        }
        Body body = bodyOf(head.bodyKey(), record);
        if (body == null || body.length != head.bodyLength() || !Arrays.equals(body.digest, head.digest())) {
            return null;
        }
        return head.assemble(ByteBuffer.wrap(record, 1 + ReplicaHead.DIGEST_BYTES, body.length));
    }

    // ---- reads ----------------------------------------------------------------------------------

    /**
     * The replica of {@code guid}, byte for byte as it was put, or null. Completes on the tier's
     * I/O stage (at once for memory tiers). A record the tier lost, or a body record that is not the
     * one the object record names, is a miss.
     */
    public CompletableFuture<byte[]> get(Id guid) {
        return head(guid).thenCompose(head -> {
            if (head == null) {
                return CompletableFuture.completedFuture(null);
            }
            return tier.get(head.bodyKey()).thenApply(record -> replicaOf(head, record));
        });
    }

    /**
     * The replica of {@code guid} as {@link #get} would return it, read without counting a use, when
     * the tier can hand its records over at once (a tier on the heap); else, or if it is not held,
     * null. For observers (a simulation's invariant checks), which must not change what the tier
     * evicts next.
     */
    public byte[] peek(Id guid) {
        byte[] head = tier.peek(guid);
        ReplicaHead h = head == null ? null : ReplicaHead.fromBytes(head);
        return h == null ? null : replicaOf(h, tier.peek(h.bodyKey()));
    }

    /** The head of {@code guid}'s replica (what a digest-first transfer sends first), or null. */
    public CompletableFuture<ReplicaHead> head(Id guid) {
        return tier.get(guid).thenApply(ReplicaHead::fromBytes);
    }

    /**
     * The body whose SHA-256 (computed here when it was stored) is {@code digest}, or null: what a
     * digest-first transfer sends a reader that lacks it. Completes on the tier's I/O stage.
     */
    public CompletableFuture<byte[]> body(byte[] digest) {
        if (digest == null || digest.length != ReplicaHead.DIGEST_BYTES) {
            return CompletableFuture.completedFuture(null);
        }
        Id key = ReplicaHead.bodyKey(digest);
        return tier.get(key).thenApply(record -> {
            Body body = record == null ? null : bodyOf(key, record);
            if (body == null || !Arrays.equals(body.digest, digest)) {
                return null;
            }
            return Arrays.copyOfRange(record, 1 + ReplicaHead.DIGEST_BYTES, record.length);
        });
    }

    /**
     * Whether {@code test} holds for every object that the tier's record {@code key} serves: for an
     * object record, its GUID; for a body record, each GUID using it, and there must be one. False for
     * an unreferenced body and for a key the store does not know (a put in progress: its body is
     * stored before the object naming it). A tier's victim preference asks this, so a body goes early
     * when every object using it could go.
     */
    public boolean everyObjectOf(Id key, Predicate<Id> test) {
        lock.lock();
        try {
            if (objects.containsKey(key)) {
                return test.test(key);
            }
            Body b = bodies.get(key);
            return b != null && !b.users.isEmpty() && b.users.stream().allMatch(test);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Whether {@code replica} could be stored evicting only records the tier's victim preference
     * accepts (an overlay node's: copies a neighbour also holds), as far as the tier can tell now
     * ({@link RecordTier#roomSparing}; true for a tier without a preference). A body already held
     * takes no new room.
     */
    public boolean roomSparing(byte[] replica) {
        ReplicaHead.Split split = ReplicaHead.split(replica);
        lock.lock();
        try {
            boolean newBody = !bodies.containsKey(split.head().bodyKey());
            long bytes = split.head().toBytes().length + (newBody ? 1L + ReplicaHead.DIGEST_BYTES + split.body().remaining() : 0);
            return tier.roomSparing(bytes, newBody ? 2 : 1);
        } finally {
            lock.unlock();
        }
    }

    /** Whether a replica of {@code guid} is held. */
    public boolean contains(Id guid) {
        lock.lock();
        try {
            return objects.containsKey(guid);
        } finally {
            lock.unlock();
        }
    }

    /** Whether a body whose SHA-256 (computed here when it was stored) is {@code digest} is held. */
    public boolean holdsBody(byte[] digest) {
        lock.lock();
        try {
            return bodies.containsKey(ReplicaHead.bodyKey(digest));
        } finally {
            lock.unlock();
        }
    }

    /** How many objects use the body whose SHA-256 is {@code digest} (0 if it is not held or unreferenced). */
    public int references(byte[] digest) {
        lock.lock();
        try {
            Body b = bodies.get(ReplicaHead.bodyKey(digest));
            return b == null ? 0 : b.users.size();
        } finally {
            lock.unlock();
        }
    }

    /** The GUIDs held (a snapshot, in no particular order). */
    public List<Id> guids() {
        lock.lock();
        try {
            return new ArrayList<>(objects.keySet());
        } finally {
            lock.unlock();
        }
    }

    /** Objects held. */
    public int objects() {
        lock.lock();
        try {
            return objects.size();
        } finally {
            lock.unlock();
        }
    }

    /** Distinct bodies held, referenced or not. */
    public int bodies() {
        lock.lock();
        try {
            return bodies.size();
        } finally {
            lock.unlock();
        }
    }

    /** Bytes of distinct bodies held: each payload counted once. */
    public long payloadBytes() {
        lock.lock();
        try {
            return payloadBytes;
        } finally {
            lock.unlock();
        }
    }

    /** Body records written since the store opened (a put whose body was held writes none). */
    public long bodyWrites() {
        lock.lock();
        try {
            return bodyWrites;
        } finally {
            lock.unlock();
        }
    }

    /** Puts that found their body already held and wrote only the object record. */
    public long bodiesShared() {
        lock.lock();
        try {
            return bodiesShared;
        } finally {
            lock.unlock();
        }
    }

    /** The tier the records live in. */
    public RecordTier tier() {
        return tier;
    }

    /** Writes everything accepted so far to the tier's disk, if it has one. */
    public void flush() {
        tier.flush();
    }

    /** Closes the tier. */
    @Override
    public void close() {
        tier.close();
    }
}
