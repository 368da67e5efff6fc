package io.riptide.core.store.disk;

import io.riptide.core.id.Id;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HashCache-SetMem on one pre-allocated file: a disk table of 8-way sets of fixed-size slots, each
 * record in a slot of its key's set. The index is two packed arrays, 10 bits per entry:
 *
 * <ul>
 *   <li>{@code tagWords[set]}: eight 8-bit tags (0 = empty), way {@code w} in bits {@code 8w..8w+7};</li>
 *   <li>{@code lru[set]}: the set's LRU order as a 16-bit Lehmer code ({@link SetLru}).</li>
 * </ul>
 *
 * Writes wait in a buffer (servable) and are flushed sorted by slot; each lands at its own slot, so
 * an insert costs one random write (as in the paper's Table 3). A record longer than a slot is
 * refused. Restart: after a clean stop, the checkpoint written by close; after a crash, a sequential
 * scan of the disk table that keeps every slot that verifies.
 */
final class SetMemTier implements DiskTier {
    private static final Logger LOG = LoggerFactory.getLogger(SetMemTier.class);
    private static final long VERSION = 1;
    private static final int SCAN_CHUNK = 16 << 20;

    private final DiskTierConfig config;
    private final Consumer<Id> evicted;
    private final DiskStats stats = new DiskStats();
    private final FileChannel ch;
    private final long sets;
    private final int slotBytes;
    private final long[] tagWords;
    private final short[] lru;
    private final int[] ranks = new int[IdBits.WAYS];
    private final byte[] tombstone = new byte[RecordFormat.HEADER];
    private final AtomicBoolean flushQueued = new AtomicBoolean();
    private final Device device;

    // Guarded by this.
    private int epoch;
    private long records;
    private Map<Long, byte[]> pending = new HashMap<>();
    private long pendingBytes;
    private long pendingSinceNanos;
    private Map<Long, byte[]> flushing;
    private boolean closing;
    private boolean closed;

    // Write thread only.
    private long lastWriteEnd = -1;

    private SetMemTier(DiskTierConfig config, Consumer<Id> evicted, FileChannel ch) {
        this.config = config;
        this.evicted = evicted;
        this.ch = ch;
        this.device = new Device(config, ch);
        this.sets = config.sets();
        this.slotBytes = config.slotBytes();
        this.tagWords = new long[Math.toIntExact(sets)];
        this.lru = new short[Math.toIntExact(sets)];
    }

    static SetMemTier open(DiskTierConfig config, Consumer<Id> evicted) throws IOException {
        Files.createDirectories(config.file().toAbsolutePath().getParent());
        FileChannel ch = FileChannel.open(config.file(), StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        SetMemTier t = new SetMemTier(config, evicted, ch);
        try {
            t.recover();
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        t.start();
        return t;
    }

    private long fileBytes() {
        return sets * IdBits.WAYS * slotBytes;
    }

    private Path metaFile() {
        return config.file().resolveSibling(config.file().getFileName() + ".meta");
    }

    // ---- recovery ----

    private void recover() throws IOException {
        if (!loadMeta()) {
            int e;
            do {
                e = new SecureRandom().nextInt();
            } while (e == 0);
            epoch = e;
            ch.truncate(0);
            try (java.io.RandomAccessFile raf = new java.io.RandomAccessFile(config.file().toFile(), "rw")) {
                raf.setLength(fileBytes()); // sparse: every slot reads as empty until written
            }
            Files.deleteIfExists(config.checkpointFile());
            try (CheckpointFile.Writer w = new CheckpointFile.Writer(metaFile(), config.sync())) {
                w.longs(VERSION, sets, slotBytes, epoch).commit();
            }
            return;
        }
        boolean loaded = false;
        if (Files.exists(config.checkpointFile())) {
            try {
                loaded = loadCheckpoint();
            } catch (IOException e) {
                LOG.warn("disk tier {}: checkpoint unreadable ({}); scanning the disk table", config.file(), e.getMessage());
            }
            // Valid for this start only: from now on the table changes, and a crash must scan it.
            Files.delete(config.checkpointFile());
        }
        if (!loaded) {
            scan();
        }
    }

    private boolean loadMeta() throws IOException {
        if (!Files.exists(metaFile()) || ch.size() != fileBytes()) {
            return false;
        }
        try (CheckpointFile.Reader r = new CheckpointFile.Reader(metaFile())) {
            if (r.readLong() != VERSION || r.readLong() != sets || r.readLong() != slotBytes) {
                return false;
            }
            epoch = (int) r.readLong();
            r.verify();
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private boolean loadCheckpoint() throws IOException {
        try (CheckpointFile.Reader r = new CheckpointFile.Reader(config.checkpointFile())) {
            if (r.readLong() != VERSION || r.readLong() != sets || r.readLong() != slotBytes || (int) r.readLong() != epoch) {
                return false;
            }
            long n = r.readLong();
            r.longArray(tagWords);
            r.shorts(lru);
            r.verify();
            records = n;
            return true;
        }
    }

    /** Rebuilds the index from every slot whose record verifies (LRU order is lost: slot order). */
    private void scan() throws IOException {
        Arrays.fill(tagWords, 0);
        Arrays.fill(lru, (short) 0);
        records = 0;
        int slotsPerChunk = Math.max(1, SCAN_CHUNK / slotBytes);
        byte[] buf = new byte[slotsPerChunk * slotBytes];
        long totalSlots = sets * IdBits.WAYS;
        long generation = RecordFormat.generation(epoch, 0);
        for (long slot = 0; slot < totalSlots; slot += slotsPerChunk) {
            int n = (int) Math.min(slotsPerChunk, totalSlots - slot);
            int got = CheckpointFile.readFully(ch, buf, 0, n * slotBytes, slot * slotBytes);
            stats.sequentialReadBytes.add(got);
            for (int i = 0; i < n && (i + 1) * slotBytes <= got; i++) {
                int o = i * slotBytes;
                if (RecordFormat.magic(buf, o) != RecordFormat.RECORD) {
                    continue;
                }
                if (RecordFormat.check(buf, o, slotBytes, RecordFormat.RECORD, generation, null) != RecordFormat.Check.OK) {
                    continue;
                }
                Id key = RecordFormat.keyAt(buf, o);
                long s = (slot + i) / IdBits.WAYS;
                int way = (int) ((slot + i) % IdBits.WAYS);
                int tag = IdBits.tag(key);
                if (IdBits.set(key, sets) != s || findTag(tagWords[(int) s], tag) >= 0) {
                    continue;
                }
                tagWords[(int) s] = withTag(tagWords[(int) s], way, tag);
                records++;
            }
        }
    }

    private void start() {
        device.start(this::tick);
    }

    // ---- the index (callers hold the lock) ----

    private static int tagAt(long word, int way) {
        return (int) (word >>> (8 * way)) & 0xff;
    }

    private static long withTag(long word, int way, int tag) {
        return (word & ~(0xffL << (8 * way))) | ((long) tag << (8 * way));
    }

    private static int findTag(long word, int tag) {
        for (int w = 0; w < IdBits.WAYS; w++) {
            if (tagAt(word, w) == tag) {
                return w;
            }
        }
        return -1;
    }

    private void touch(int set, int way) {
        SetLru.decode(lru[set], ranks);
        SetLru.touch(ranks, way);
        lru[set] = SetLru.encode(ranks);
    }

    private byte[] buffered(long slot) {
        byte[] b = pending.get(slot);
        if (b == null && flushing != null) {
            b = flushing.get(slot);
        }
        return b;
    }

    // ---- RecordTier ----

    @Override
    public boolean put(Id key, byte[] value) {
        if (RecordFormat.HEADER + (long) value.length > slotBytes) {
            return false;
        }
        byte[] record = new byte[RecordFormat.HEADER + value.length];
        RecordFormat.encode(record, 0, RecordFormat.RECORD, RecordFormat.generation(epoch, 0), key, value, value.length);
        Id victim = null;
        boolean flush;
        synchronized (this) {
            awaitRoom();
            int set = (int) IdBits.set(key, sets);
            int tag = IdBits.tag(key);
            long word = tagWords[set];
            int way = findTag(word, tag);
            if (way < 0) {
                way = findTag(word, 0);
                if (way < 0) {
                    SetLru.decode(lru[set], ranks);
                    way = SetLru.oldest(ranks);
                    stats.evictions.increment();
                    byte[] old = buffered((long) set * IdBits.WAYS + way);
                    if (old != null && RecordFormat.magic(old, 0) == RecordFormat.RECORD) {
                        victim = RecordFormat.keyAt(old, 0);
                    }
                } else {
                    records++;
                }
            }
            tagWords[set] = withTag(word, way, tag);
            touch(set, way);
            addPending((long) set * IdBits.WAYS + way, record);
            flush = pendingBytes >= config.bufferBytes() && flushing == null;
        }
        stats.inserts.increment();
        if (victim != null) {
            report(victim);
        }
        if (flush) {
            requestFlush();
        }
        return true;
    }

    private void addPending(long slot, byte[] record) {
        if (pending.isEmpty()) {
            pendingSinceNanos = System.nanoTime();
        }
        byte[] old = pending.put(slot, record);
        pendingBytes += record.length - (old == null ? 0 : old.length);
    }

    private void awaitRoom() {
        while (pendingBytes >= 2L * config.bufferBytes() && flushing != null && !closed) {
            try {
                wait(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted waiting for the disk writer", e);
            }
        }
        if (closed || closing) {
            throw new IllegalStateException("disk tier " + config.file() + " is closed");
        }
    }

    @Override
    public CompletableFuture<byte[]> get(Id key) {
        stats.lookups.increment();
        long slot;
        long generation;
        synchronized (this) {
            if (closed) {
                return CompletableFuture.completedFuture(null);
            }
            int set = (int) IdBits.set(key, sets);
            int way = findTag(tagWords[set], IdBits.tag(key));
            if (way < 0) {
                stats.memoryMisses.increment();
                return CompletableFuture.completedFuture(null);
            }
            touch(set, way);
            slot = (long) set * IdBits.WAYS + way;
            generation = RecordFormat.generation(epoch, 0);
            byte[] b = buffered(slot);
            if (b != null) {
                RecordFormat.Check c = RecordFormat.check(b, 0, b.length, RecordFormat.RECORD, generation, key);
                if (c == RecordFormat.Check.OK) {
                    stats.bufferHits.increment();
                    return CompletableFuture.completedFuture(RecordFormat.value(b, 0));
                }
                stats.refusal(c);
                return CompletableFuture.completedFuture(null);
            }
        }
        CompletableFuture<byte[]> f = new CompletableFuture<>();
        boolean queued = device.reads().submit(() -> readSlot(key, slot, generation), (v, e) -> {
            if (e != null) {
                LOG.debug("disk tier {}: read failed", config.file(), e);
                stats.corruptRefusals.increment();
            }
            f.complete(e == null ? v : null);
        }, Runnable::run);
        if (!queued) {
            stats.refused.increment();
            f.complete(null);
        }
        return f;
    }

    private byte[] readSlot(Id key, long slot, long generation) throws IOException {
        byte[] buf = new byte[slotBytes];
        int got = CheckpointFile.readFully(ch, buf, 0, slotBytes, slot * slotBytes);
        stats.diskReads.increment();
        stats.readBytes.add(got);
        RecordFormat.Check c = RecordFormat.check(buf, 0, got, RecordFormat.RECORD, generation, key);
        if (c != RecordFormat.Check.OK) {
            stats.refusal(c);
            return null;
        }
        stats.diskHits.increment();
        return RecordFormat.value(buf, 0);
    }

    /**
     * Visits every record the index holds, once each, with its current value: those still in the write
     * buffer from a copy taken under the lock, the rest read from the disk table on the read stage in
     * slot order (sequential reads of up to 1 MiB). Each record is verified as a read verifies it
     * (magic, generation, CRC, and a key whose set and tag are the slot's); one that does not is
     * skipped and counted as a refused read. The index is snapshotted when the scan starts: records
     * put or removed during a scan may or may not be seen (a key put again or removed since the
     * snapshot is skipped, never visited with an old value). The visitor runs on a read-stage thread,
     * one call at a time. Completes exceptionally if the tier is closed, the read stage refuses the
     * scan, a read fails, or the visitor throws.
     */
    @Override
    public CompletableFuture<Void> scan(BiConsumer<Id, byte[]> visitor) {
        List<Id> bufferedKeys = new ArrayList<>();
        List<byte[]> bufferedValues = new ArrayList<>();
        long[] slots = new long[16];
        int n = 0;
        long generation;
        synchronized (this) {
            if (closed || closing) {
                return CompletableFuture.failedFuture(new IllegalStateException("disk tier " + config.file() + " is closed"));
            }
            generation = RecordFormat.generation(epoch, 0);
            for (int set = 0; set < tagWords.length; set++) {
                long word = tagWords[set];
                for (int way = 0; word != 0 && way < IdBits.WAYS; way++) {
                    if (tagAt(word, way) == 0) {
                        continue;
                    }
                    long slot = (long) set * IdBits.WAYS + way;
                    byte[] b = buffered(slot);
                    if (b == null) {
                        if (n == slots.length) {
                            slots = Arrays.copyOf(slots, n * 2);
                        }
                        slots[n++] = slot;
                        continue;
                    }
                    RecordFormat.Check c = RecordFormat.check(b, 0, b.length, RecordFormat.RECORD, generation, null);
                    Id key = c == RecordFormat.Check.OK ? RecordFormat.keyAt(b, 0) : null;
                    if (key != null && !owns(slot, key)) {
                        c = RecordFormat.Check.OTHER_KEY;
                    }
                    if (c != RecordFormat.Check.OK) {
                        stats.refusal(c);
                        continue;
                    }
                    stats.bufferHits.increment();
                    bufferedKeys.add(key);
                    bufferedValues.add(RecordFormat.value(b, 0));
                }
            }
        }
        long[] onDisk = slots;
        int count = n;
        CompletableFuture<Void> done = new CompletableFuture<>();
        boolean queued = device.reads().submit(() -> {
            for (int k = 0; k < bufferedKeys.size(); k++) {
                visitor.accept(bufferedKeys.get(k), bufferedValues.get(k));
            }
            scanTable(onDisk, count, generation, visitor);
            return null;
        }, (v, e) -> {
            if (e != null) {
                done.completeExceptionally(e);
            } else {
                done.complete(null);
            }
        }, Runnable::run);
        if (!queued) {
            stats.refused.increment();
            done.completeExceptionally(new IllegalStateException("disk tier " + config.file() + ": the read stage refused the scan"));
        }
        return done;
    }

    /** Whether {@code key} belongs in {@code slot}: its set and the tag the index holds there (callers hold the lock). */
    private boolean owns(long slot, Id key) {
        int set = (int) (slot / IdBits.WAYS);
        int way = (int) (slot % IdBits.WAYS);
        return IdBits.set(key, sets) == set && IdBits.tag(key) == tagAt(tagWords[set], way);
    }

    /** On the read stage: reads and verifies the records in {@code slots} (ascending), in runs of up to 1 MiB. */
    private void scanTable(long[] slots, int count, long generation, BiConsumer<Id, byte[]> visitor) throws IOException {
        int perRead = Math.max(1, (1 << 20) / slotBytes);
        byte[] buf = new byte[perRead * slotBytes];
        int k = 0;
        while (k < count) {
            long first = slots[k];
            int end = k;
            while (end < count && slots[end] - first < perRead) {
                end++;
            }
            long last = slots[end - 1];
            int got = CheckpointFile.readFully(ch, buf, 0, (int) (last - first + 1) * slotBytes, first * slotBytes);
            stats.diskReads.increment();
            stats.sequentialReadBytes.add(got);
            for (; k < end; k++) {
                long slot = slots[k];
                int o = (int) (slot - first) * slotBytes;
                RecordFormat.Check c = RecordFormat.check(buf, o, Math.max(0, Math.min(slotBytes, got - o)), RecordFormat.RECORD,
                        generation, null);
                Id key = c == RecordFormat.Check.OK ? RecordFormat.keyAt(buf, o) : null;
                if (key != null) {
                    synchronized (this) {
                        if (!owns(slot, key)) {
                            c = RecordFormat.Check.OTHER_KEY;
                        } else if (buffered(slot) != null) {
                            continue; // put again or removed since the snapshot: the disk copy is old
                        }
                    }
                }
                if (c != RecordFormat.Check.OK) {
                    stats.refusal(c);
                    continue;
                }
                stats.diskHits.increment();
                visitor.accept(key, RecordFormat.value(buf, o));
            }
        }
    }

    @Override
    public synchronized boolean mayContain(Id key) {
        return findTag(tagWords[(int) IdBits.set(key, sets)], IdBits.tag(key)) >= 0;
    }

    @Override
    public boolean remove(Id key) {
        boolean flush;
        synchronized (this) {
            awaitRoom();
            int set = (int) IdBits.set(key, sets);
            int way = findTag(tagWords[set], IdBits.tag(key));
            if (way < 0) {
                return false;
            }
            tagWords[set] = withTag(tagWords[set], way, 0);
            SetLru.decode(lru[set], ranks);
            SetLru.demote(ranks, way);
            lru[set] = SetLru.encode(ranks);
            records--;
            addPending((long) set * IdBits.WAYS + way, tombstone);
            flush = pendingBytes >= config.bufferBytes() && flushing == null;
        }
        if (flush) {
            requestFlush();
        }
        return true;
    }

    @Override
    public synchronized long records() {
        return records;
    }

    @Override
    public void flush() {
        synchronized (this) {
            if (closed) {
                return;
            }
        }
        device.runOnWriter(() -> {
            flushPending();
            device.force();
            return null;
        });
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closing || closed) {
                return;
            }
            closing = true;
        }
        device.stopTimer();
        try {
            device.runOnWriter(() -> {
                flushPending();
                device.force();
                writeCheckpoint();
                return null;
            });
        } finally {
            synchronized (this) {
                closed = true;
                notifyAll();
            }
            device.close();
        }
    }

    @Override
    public void simulateCrash() {
        synchronized (this) {
            closed = true;
            pending.clear();
            flushing = null;
            notifyAll();
        }
        device.stopTimer();
        device.close();
    }

    @Override
    public DiskPolicy policy() {
        return DiskPolicy.SETMEM;
    }

    /** A record must fit in one slot, header included. */
    @Override
    public int maxValueBytes() {
        return Math.max(0, slotBytes - RecordFormat.HEADER);
    }

    @Override
    public DiskStats.Snapshot stats() {
        return stats.snapshot();
    }

    @Override
    public long indexBytes() {
        return (long) tagWords.length * Long.BYTES + (long) lru.length * Short.BYTES;
    }

    @Override
    public long indexEntries() {
        return sets * IdBits.WAYS;
    }

    // ---- the writer ----

    private void requestFlush() {
        if (flushQueued.compareAndSet(false, true)) {
            boolean queued = device.writes().submit(() -> {
                flushQueued.set(false);
                flushPending();
                return null;
            }, (v, e) -> {
                if (e != null) {
                    LOG.warn("disk tier {}: flush failed", config.file(), e);
                }
            }, Runnable::run);
            if (!queued) {
                flushQueued.set(false);
            }
        }
    }

    private void tick() {
        boolean flush;
        synchronized (this) {
            if (closed || closing) {
                return;
            }
            flush = !pending.isEmpty() && flushing == null
                    && System.nanoTime() - pendingSinceNanos >= config.flushInterval().toNanos();
        }
        if (flush) {
            requestFlush();
        }
    }

    /** Writes the buffered slots in slot order (one write each, a seek unless adjacent to the last). */
    private void flushPending() throws IOException {
        Map<Long, byte[]> batch;
        synchronized (this) {
            if (pending.isEmpty()) {
                return;
            }
            batch = pending;
            flushing = batch;
            pending = new HashMap<>();
            pendingBytes = 0;
        }
        List<Long> slots = new ArrayList<>(batch.keySet());
        slots.sort(null);
        long bytes = 0;
        for (long slot : slots) {
            byte[] b = batch.get(slot);
            long pos = slot * slotBytes;
            CheckpointFile.writeFully(ch, b, 0, b.length, pos);
            stats.writes.increment();
            if (pos != lastWriteEnd) {
                stats.randomWrites.increment();
            }
            lastWriteEnd = pos + b.length;
            bytes += b.length;
        }
        stats.writtenBytes.add(bytes);
        stats.flushes.increment();
        synchronized (this) {
            if (flushing == batch) {
                flushing = null;
            }
            notifyAll();
        }
    }

    private void writeCheckpoint() throws IOException {
        long[] words;
        short[] order;
        long n;
        synchronized (this) {
            words = tagWords.clone();
            order = lru.clone();
            n = records;
        }
        try (CheckpointFile.Writer w = new CheckpointFile.Writer(config.checkpointFile(), config.sync())) {
            w.longs(VERSION, sets, slotBytes, epoch, n).longArray(words).shorts(order);
            long bytes = w.commit();
            stats.checkpoints.increment();
            stats.writes.increment();
            stats.randomWrites.increment();
            stats.writtenBytes.add(bytes);
        }
    }

    private void report(Id key) {
        try {
            evicted.accept(key);
        } catch (RuntimeException e) {
            LOG.warn("disk tier {}: eviction listener failed", config.file(), e);
        }
    }
}
