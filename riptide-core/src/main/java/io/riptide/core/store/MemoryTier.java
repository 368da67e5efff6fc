package io.riptide.core.store;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.IllegalReferenceCountException;
import io.riptide.core.id.Id;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * The hot records in memory: a {@link RecordTier} over a Caffeine cache bounded in bytes, whose
 * W-TinyLFU policy admits a new record only if it is likely to be read more often than the record
 * it would push out (a frequency sketch of recent reads decides), so one scan of cold objects does
 * not flush the hot ones.
 *
 * <p>Record values are held off the Java heap, each in its own direct {@link ByteBuf}: the heap holds
 * only the keys and Caffeine's small nodes, so a large tier does not lengthen garbage collection. A
 * buffer is released exactly once, when its record is replaced, removed, evicted or the tier closes;
 * {@link #liveBuffers()} counts the ones not yet released (zero after {@link #close()}).
 *
 * <p>The weight of a record is its length plus {@link #ENTRY_OVERHEAD} bytes, so many tiny records
 * cannot exceed the bound through their bookkeeping, plus whatever its owner says it keeps about the
 * record elsewhere ({@link #put(Id, byte[], int)}), so one bound covers both. Caffeine runs its maintenance on the calling
 * thread, so by the time {@link #put} returns the tier is within its bound and the evicted keys have
 * been reported to the listener (after the tier's own lock was let go, so the listener may call back
 * in). A freshly put record may be among them: W-TinyLFU can refuse it at once. Reads by
 * {@link #retained} may report evictions too, so the listener must be thread-safe. Thread-safe;
 * {@link #get} completes before it returns.
 */
public final class MemoryTier implements RecordTier {
    /** Bytes each record is charged beyond its value: key, cache node and buffer object. */
    public static final int ENTRY_OVERHEAD = 96;

    private final long maxBytes;
    private final Consumer<Id> onEvict;
    private final ByteBufAllocator alloc;
    private final Cache<Id, Value> cache;
    private final Queue<Id> evicted = new ConcurrentLinkedQueue<>();
    // Atomic: evictions may also be reported by Caffeine's maintenance on a lock-free read (retained).
    private final AtomicLong liveBuffers = new AtomicLong();
    private final AtomicLong evictions = new AtomicLong();
    private volatile boolean closed;

    /** A tier of at most {@code maxBytes} (weights as above), values in unpooled direct buffers. */
    public MemoryTier(long maxBytes, Consumer<Id> onEvict) {
        this(maxBytes, onEvict, UnpooledByteBufAllocator.DEFAULT);
    }

    /** A tier whose values are direct buffers from {@code alloc}. */
    public MemoryTier(long maxBytes, Consumer<Id> onEvict, ByteBufAllocator alloc) {
        if (maxBytes <= ENTRY_OVERHEAD) {
            throw new IllegalArgumentException("a memory tier needs room for a record, got " + maxBytes + " bytes");
        }
        this.maxBytes = maxBytes;
        this.onEvict = onEvict;
        this.alloc = alloc;
        this.cache = Caffeine.newBuilder()
                .maximumWeight(maxBytes)
                .weigher((Id key, Value value) -> weight((long) value.buf.readableBytes() + value.heldElsewhere))
                .executor(Runnable::run)
                .evictionListener(this::onCaffeineEviction)
                .build();
    }

    /** A record's bytes, and what its owner keeps about it elsewhere (charged against the bound too). */
    private record Value(ByteBuf buf, int heldElsewhere) {
    }

    private static int weight(long valueBytes) {
        return (int) Math.min(Integer.MAX_VALUE, valueBytes + ENTRY_OVERHEAD);
    }

    // Runs inside Caffeine's maintenance, on the calling thread (the executor is the caller): inside one of
    // this tier's synchronized methods, or on a lock-free read (retained); Caffeine serialises it, and the
    // counters are atomic.
    private void onCaffeineEviction(Id key, Value value, RemovalCause cause) {
        if (value != null) {
            release(value.buf);
        }
        if (key != null) {
            evictions.incrementAndGet();
            evicted.add(key);
        }
    }

    private void release(ByteBuf value) {
        value.release();
        liveBuffers.decrementAndGet();
    }

    @Override
    public boolean put(Id key, byte[] value) {
        return put(key, value, 0);
    }

    /**
     * Puts {@code value}, charging {@code heldElsewhere} more bytes against the bound: what the caller
     * keeps about the record on its side (decoded headers, say), so one bound covers both.
     */
    public boolean put(Id key, byte[] value, int heldElsewhere) {
        if (heldElsewhere < 0) {
            throw new IllegalArgumentException("negative weight " + heldElsewhere);
        }
        try {
            synchronized (this) {
                if (closed || weight((long) value.length + heldElsewhere) > maxBytes) {
                    return false;
                }
                ByteBuf copy = alloc.directBuffer(value.length, value.length).writeBytes(value);
                liveBuffers.incrementAndGet();
                Value old = cache.asMap().put(key, new Value(copy, heldElsewhere));
                if (old != null) {
                    release(old.buf);
                }
                cache.cleanUp();
                return true;
            }
        } finally {
            reportEvictions();
        }
    }

    @Override
    public CompletableFuture<byte[]> get(Id key) {
        try {
            synchronized (this) {
                Value value = closed ? null : cache.getIfPresent(key);
                return CompletableFuture.completedFuture(value == null ? null : ByteBufUtil.getBytes(value.buf));
            }
        } finally {
            reportEvictions();
        }
    }

    /**
     * The record's bytes without a copy: a duplicate of the tier's buffer holding a reference of its
     * own, which the caller releases (writing it to a channel does) and must not write to; or null.
     * The bytes stay valid until then even if the record is evicted meanwhile. Counts as a read for
     * the policy. (Netty recycles the duplicate's object: no allocation per call.)
     *
     * <p>Lock-free, for readers on many threads: a record evicted between the lookup and the retain
     * has a released buffer, which refuses the retain (its count never comes back from zero), and that
     * read is a miss. Caffeine may run its maintenance here, so evictions can be reported on this
     * thread too.
     */
    public ByteBuf retained(Id key) {
        try {
            Value value = closed ? null : cache.getIfPresent(key);
            if (value == null) {
                return null;
            }
            try {
                return value.buf.retainedDuplicate();
            } catch (IllegalReferenceCountException evictedMeanwhile) {
                return null;
            }
        } finally {
            reportEvictions();
        }
    }

    @Override
    public synchronized boolean mayContain(Id key) {
        return !closed && cache.asMap().containsKey(key);
    }

    @Override
    public boolean remove(Id key) {
        try {
            synchronized (this) {
                Value old = closed ? null : cache.asMap().remove(key);
                if (old == null) {
                    return false;
                }
                release(old.buf);
                return true;
            }
        } finally {
            reportEvictions();
        }
    }

    /** Hands the keys evicted so far to the listener, outside the tier's lock. */
    private void reportEvictions() {
        for (Id key; (key = evicted.poll()) != null; ) {
            onEvict.accept(key);
        }
    }

    @Override
    public synchronized long records() {
        return closed ? 0 : cache.asMap().size();
    }

    /** The bytes charged against the bound now (values plus {@link #ENTRY_OVERHEAD} each). */
    public synchronized long weightedBytes() {
        return cache.policy().eviction().map(e -> e.weightedSize().orElse(0)).orElse(0L);
    }

    /** Direct buffers allocated and not yet released: the record count while open, zero once closed. */
    public long liveBuffers() {
        return liveBuffers.get();
    }

    public long evictions() {
        return evictions.get();
    }

    @Override
    public CompletableFuture<Void> scan(BiConsumer<Id, byte[]> visitor) {
        Map<Id, byte[]> snapshot = new LinkedHashMap<>();
        synchronized (this) {
            if (!closed) {
                cache.asMap().forEach((k, v) -> snapshot.put(k, ByteBufUtil.getBytes(v.buf)));
            }
        }
        snapshot.forEach(visitor);
        return CompletableFuture.completedFuture(null);
    }

    /** Nothing to write: memory is not durable. */
    @Override
    public void flush() {
    }

    /** Releases every buffer; later puts fail and gets miss. Evictions not yet reported are dropped. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        List<Id> keys = new ArrayList<>(cache.asMap().keySet());
        for (Id key : keys) {
            Value old = cache.asMap().remove(key);
            if (old != null) {
                release(old.buf);
            }
        }
        cache.cleanUp();
        evicted.clear();
    }
}
