package io.riptide.core.store.disk;

import io.riptide.core.id.Id;
import io.riptide.core.store.RecordTier;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.Consumer;

/**
 * A HashCache-style {@link RecordTier} on one device: {@link DiskPolicy#LOG} or {@link DiskPolicy#SETMEM}.
 * The in-memory index is packed primitive arrays (no object per record); disk I/O runs on the
 * device's own SEDA stages ({@code disk-read-<file>}, {@code disk-write-<file>}), never on the caller.
 */
public interface DiskTier extends RecordTier {

    /**
     * Opens (or creates) the tier at {@code config.file()}, recovering its index: from the checkpoint
     * plus a replay of the log written since (LOG), or from the clean-stop checkpoint or else a scan of
     * the disk table (SETMEM). {@code evicted} hears keys that left to make room, when the tier learns
     * them (see docs/architecture.md); it runs on the tier's threads and must be quick.
     */
    static DiskTier open(DiskTierConfig config, Consumer<Id> evicted) {
        try {
            return config.policy() == DiskPolicy.LOG ? LogTier.open(config, evicted) : SetMemTier.open(config, evicted);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open disk tier " + config.file(), e);
        }
    }

    DiskPolicy policy();

    /** The engine's counters. */
    DiskStats.Snapshot stats();

    /** Bytes of the index's packed arrays (their lengths times their element sizes). */
    long indexBytes();

    /** Entries the index has room for. */
    long indexEntries();

    /**
     * Stops like a killed process: drops the write buffer and writes no checkpoint, then releases the
     * file and threads. What reached the file stays (as after {@code kill -9}, the OS keeps written pages).
     * For crash tests and the restart benchmark.
     */
    void simulateCrash();
}
