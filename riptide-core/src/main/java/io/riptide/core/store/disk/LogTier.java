package io.riptide.core.store.disk;

import io.riptide.core.id.Id;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HashCache-Log on one pre-allocated file: records are appended to a circular log through a write
 * buffer flushed in large sequential writes; the index is two packed arrays, 5 bytes per entry:
 *
 * <ul>
 *   <li>{@code loc[i]}: bits 0-27 the record's log offset in blocks, bit 28 the lap's generation bit,
 *       bits 29-31 the entry's LRU rank in its 8-way set;</li>
 *   <li>{@code tags[i]}: 8 bits of the key (0 = empty).</li>
 * </ul>
 *
 * An entry is live if its record has not been overwritten since: written this lap and before the
 * head, or written last lap and not yet reached by the head. When the head wraps, entries two laps
 * old are swept, so one generation bit suffices; the record on disk carries the full lap, checked on
 * every read. All index state is guarded by {@code this}; disk I/O runs on the read and write stages.
 */
final class LogTier implements DiskTier {
    private static final Logger LOG = LoggerFactory.getLogger(LogTier.class);
    static final int OFFSET_BITS = 28;
    private static final int OFFSET_MASK = (1 << OFFSET_BITS) - 1;
    private static final int GEN_SHIFT = 28;
    private static final int RANK_SHIFT = 29;
    private static final int MIN_BLOCK_SHIFT = 4;
    /** Sealed buffers waiting for the disk before put waits for the writer. */
    private static final int MAX_PENDING = 4;
    private static final long VERSION = 1;
    private static final int REPLAY_WINDOW = 16 << 20;

    private final DiskTierConfig config;
    private final Consumer<Id> evicted;
    private final DiskStats stats = new DiskStats();
    private final FileChannel ch;
    private final long fileBytes;
    private final int blockShift;
    private final long sets;
    private final int[] loc;
    private final byte[] tags;
    private final int[] ranks = new int[IdBits.WAYS];
    private final Device device;
    private final AtomicBoolean flushQueued = new AtomicBoolean();

    // Guarded by this.
    private int epoch;
    private long lap;
    private long head;
    private long records;
    private Segment active;
    private final ArrayDeque<Segment> sealed = new ArrayDeque<>();
    private long durableLap;
    private long durableHead;
    private boolean closing;
    private boolean closed;

    // Write thread only (and open, before the stages start).
    private long scanLap;
    private long scanPos;
    private long lastWriteEnd = -1;
    private volatile long bytesSinceCheckpoint;
    private volatile long lastCheckpointNanos = System.nanoTime();

    /** A write buffer: the bytes of file range [start, start + fill) of one lap. */
    private static final class Segment {
        final long lap;
        final long start;
        final byte[] bytes;
        final long createdNanos = System.nanoTime();
        int fill;

        Segment(long lap, long start, int capacity) {
            this.lap = lap;
            this.start = start;
            this.bytes = new byte[capacity];
        }
    }

    private LogTier(DiskTierConfig config, Consumer<Id> evicted, FileChannel ch) {
        this.config = config;
        this.evicted = evicted;
        this.ch = ch;
        this.device = new Device(config, ch);
        int shift = MIN_BLOCK_SHIFT;
        while (config.logBytes() > (1L << (OFFSET_BITS + shift))) {
            shift++;
        }
        this.blockShift = shift;
        this.fileBytes = (config.logBytes() >>> shift) << shift;
        this.sets = config.sets();
        int entries = Math.toIntExact(sets * IdBits.WAYS);
        this.loc = new int[entries];
        this.tags = new byte[entries];
        for (int i = 0; i < entries; i++) {
            loc[i] = (i % IdBits.WAYS) << RANK_SHIFT;
        }
    }

    static LogTier open(DiskTierConfig config, Consumer<Id> evicted) throws IOException {
        Files.createDirectories(config.file().toAbsolutePath().getParent());
        FileChannel ch = FileChannel.open(config.file(), StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        LogTier t = new LogTier(config, evicted, ch);
        try {
            t.recover();
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        t.start();
        return t;
    }

    // ---- recovery ----

    private void recover() throws IOException {
        boolean loaded = false;
        if (Files.exists(config.checkpointFile())) {
            try {
                loaded = loadCheckpoint();
            } catch (IOException e) {
                LOG.warn("disk tier {}: checkpoint unreadable ({}); starting empty", config.file(), e.getMessage());
            }
        }
        if (!loaded) {
            // A new incarnation: whatever the file holds belongs to another epoch and is never served.
            java.util.Arrays.fill(tags, (byte) 0);
            int e;
            do {
                e = new SecureRandom().nextInt();
            } while (e == 0);
            epoch = e;
            lap = 0;
            head = 0;
            scanLap = 0;
            scanPos = 0;
            if (ch.size() != fileBytes) {
                ch.truncate(Math.min(ch.size(), fileBytes));
                // Sparse pre-allocation: the length is reserved at once, blocks as the log first passes.
                try (java.io.RandomAccessFile raf = new java.io.RandomAccessFile(config.file().toFile(), "rw")) {
                    raf.setLength(fileBytes);
                }
            }
        }
        replay();
        sweepInvalid();
        durableLap = lap;
        durableHead = head;
        if (scanLap != lap || scanPos < head) {
            scanLap = lap;
            scanPos = head;
        }
        active = new Segment(lap, head, (int) Math.min(config.bufferBytes(), fileBytes - head));
        // What recovery decided is final: a later crash replays from here, not from the old checkpoint.
        writeCheckpoint(loc.clone(), tags.clone(), lap, head);
    }

    private boolean loadCheckpoint() throws IOException {
        try (CheckpointFile.Reader r = new CheckpointFile.Reader(config.checkpointFile())) {
            long version = r.readLong();
            long size = r.readLong();
            long s = r.readLong();
            long shift = r.readLong();
            if (version != VERSION || size != fileBytes || s != sets || shift != blockShift || ch.size() != fileBytes) {
                LOG.warn("disk tier {}: checkpoint is for another geometry; starting empty", config.file());
                return false;
            }
            int e = (int) r.readLong();
            long l = r.readLong();
            long h = r.readLong();
            long sl = r.readLong();
            long sp = r.readLong();
            r.ints(loc);
            r.bytes(tags);
            r.verify();
            epoch = e;
            lap = l;
            head = h;
            scanLap = sl;
            scanPos = sp;
            return true;
        }
    }

    /** Re-applies the records written after the checkpoint, stopping at the first that does not verify. */
    private void replay() throws IOException {
        byte[] window = new byte[Math.max(REPLAY_WINDOW, config.bufferBytes() + RecordFormat.HEADER)];
        long windowStart = -1;
        int windowLength = 0;
        long replayed = 0;
        while (replayed < fileBytes) {
            if (fileBytes - head < RecordFormat.HEADER) {
                replayed += fileBytes - head;
                wrap();
                continue;
            }
            if (windowStart < 0 || head < windowStart || head + RecordFormat.HEADER > windowStart + windowLength) {
                windowStart = head;
                windowLength = CheckpointFile.readFully(ch, window, 0, (int) Math.min(window.length, fileBytes - head), head);
                stats.sequentialReadBytes.add(windowLength);
            }
            int o = (int) (head - windowStart);
            int length = RecordFormat.lengthAt(window, o);
            int magic = RecordFormat.magic(window, o);
            if (length < 0 || length > fileBytes - head - RecordFormat.HEADER) {
                break;
            }
            if (o + RecordFormat.HEADER + length > windowLength) {
                if (RecordFormat.HEADER + length > window.length) {
                    break;
                }
                windowStart = head;
                windowLength = CheckpointFile.readFully(ch, window, 0, (int) Math.min(window.length, fileBytes - head), head);
                stats.sequentialReadBytes.add(windowLength);
                o = 0;
                if (RecordFormat.HEADER + length > windowLength) {
                    break;
                }
            }
            RecordFormat.Check c = RecordFormat.check(window, o, windowLength - o, magic, RecordFormat.generation(epoch, lap), null);
            if (c != RecordFormat.Check.OK || (magic != RecordFormat.RECORD && magic != RecordFormat.TOMBSTONE
                    && magic != RecordFormat.PADDING)) {
                break;
            }
            long aligned = align(RecordFormat.HEADER + length);
            if (magic == RecordFormat.PADDING) {
                replayed += fileBytes - head;
                wrap();
                continue;
            }
            Id key = RecordFormat.keyAt(window, o);
            long pos = head;
            head += aligned;
            replayed += aligned;
            if (magic == RecordFormat.RECORD) {
                indexPut(key, pos, null);
            } else {
                indexRemove(key);
            }
            if (head == fileBytes) {
                wrap();
            }
        }
    }

    /** Clears every entry whose record the head has passed; recounts the records. */
    private void sweepInvalid() {
        long n = 0;
        for (int i = 0; i < tags.length; i++) {
            if (tags[i] != 0) {
                if (valid(i)) {
                    n++;
                } else {
                    tags[i] = 0;
                }
            }
        }
        records = n;
    }

    private void start() {
        device.start(this::tick);
    }

    // ---- the index (callers hold the lock) ----

    private int base(Id key) {
        return (int) (IdBits.set(key, sets) * IdBits.WAYS);
    }

    private int find(int base, int tag) {
        for (int w = 0; w < IdBits.WAYS; w++) {
            if ((tags[base + w] & 0xff) == tag) {
                return w;
            }
        }
        return -1;
    }

    private void readRanks(int base) {
        for (int w = 0; w < IdBits.WAYS; w++) {
            ranks[w] = loc[base + w] >>> RANK_SHIFT;
        }
    }

    private void writeRanks(int base) {
        for (int w = 0; w < IdBits.WAYS; w++) {
            loc[base + w] = (loc[base + w] & ~(7 << RANK_SHIFT)) | (ranks[w] << RANK_SHIFT);
        }
    }

    private long offset(int i) {
        return (long) (loc[i] & OFFSET_MASK) << blockShift;
    }

    private long lapOf(int i) {
        int g = (loc[i] >>> GEN_SHIFT) & 1;
        return g == (lap & 1) ? lap : lap - 1;
    }

    /** Whether entry {@code i}'s record is still in the log's live window. */
    private boolean valid(int i) {
        long l = lapOf(i);
        long off = offset(i);
        return l == lap ? off < head : l >= 0 && off >= head;
    }

    /** Points {@code key} at {@code pos} of the current lap; a victim's key, when known, goes to {@code gone}. */
    private void indexPut(Id key, long pos, List<Id> gone) {
        int base = base(key);
        int tag = IdBits.tag(key);
        readRanks(base);
        int way = find(base, tag);
        if (way < 0) {
            for (int w = 0; w < IdBits.WAYS; w++) {
                if (tags[base + w] != 0 && !valid(base + w)) {
                    tags[base + w] = 0;
                    records--;
                }
            }
            for (int w = 0; w < IdBits.WAYS && way < 0; w++) {
                if (tags[base + w] == 0) {
                    way = w;
                }
            }
            if (way < 0) {
                way = SetLru.oldest(ranks);
                stats.evictions.increment();
                if (gone != null) {
                    Id victim = pendingKey(base + way);
                    if (victim != null) {
                        gone.add(victim);
                    }
                }
            } else {
                records++;
            }
        }
        tags[base + way] = (byte) tag;
        SetLru.touch(ranks, way);
        loc[base + way] = (int) (pos >>> blockShift) | (int) ((lap & 1) << GEN_SHIFT);
        writeRanks(base);
    }

    /** Forgets {@code key}; true if the index had it. */
    private boolean indexRemove(Id key) {
        int base = base(key);
        int way = find(base, IdBits.tag(key));
        if (way < 0) {
            return false;
        }
        boolean live = valid(base + way);
        clear(base, way);
        return live;
    }

    private void clear(int base, int way) {
        tags[base + way] = 0;
        records--;
        readRanks(base);
        SetLru.demote(ranks, way);
        writeRanks(base);
    }

    /** The key of entry {@code i} if its record still waits in a write buffer, else null. */
    private Id pendingKey(int i) {
        Segment s = pending(lapOf(i), offset(i));
        return s == null ? null : RecordFormat.keyAt(s.bytes, (int) (offset(i) - s.start));
    }

    private Segment pending(long l, long pos) {
        if (active != null && active.lap == l && pos >= active.start && pos < active.start + active.fill) {
            return active;
        }
        for (Segment s : sealed) {
            if (s.lap == l && pos >= s.start && pos < s.start + s.fill) {
                return s;
            }
        }
        return null;
    }

    /** Starts the next lap: entries two laps old (same generation bit) are gone. */
    private void wrap() {
        lap++;
        head = 0;
        int bit = (int) (lap & 1);
        for (int i = 0; i < tags.length; i++) {
            if (tags[i] != 0 && ((loc[i] >>> GEN_SHIFT) & 1) == bit) {
                tags[i] = 0;
                records--;
                stats.evictions.increment();
            }
        }
    }

    private long align(long n) {
        long block = 1L << blockShift;
        return (n + block - 1) & -block;
    }

    // ---- the write buffer (callers hold the lock) ----

    /** Appends a record to the write buffer; returns its file offset (in the current lap). */
    private long append(int magic, Id key, byte[] value, int aligned) {
        while (active.fill + aligned > active.bytes.length) {
            if (active.start + active.bytes.length == fileBytes) {
                int rest = active.bytes.length - active.fill;
                if (rest >= RecordFormat.HEADER) {
                    RecordFormat.encode(active.bytes, active.fill, RecordFormat.PADDING, RecordFormat.generation(epoch, lap),
                            Id.ZERO, null, rest - RecordFormat.HEADER);
                }
                active.fill = active.bytes.length;
                head = fileBytes;
            }
            sealActive();
        }
        long pos = active.start + active.fill;
        RecordFormat.encode(active.bytes, active.fill, magic, RecordFormat.generation(epoch, lap), key, value,
                value == null ? 0 : value.length);
        active.fill += aligned;
        head = pos + aligned;
        return pos;
    }

    private void sealActive() {
        if (active.fill > 0) {
            sealed.addLast(active);
        }
        if (active.start + active.fill == fileBytes) {
            wrap();
        }
        active = new Segment(lap, head, (int) Math.min(config.bufferBytes(), fileBytes - head));
    }

    private void awaitRoom() {
        while (sealed.size() >= MAX_PENDING && !closed) {
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

    // ---- RecordTier ----

    @Override
    public boolean put(Id key, byte[] value) {
        long aligned = align(RecordFormat.HEADER + (long) value.length);
        if (aligned > config.bufferBytes()) {
            return false;
        }
        List<Id> gone = new ArrayList<>(1);
        boolean flush;
        synchronized (this) {
            awaitRoom();
            long pos = append(RecordFormat.RECORD, key, value, (int) aligned);
            indexPut(key, pos, gone);
            flush = !sealed.isEmpty();
        }
        stats.inserts.increment();
        report(gone);
        if (flush) {
            requestFlush();
        }
        return true;
    }

    @Override
    public CompletableFuture<byte[]> get(Id key) {
        stats.lookups.increment();
        long pos;
        long generation;
        synchronized (this) {
            if (closed) {
                return CompletableFuture.completedFuture(null);
            }
            int base = base(key);
            int way = find(base, IdBits.tag(key));
            if (way >= 0 && !valid(base + way)) {
                clear(base, way);
                way = -1;
            }
            if (way < 0) {
                stats.memoryMisses.increment();
                return CompletableFuture.completedFuture(null);
            }
            readRanks(base);
            SetLru.touch(ranks, way);
            writeRanks(base);
            pos = offset(base + way);
            long l = lapOf(base + way);
            generation = RecordFormat.generation(epoch, l);
            Segment s = pending(l, pos);
            if (s != null) {
                int o = (int) (pos - s.start);
                RecordFormat.Check c = RecordFormat.check(s.bytes, o, s.fill - o, RecordFormat.RECORD, generation, key);
                if (c == RecordFormat.Check.OK) {
                    stats.bufferHits.increment();
                    return CompletableFuture.completedFuture(RecordFormat.value(s.bytes, o));
                }
                stats.refusal(c);
                return CompletableFuture.completedFuture(null);
            }
        }
        CompletableFuture<byte[]> f = new CompletableFuture<>();
        boolean queued = device.reads().submit(() -> readRecord(key, pos, generation), (v, e) -> {
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

    /** On the read stage: one read at the record's place (a second, contiguous one if it is long), then verify. */
    private byte[] readRecord(Id key, long pos, long generation) throws IOException {
        int first = (int) Math.min(config.readBytes(), fileBytes - pos);
        byte[] buf = new byte[first];
        int got = CheckpointFile.readFully(ch, buf, 0, first, pos);
        stats.diskReads.increment();
        stats.readBytes.add(got);
        if (got < RecordFormat.HEADER) {
            stats.corruptRefusals.increment();
            return null;
        }
        int length = RecordFormat.lengthAt(buf, 0);
        if (RecordFormat.magic(buf, 0) == RecordFormat.RECORD && length >= 0 && length <= config.bufferBytes()
                && RecordFormat.HEADER + length > got && RecordFormat.HEADER + (long) length <= fileBytes - pos) {
            byte[] all = new byte[RecordFormat.HEADER + length];
            System.arraycopy(buf, 0, all, 0, got);
            int more = CheckpointFile.readFully(ch, all, got, all.length - got, pos + got);
            stats.continuationReads.increment();
            stats.readBytes.add(more);
            buf = all;
            got += more;
        }
        RecordFormat.Check c = RecordFormat.check(buf, 0, got, RecordFormat.RECORD, generation, key);
        if (c != RecordFormat.Check.OK) {
            stats.refusal(c);
            return null;
        }
        stats.diskHits.increment();
        return RecordFormat.value(buf, 0);
    }

    /**
     * Visits every record the index holds, once each, with its current value: those still in a write
     * buffer from a copy taken under the lock, the rest read from the log on the read stage in offset
     * order (sequential reads of up to 1 MiB). Each record is verified as a read
     * verifies it (magic, generation, CRC, and a key that maps to the entry's set and tag); one that
     * does not is skipped and counted as a refused read. The index is snapshotted when the scan
     * starts: records put or removed during a scan may or may not be seen (a key put again since the
     * snapshot is skipped, never visited with its old value), and a record the log overwrites before
     * the scan reaches it is skipped. The
     * visitor runs on a read-stage thread, one call at a time. Completes exceptionally if the tier is
     * closed, the read stage refuses the scan, a read fails, or the visitor throws.
     */
    @Override
    public CompletableFuture<Void> scan(BiConsumer<Id, byte[]> visitor) {
        List<Id> bufferedKeys = new ArrayList<>();
        List<byte[]> bufferedValues = new ArrayList<>();
        long[] onDisk; // the offsets of the entries whose records are on disk
        int[] entry;
        long[] generation;
        int n = 0;
        synchronized (this) {
            if (closed || closing) {
                return CompletableFuture.failedFuture(new IllegalStateException("disk tier " + config.file() + " is closed"));
            }
            onDisk = new long[(int) Math.min(records, tags.length)];
            entry = new int[onDisk.length];
            generation = new long[onDisk.length];
            for (int i = 0; i < tags.length; i++) {
                if (tags[i] == 0 || !valid(i)) {
                    continue;
                }
                long pos = offset(i);
                long l = lapOf(i);
                long g = RecordFormat.generation(epoch, l);
                Segment s = pending(l, pos);
                if (s != null) {
                    int o = (int) (pos - s.start);
                    RecordFormat.Check c = RecordFormat.check(s.bytes, o, s.fill - o, RecordFormat.RECORD, g, null);
                    Id key = c == RecordFormat.Check.OK ? RecordFormat.keyAt(s.bytes, o) : null;
                    if (key != null && !owns(i, key)) {
                        c = RecordFormat.Check.OTHER_KEY;
                    }
                    if (c != RecordFormat.Check.OK) {
                        stats.refusal(c);
                        continue;
                    }
                    stats.bufferHits.increment();
                    bufferedKeys.add(key);
                    bufferedValues.add(RecordFormat.value(s.bytes, o));
                    continue;
                }
                if (n == onDisk.length) {
                    onDisk = java.util.Arrays.copyOf(onDisk, n * 2 + 8);
                    entry = java.util.Arrays.copyOf(entry, onDisk.length);
                    generation = java.util.Arrays.copyOf(generation, onDisk.length);
                }
                onDisk[n] = pos;
                entry[n] = i;
                generation[n] = g;
                n++;
            }
        }
        int count = n;
        long[] positions = onDisk;
        int[] entries = entry;
        long[] generations = generation;
        CompletableFuture<Void> done = new CompletableFuture<>();
        boolean queued = device.reads().submit(() -> {
            for (int k = 0; k < bufferedKeys.size(); k++) {
                visitor.accept(bufferedKeys.get(k), bufferedValues.get(k));
            }
            scanLog(positions, entries, generations, count, visitor);
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

    private static final int SCAN_WINDOW = 1 << 20;

    /** Whether {@code key} belongs at entry {@code i}: its set and tag (callers hold the lock or a snapshot). */
    private boolean owns(int i, Id key) {
        return base(key) == i - i % IdBits.WAYS && IdBits.tag(key) == (tags[i] & 0xff);
    }

    /** On the read stage: reads and verifies the records at {@code positions}, in offset order. */
    private void scanLog(long[] positions, int[] entries, long[] generations, int count, BiConsumer<Id, byte[]> visitor)
            throws IOException {
        Integer[] order = new Integer[count];
        for (int k = 0; k < count; k++) {
            order[k] = k;
        }
        java.util.Arrays.sort(order, (a, b) -> Long.compare(positions[a], positions[b]));
        byte[] window = new byte[(int) Math.min(fileBytes, Math.max(SCAN_WINDOW, config.bufferBytes() + RecordFormat.HEADER))];
        long windowStart = -1;
        int windowLength = 0;
        for (int r = 0; r < count; r++) {
            int k = order[r];
            long pos = positions[k];
            if (windowStart < 0 || pos + RecordFormat.HEADER > windowStart + windowLength) {
                windowStart = pos;
                windowLength = readWindow(window, pos, RecordFormat.HEADER, positions, order, r);
            }
            int o = (int) (pos - windowStart);
            int length = RecordFormat.lengthAt(window, o);
            if (length >= 0 && length <= fileBytes - pos - RecordFormat.HEADER && o + RecordFormat.HEADER + length > windowLength) {
                windowStart = pos;
                windowLength = readWindow(window, pos, RecordFormat.HEADER + length, positions, order, r);
                o = 0;
            }
            RecordFormat.Check c = RecordFormat.check(window, o, windowLength - o, RecordFormat.RECORD, generations[k], null);
            Id key = null;
            if (c == RecordFormat.Check.OK) {
                key = RecordFormat.keyAt(window, o);
                synchronized (this) {
                    int i = entries[k];
                    if (!owns(i, key)) {
                        c = RecordFormat.Check.OTHER_KEY;
                    } else if (!valid(i) || offset(i) != pos || RecordFormat.generation(epoch, lapOf(i)) != generations[k]) {
                        continue; // put again or dropped since the snapshot: not this record any more
                    }
                }
            }
            if (c != RecordFormat.Check.OK) {
                stats.refusal(c);
                continue;
            }
            stats.diskHits.increment();
            visitor.accept(key, RecordFormat.value(window, o));
        }
    }

    /**
     * Reads the log from {@code pos} (the record of {@code order[r]}) into {@code window}: as far as the
     * later records that fit in one window need (each at least {@code readBytes}), at most the window.
     */
    private int readWindow(byte[] window, long pos, int need, long[] positions, Integer[] order, int r) throws IOException {
        long limit = Math.min(fileBytes, pos + window.length);
        long end = Math.min(limit, pos + Math.max(config.readBytes(), need));
        for (int q = r + 1; q < order.length && positions[order[q]] + RecordFormat.HEADER <= limit; q++) {
            end = Math.max(end, Math.min(limit, positions[order[q]] + config.readBytes()));
        }
        int got = CheckpointFile.readFully(ch, window, 0, (int) (end - pos), pos);
        stats.diskReads.increment();
        stats.sequentialReadBytes.add(got);
        return got;
    }

    @Override
    public synchronized boolean mayContain(Id key) {
        int base = base(key);
        int way = find(base, IdBits.tag(key));
        return way >= 0 && valid(base + way);
    }

    @Override
    public boolean remove(Id key) {
        boolean had;
        boolean flush;
        synchronized (this) {
            awaitRoom();
            had = indexRemove(key);
            // Even when the index no longer has it: a record of the key may lie in the log a crash
            // would replay, and replay must not bring it back.
            append(RecordFormat.TOMBSTONE, key, null, (int) align(RecordFormat.HEADER));
            flush = !sealed.isEmpty();
        }
        if (flush) {
            requestFlush();
        }
        return had;
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
            sealActive();
        }
        device.runOnWriter(() -> {
            flushSealed();
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
            sealActive();
        }
        device.stopTimer();
        try {
            device.runOnWriter(() -> {
                flushSealed();
                device.force();
                checkpoint(true);
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
            sealed.clear();
            active = null;
            notifyAll();
        }
        device.stopTimer();
        device.close();
    }

    @Override
    public DiskPolicy policy() {
        return DiskPolicy.LOG;
    }

    /** A record must fit in one write buffer, header and block alignment included. */
    @Override
    public int maxValueBytes() {
        long block = 1L << blockShift;
        return (int) Math.max(0, (config.bufferBytes() & -block) - RecordFormat.HEADER);
    }

    @Override
    public DiskStats.Snapshot stats() {
        return stats.snapshot();
    }

    @Override
    public long indexBytes() {
        return (long) loc.length * Integer.BYTES + tags.length;
    }

    @Override
    public long indexEntries() {
        return tags.length;
    }

    // ---- the writer (write stage) ----

    private void requestFlush() {
        if (flushQueued.compareAndSet(false, true)) {
            boolean queued = device.writes().submit(() -> {
                flushQueued.set(false);
                flushSealed();
                maybeCheckpoint();
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
        boolean flush = false;
        synchronized (this) {
            if (closed || closing) {
                return;
            }
            if (active.fill > 0 && System.nanoTime() - active.createdNanos >= config.flushInterval().toNanos()) {
                sealActive();
            }
            flush = !sealed.isEmpty();
        }
        if (flush || (bytesSinceCheckpoint > 0
                && System.nanoTime() - lastCheckpointNanos >= config.checkpointInterval().toNanos())) {
            requestFlush();
        }
    }

    /** Writes every sealed buffer in order, each after reading the old records it overwrites. */
    private void flushSealed() throws IOException {
        while (true) {
            Segment s;
            synchronized (this) {
                s = sealed.peekFirst();
            }
            if (s == null) {
                return;
            }
            if (s.lap > 0) {
                readAhead(s);
            }
            CheckpointFile.writeFully(ch, s.bytes, 0, s.fill, s.start);
            stats.writes.increment();
            stats.flushes.increment();
            stats.writtenBytes.add(s.fill);
            if (s.start != lastWriteEnd) {
                stats.randomWrites.increment();
            }
            lastWriteEnd = s.start + s.fill;
            bytesSinceCheckpoint += s.fill;
            synchronized (this) {
                if (sealed.peekFirst() == s) {
                    sealed.removeFirst();
                }
                durableLap = s.lap;
                durableHead = s.start + s.fill;
                if (durableHead == fileBytes) {
                    durableLap++;
                    durableHead = 0;
                }
                notifyAll();
            }
        }
    }

    /**
     * Before a buffer overwrites its file range, reads the last lap's records there: their entries are
     * dropped and their keys reported; a key the index no longer has at all (an earlier set-conflict
     * victim) is reported now too.
     */
    private void readAhead(Segment s) throws IOException {
        if (scanLap != s.lap) {
            scanLap = s.lap;
            scanPos = 0;
        }
        long end = s.start + s.fill;
        if (scanPos >= end) {
            return;
        }
        long from = scanPos;
        int n = (int) (Math.min(end + RecordFormat.HEADER, fileBytes) - from);
        byte[] buf = new byte[n];
        int got = CheckpointFile.readFully(ch, buf, 0, n, from);
        stats.sequentialReadBytes.add(got);
        long oldGeneration = RecordFormat.generation(epoch, s.lap - 1);
        List<Id> gone = new ArrayList<>();
        long p = from;
        while (p < end) {
            int o = (int) (p - from);
            if (fileBytes - p < RecordFormat.HEADER || o + RecordFormat.HEADER > got) {
                p = fileBytes - p < RecordFormat.HEADER ? fileBytes : end;
                break;
            }
            int magic = RecordFormat.magic(buf, o);
            int length = RecordFormat.lengthAt(buf, o);
            if (RecordFormat.generationAt(buf, o) != oldGeneration || length < 0 || length > fileBytes - p
                    || (magic != RecordFormat.RECORD && magic != RecordFormat.TOMBSTONE && magic != RecordFormat.PADDING)) {
                p = end; // lost the thread (a torn write or never written): the lap sweep cleans up
                break;
            }
            if (magic == RecordFormat.PADDING) {
                p = fileBytes;
                break;
            }
            if (magic == RecordFormat.RECORD) {
                Id key = RecordFormat.keyAt(buf, o);
                synchronized (this) {
                    if (forgetOld(key, p, s.lap - 1)) {
                        gone.add(key);
                    }
                }
            }
            p += align(RecordFormat.HEADER + (long) length);
        }
        scanPos = p;
        report(gone);
    }

    /** Drops {@code key}'s entry if it points at {@code pos} of lap {@code oldLap}; true if the key has left. */
    private boolean forgetOld(Id key, long pos, long oldLap) {
        int base = base(key);
        int way = find(base, IdBits.tag(key));
        if (way < 0) {
            return true;
        }
        if (offset(base + way) == pos && lapOf(base + way) == oldLap) {
            clear(base, way);
            stats.evictions.increment();
            return true;
        }
        return false;
    }

    private void report(List<Id> gone) {
        for (Id k : gone) {
            try {
                evicted.accept(k);
            } catch (RuntimeException e) {
                LOG.warn("disk tier {}: eviction listener failed", config.file(), e);
            }
        }
    }

    private void maybeCheckpoint() throws IOException {
        if (bytesSinceCheckpoint >= fileBytes / 8 || (bytesSinceCheckpoint > 0
                && System.nanoTime() - lastCheckpointNanos >= config.checkpointInterval().toNanos())) {
            checkpoint(false);
        }
    }

    /**
     * Snapshots the index and writes it with the durable head: a restart loads it and replays the log
     * from there. Entries for records still buffered are in the snapshot too; replay keeps those whose
     * records landed and the sweep after it drops the rest.
     */
    private void checkpoint(boolean final_) throws IOException {
        int[] locCopy;
        byte[] tagCopy;
        long l;
        long h;
        synchronized (this) {
            if (durableLap != lap && !final_) {
                return; // a wrap waits in the buffer; the next flush will checkpoint
            }
            locCopy = loc.clone();
            tagCopy = tags.clone();
            l = durableLap;
            h = durableHead;
        }
        device.force();
        writeCheckpoint(locCopy, tagCopy, l, h);
    }

    private void writeCheckpoint(int[] locCopy, byte[] tagCopy, long l, long h) throws IOException {
        try (CheckpointFile.Writer w = new CheckpointFile.Writer(config.checkpointFile(), config.sync())) {
            w.longs(VERSION, fileBytes, sets, blockShift, epoch, l, h, scanLap, scanPos).ints(locCopy).bytes(tagCopy);
            long bytes = w.commit();
            stats.checkpoints.increment();
            stats.writes.increment();
            stats.randomWrites.increment();
            stats.writtenBytes.add(bytes);
        }
        bytesSinceCheckpoint = 0;
        lastCheckpointNanos = System.nanoTime();
    }
}
