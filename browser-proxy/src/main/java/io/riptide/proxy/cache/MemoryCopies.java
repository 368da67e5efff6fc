package io.riptide.proxy.cache;

import io.netty.buffer.ByteBuf;
import io.riptide.core.http.Headers;
import io.riptide.core.id.Id;
import io.riptide.core.store.MemoryTier;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The proxy's memory tier: copies that passed verification, kept in this process under the GUID they
 * were read by, so a hot URL is answered without an overlay read. Bodies live in the project's
 * W-TinyLFU {@link MemoryTier}, off the Java heap, and are served as retained duplicates (no copy per
 * hit); what RFC 9111 needs of each ({@link VerifiedCopy}) stays on the heap beside it and is charged
 * against the same bound, so one number, {@code --memory-mb}, limits both. A URL's verified variant
 * record is kept too ({@link Names}), so a varying URL is found without the overlay as well.
 *
 * <p>Only {@link ProxyCache} puts: what {@link ReplicaCheck} accepted, under the provider's GUIDs, and
 * the proxy's own fetches from the origin (its private tier) under GUIDs no provider's name can take
 * ({@link UrlNames#privateBase}), which are never offered to the overlay. A newer version replaces an
 * older one; an older one never replaces a newer (a private copy's version is its response time).
 * Thread-safe: the browser connections' loops read it without a lock while the cache's loop fills it.
 */
public final class MemoryCopies implements AutoCloseable {
    /**
     * The heap an entry costs beyond its header text: the index's map node, the GUID, the entry and
     * its record, the header list. Measured roughly with a heap dump of a full tier; it only has to
     * keep many tiny copies from outgrowing the bound.
     */
    static final int ENTRY_HEAP_BYTES = 320;
    /** Heap per header field beyond its characters: two strings and the field record. */
    private static final int FIELD_HEAP_BYTES = 96;

    /** What the index holds for a GUID. */
    sealed interface Entry permits Copy, Names {
    }

    /**
     * A verified copy: its RFC 9111 form, version and provider's place (primary or not), and when the
     * overlay last confirmed it (a read that found this version, or a newer heartbeat).
     */
    static final class Copy implements Entry {
        final Id guid;
        /** Where its body is in the tier: one key per GUID and version, so a body never changes under a key. */
        final Id bodyKey;
        final boolean primary;
        final long version;
        final VerifiedCopy view;
        /** The view's header fields without Age: the same object hit after hit, for the front's prepared heads. */
        final Headers servedHeaders;
        /** When the copy is fresh for a request without directives. */
        final CopyJudge.FreshWindow window;
        final int bodyLength;
        /** When the overlay last confirmed this copy or was last asked to: at most one background read per interval. */
        final AtomicLong checkedNanos;
        /** For a private copy: whether a hit on it has told the cache yet (its second sighting, once). */
        final java.util.concurrent.atomic.AtomicBoolean sighted = new java.util.concurrent.atomic.AtomicBoolean();

        Copy(Id guid, boolean primary, long version, VerifiedCopy view, CopyJudge.FreshWindow window, int bodyLength,
             long confirmedNanos) {
            this.guid = guid;
            this.bodyKey = bodyKey(guid, version, COPY);
            this.primary = primary;
            this.version = version;
            this.view = view;
            this.servedHeaders = view.headers().without("Age");
            this.window = window;
            this.bodyLength = bodyLength;
            this.checkedNanos = new AtomicLong(confirmedNanos);
        }
    }

    /** A verified variant record: the request fields that name a URL's variant, the record's version, and its key in the tier. */
    record Names(long version, List<String> varyFields, Id bodyKey) implements Entry {
    }

    private static final byte COPY = 1;
    private static final byte NAMES = 2;

    private static Id bodyKey(Id guid, long version, byte kind) {
        return Id.hash(guid.toBytes(), ByteBuffer.allocate(9).putLong(version).put(kind).array());
    }

    private static Id bodyKeyOf(Entry e) {
        return e instanceof Copy c ? c.bodyKey : ((Names) e).bodyKey();
    }

    /** A copy and its body, of which the holder owns one reference. */
    record Held(Copy copy, ByteBuf body) {
    }

    private final MemoryTier tier;
    private final long maxBytes;
    /**
     * What is kept per GUID. Read without a lock (the browser loops' hits must never wait for one another,
     * nor for a loop the OS has paused holding a lock); changed under {@code this}, and by evictions.
     */
    private final Map<Id, Entry> index = new ConcurrentHashMap<>();
    /** Whose body each tier key holds, so an eviction finds the entry to drop. */
    private final Map<Id, Id> owners = new ConcurrentHashMap<>();
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder stored = new LongAdder();

    /** A tier of at most {@code maxBytes}, bodies and bookkeeping together, the bodies off the heap. */
    public MemoryCopies(long maxBytes) {
        this.maxBytes = maxBytes;
        this.tier = new MemoryTier(maxBytes, this::evicted);
    }

    /** As above, the bodies in buffers from {@code alloc} (a simulation's proxies keep theirs on the heap). */
    public MemoryCopies(long maxBytes, io.netty.buffer.ByteBufAllocator alloc) {
        this.maxBytes = maxBytes;
        this.tier = new MemoryTier(maxBytes, this::evicted, alloc);
    }

    // Reported by the tier on whichever thread ran its maintenance: a writer here, or a reader's lookup.
    private void evicted(Id bodyKey) {
        Id guid = owners.remove(bodyKey);
        if (guid != null) {
            index.computeIfPresent(guid, (g, e) -> bodyKeyOf(e).equals(bodyKey) ? null : e);
        }
    }

    /** The variant record kept for {@code guid}, or null. Lock-free. */
    Names names(Id guid) {
        return index.get(guid) instanceof Names n ? n : null;
    }

    /**
     * The copy kept for {@code guid} with a reference to its body, or null. Lock-free: the body is
     * looked up by the copy's own key, which names one GUID and version, so it is always this copy's
     * body, or gone (a miss).
     */
    Held copy(Id guid) {
        if (!(index.get(guid) instanceof Copy c)) {
            return null;
        }
        ByteBuf body = tier.retained(c.bodyKey);
        return body == null ? null : new Held(c, body);
    }

    /** The copy kept for {@code guid}, without its body, or null. */
    Copy peek(Id guid) {
        return index.get(guid) instanceof Copy c ? c : null;
    }

    /**
     * Keeps a verified copy read under {@code guid}, confirmed by the overlay at {@code nowNanos}: a
     * newer version replaces what is kept, the same version only renews it (a newer heartbeat's
     * view), and an older one is ignored.
     */
    synchronized void putCopy(Id guid, boolean primary, long version, VerifiedCopy view, CopyJudge.FreshWindow window,
                              byte[] body, long nowNanos) {
        Entry old = index.get(guid);
        long oldVersion = old instanceof Copy c ? c.version : old instanceof Names n ? n.version() : -1;
        if (version < oldVersion) {
            return;
        }
        Copy copy = new Copy(guid, primary, version, view, window, body.length, nowNanos);
        if (old instanceof Copy c && c.version == version && tier.mayContain(c.bodyKey)) {
            if (c.view.equals(view)) {
                c.checkedNanos.set(nowNanos); // confirmed again: the same object, so the front's prepared head still fits
            } else {
                index.put(guid, copy); // the same certified body under a newer heartbeat
            }
            return;
        }
        // Entry first, body second: a reader meanwhile finds no body under the new key (a miss), and an
        // eviction of the new body at once (W-TinyLFU may refuse it) finds the entry to drop.
        index.put(guid, copy);
        owners.put(copy.bodyKey, guid);
        if (tier.put(copy.bodyKey, body, heapBytes(view.headers()))) {
            stored.increment();
        } else {
            evicted(copy.bodyKey); // larger than the whole tier
        }
        dropBody(guid, old);
    }

    /** Releases the body that {@code old}, replaced at {@code guid}, held. */
    private void dropBody(Id guid, Entry old) {
        if (old != null) {
            Id key = bodyKeyOf(old);
            Entry now = index.get(guid);
            if (now == null || !bodyKeyOf(now).equals(key)) {
                owners.remove(key);
                tier.remove(key);
            }
        }
    }

    /** Keeps a verified variant record read under {@code guid}, unless a newer version is kept. */
    synchronized void putNames(Id guid, long version, List<String> varyFields) {
        Entry old = index.get(guid);
        long oldVersion = old instanceof Copy c ? c.version : old instanceof Names n ? n.version() : -1;
        if (version < oldVersion || (old instanceof Names n && n.version() == version)) {
            return;
        }
        Names names = new Names(version, List.copyOf(varyFields), bodyKey(guid, version, NAMES));
        index.put(guid, names);
        owners.put(names.bodyKey(), guid);
        int heap = varyFields.stream().mapToInt(f -> f.length() + FIELD_HEAP_BYTES).sum();
        // An empty record in the tier, so the bound and the policy count the names as they count copies.
        if (!tier.put(names.bodyKey(), new byte[0], ENTRY_HEAP_BYTES + heap)) {
            evicted(names.bodyKey());
        }
        dropBody(guid, old);
    }

    /** Drops what is kept for {@code guid}, if anything. */
    synchronized void remove(Id guid) {
        Entry old = index.remove(guid);
        if (old != null) {
            owners.remove(bodyKeyOf(old));
            tier.remove(bodyKeyOf(old));
        }
    }

    private static int heapBytes(Headers headers) {
        long bytes = ENTRY_HEAP_BYTES;
        for (Headers.Field f : headers.fields()) {
            bytes += f.name().length() + f.value().length() + FIELD_HEAP_BYTES;
        }
        return (int) Math.min(Integer.MAX_VALUE / 2, bytes);
    }

    void hit() {
        hits.increment();
    }

    void miss() {
        misses.increment();
    }

    /** What the tier holds and has done, for the status page and {@code /metrics}. */
    public synchronized MemoryFigures figures() {
        return new MemoryFigures(tier.records(), tier.weightedBytes(), maxBytes, hits.sum(), misses.sum(), stored.sum(),
                tier.evictions());
    }

    /** Releases every body; later lookups miss. */
    @Override
    public synchronized void close() {
        tier.close();
        index.clear();
        owners.clear();
    }
}
