package io.riptide.dolr.store;

import io.riptide.core.store.disk.DiskPolicy;
import io.riptide.core.store.disk.DiskTierConfig;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Where and how big a node's disk-backed replica store is: {@code riptide node --store DIR --disk-gb N
 * --memory-mb M --store-policy log|setmem}.
 *
 * @param dir         directory of the store's files (created if missing); the same directory after a
 *                    restart brings the replicas back
 * @param diskBytes   size of the disk tier's file (the log, or the SetMem disk table)
 * @param memoryBytes the memory tier in front of it (W-TinyLFU), for hot objects
 * @param policy      the disk tier's HashCache policy
 */
public record StoreSettings(Path dir, long diskBytes, long memoryBytes, DiskPolicy policy) {
    /** The node's stage its disk writes run on ({@link DiskWrites}); a node with a disk store must have it. */
    public static final String DISK_STAGE = "disk";
    /** Bytes a LOG record is assumed to take on average, to size the index: one entry per 4 KiB of log. */
    public static final int LOG_BYTES_PER_ENTRY = 4096;
    /** SetMem's slot, header included: the largest replica body a SETMEM store takes. */
    public static final int SETMEM_SLOT_BYTES = 64 * 1024;
    /** Least disk tier: eight 4 MiB write buffers. */
    public static final long MIN_DISK_BYTES = 32L << 20;
    /** Least memory tier. */
    public static final long MIN_MEMORY_BYTES = 1L << 20;

    public StoreSettings {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(policy, "policy");
        if (diskBytes < MIN_DISK_BYTES) {
            throw new IllegalArgumentException("the disk tier needs at least " + (MIN_DISK_BYTES >> 20) + " MiB, got " + diskBytes + " bytes");
        }
        if (memoryBytes < MIN_MEMORY_BYTES) {
            throw new IllegalArgumentException("the memory tier needs at least 1 MiB, got " + memoryBytes + " bytes");
        }
    }

    /** The disk tier's layout: one file in {@link #dir}, named for the policy, its checkpoint beside it. */
    public DiskTierConfig diskTier() {
        long maxEntries = (1L << 31) - 64;
        if (policy == DiskPolicy.LOG) {
            long entries = Math.max(64, Math.min(maxEntries, diskBytes / LOG_BYTES_PER_ENTRY));
            return DiskTierConfig.log(dir.resolve("replicas.log"), entries, diskBytes);
        }
        long entries = Math.max(64, Math.min(maxEntries, diskBytes / SETMEM_SLOT_BYTES));
        return DiskTierConfig.setMem(dir.resolve("replicas.tab"), entries, SETMEM_SLOT_BYTES);
    }
}
