package io.riptide.core.store.disk;

import java.util.concurrent.atomic.LongAdder;

/**
 * What a disk tier did, counted in the engine so a benchmark reads it rather than guesses: disk reads
 * (each a positioned read at a new place, a seek on a spinning disk), writes and how many of them
 * were not sequential, and why reads were refused.
 */
public final class DiskStats {
    final LongAdder inserts = new LongAdder();
    final LongAdder lookups = new LongAdder();
    final LongAdder diskReads = new LongAdder();
    final LongAdder continuationReads = new LongAdder();
    final LongAdder readBytes = new LongAdder();
    final LongAdder sequentialReadBytes = new LongAdder();
    final LongAdder writes = new LongAdder();
    final LongAdder randomWrites = new LongAdder();
    final LongAdder writtenBytes = new LongAdder();
    final LongAdder flushes = new LongAdder();
    final LongAdder bufferHits = new LongAdder();
    final LongAdder memoryMisses = new LongAdder();
    final LongAdder tagCollisions = new LongAdder();
    final LongAdder staleRefusals = new LongAdder();
    final LongAdder corruptRefusals = new LongAdder();
    final LongAdder diskHits = new LongAdder();
    final LongAdder evictions = new LongAdder();
    final LongAdder refused = new LongAdder();
    final LongAdder checkpoints = new LongAdder();

    /**
     * A snapshot.
     *
     * @param inserts records accepted by put
     * @param lookups gets
     * @param diskReads positioned reads at a new place (one per disk lookup; a seek on a spinning disk)
     * @param continuationReads reads continuing a record longer than the first read (no seek)
     * @param readBytes bytes read by lookups
     * @param sequentialReadBytes bytes read sequentially by recovery and by the log's look-ahead before it overwrites
     * @param writes write calls to the data file and the checkpoint
     * @param randomWrites writes not starting where the previous write to the data file ended (seeks)
     * @param writtenBytes bytes written to the data file and the checkpoint
     * @param flushes write-buffer flushes
     * @param bufferHits gets answered from records still waiting in the write buffer
     * @param memoryMisses gets the index answered "absent" without touching the disk
     * @param tagCollisions disk reads that found a sound record of another key (a miss)
     * @param staleRefusals disk reads that found a record of another generation (a miss)
     * @param corruptRefusals disk reads that found a torn, corrupt or empty record (a miss)
     * @param diskHits gets answered from the disk
     * @param evictions index entries dropped to make room (set conflicts and log overwrites)
     * @param refused disk reads the I/O stage refused because its queue was full (a miss)
     * @param checkpoints index checkpoints written
     */
    public record Snapshot(long inserts, long lookups, long diskReads, long continuationReads, long readBytes,
            long sequentialReadBytes, long writes, long randomWrites, long writtenBytes, long flushes, long bufferHits,
            long memoryMisses, long tagCollisions, long staleRefusals, long corruptRefusals, long diskHits, long evictions,
            long refused, long checkpoints) {

        /** This snapshot minus an earlier one. */
        public Snapshot minus(Snapshot o) {
            return new Snapshot(inserts - o.inserts, lookups - o.lookups, diskReads - o.diskReads,
                    continuationReads - o.continuationReads, readBytes - o.readBytes, sequentialReadBytes - o.sequentialReadBytes,
                    writes - o.writes, randomWrites - o.randomWrites, writtenBytes - o.writtenBytes, flushes - o.flushes,
                    bufferHits - o.bufferHits, memoryMisses - o.memoryMisses, tagCollisions - o.tagCollisions,
                    staleRefusals - o.staleRefusals, corruptRefusals - o.corruptRefusals, diskHits - o.diskHits,
                    evictions - o.evictions, refused - o.refused, checkpoints - o.checkpoints);
        }
    }

    public Snapshot snapshot() {
        return new Snapshot(inserts.sum(), lookups.sum(), diskReads.sum(), continuationReads.sum(), readBytes.sum(),
                sequentialReadBytes.sum(), writes.sum(), randomWrites.sum(), writtenBytes.sum(), flushes.sum(), bufferHits.sum(),
                memoryMisses.sum(), tagCollisions.sum(), staleRefusals.sum(), corruptRefusals.sum(), diskHits.sum(),
                evictions.sum(), refused.sum(), checkpoints.sum());
    }

    void refusal(RecordFormat.Check c) {
        switch (c) {
            case OTHER_KEY -> tagCollisions.increment();
            case STALE -> staleRefusals.increment();
            case CORRUPT, EMPTY -> corruptRefusals.increment();
            case OK -> { }
        }
    }
}
