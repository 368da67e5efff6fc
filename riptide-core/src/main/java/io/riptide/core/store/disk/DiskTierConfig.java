package io.riptide.core.store.disk;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * How one disk tier (one device) is laid out and paced.
 *
 * @param file the pre-allocated data file (the log or the disk table); the checkpoint sits beside it
 * @param policy {@link DiskPolicy#LOG} or {@link DiskPolicy#SETMEM}
 * @param indexEntries index entries (rounded up to whole 8-way sets): the most records the tier holds
 * @param logBytes size of the circular log (LOG only; SETMEM's file is entries times slot size)
 * @param slotBytes bytes per disk-table slot, header included (SETMEM only): the largest record it takes
 * @param bufferBytes write buffer: records are flushed in sequential writes of up to this size;
 *        also the largest LOG record
 * @param flushInterval a non-empty write buffer older than this is flushed even if not full
 * @param checkpointInterval LOG writes an index checkpoint at least this often while records arrive
 *        (and after every eighth of the log), so a restart replays little
 * @param readBytes bytes of a LOG lookup's one read; longer records need a continuation read
 * @param readThreads most threads of the device's read stage
 * @param readQueue bound of the read stage's queue; a get beyond it is a miss
 * @param sync whether flush and checkpoints fsync (off only for tests: a killed process keeps its
 *        written pages anyway, a power cut does not)
 */
public record DiskTierConfig(Path file, DiskPolicy policy, long indexEntries, long logBytes, int slotBytes,
        int bufferBytes, Duration flushInterval, Duration checkpointInterval, int readBytes, int readThreads, int readQueue, boolean sync) {

    public DiskTierConfig {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(policy, "policy");
        if (indexEntries < IdBits.WAYS || indexEntries > (1L << 31) - 64) {
            throw new IllegalArgumentException("indexEntries must be in [8, 2^31 - 64], got " + indexEntries);
        }
        if (bufferBytes < 4096 || bufferBytes > (64 << 20)) {
            throw new IllegalArgumentException("bufferBytes must be in [4 KiB, 64 MiB], got " + bufferBytes);
        }
        if (policy == DiskPolicy.LOG && logBytes < 8L * bufferBytes) {
            throw new IllegalArgumentException("logBytes must be at least 8 write buffers, got " + logBytes);
        }
        if (policy == DiskPolicy.SETMEM && (slotBytes < RecordFormat.HEADER + 1 || slotBytes > bufferBytes)) {
            throw new IllegalArgumentException("slotBytes must be in [" + (RecordFormat.HEADER + 1) + ", bufferBytes], got " + slotBytes);
        }
        if (readBytes < RecordFormat.HEADER || readThreads < 1 || readQueue < 2) {
            throw new IllegalArgumentException("need readBytes >= header, readThreads >= 1, readQueue >= 2");
        }
        Objects.requireNonNull(flushInterval, "flushInterval");
        Objects.requireNonNull(checkpointInterval, "checkpointInterval");
    }

    /** A LOG tier: 4 MiB write buffer (less for a log under 32 MiB) flushed at least every 50 ms, a checkpoint at least every 60 s, 4 KiB reads. */
    public static DiskTierConfig log(Path file, long indexEntries, long logBytes) {
        int buffer = (int) Math.max(4096, Math.min(4 << 20, logBytes / 8));
        return new DiskTierConfig(file, DiskPolicy.LOG, indexEntries, logBytes, 0, buffer, Duration.ofMillis(50),
                Duration.ofSeconds(60), 4096, 2, 4096, true);
    }

    /** A SETMEM tier of {@code indexEntries} slots of {@code slotBytes}. */
    public static DiskTierConfig setMem(Path file, long indexEntries, int slotBytes) {
        return new DiskTierConfig(file, DiskPolicy.SETMEM, indexEntries, 0, slotBytes, 4 << 20, Duration.ofMillis(50),
                Duration.ofSeconds(60), 4096, 2, 4096, true);
    }

    /** 8-way sets in the index. */
    public long sets() {
        return (indexEntries + IdBits.WAYS - 1) / IdBits.WAYS;
    }

    public DiskTierConfig withBufferBytes(int bytes) {
        return new DiskTierConfig(file, policy, indexEntries, logBytes, slotBytes, bytes, flushInterval, checkpointInterval,
                readBytes, readThreads, readQueue, sync);
    }

    public DiskTierConfig withFlushInterval(Duration d) {
        return new DiskTierConfig(file, policy, indexEntries, logBytes, slotBytes, bufferBytes, d, checkpointInterval,
                readBytes, readThreads, readQueue, sync);
    }

    public DiskTierConfig withCheckpointInterval(Duration d) {
        return new DiskTierConfig(file, policy, indexEntries, logBytes, slotBytes, bufferBytes, flushInterval, d,
                readBytes, readThreads, readQueue, sync);
    }

    public DiskTierConfig withReadBytes(int bytes) {
        return new DiskTierConfig(file, policy, indexEntries, logBytes, slotBytes, bufferBytes, flushInterval, checkpointInterval,
                bytes, readThreads, readQueue, sync);
    }

    public DiskTierConfig withSync(boolean on) {
        return new DiskTierConfig(file, policy, indexEntries, logBytes, slotBytes, bufferBytes, flushInterval, checkpointInterval,
                readBytes, readThreads, readQueue, on);
    }

    /** The checkpoint file beside the data file. */
    Path checkpointFile() {
        return file.resolveSibling(file.getFileName() + ".ckpt");
    }
}
