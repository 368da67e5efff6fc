/**
 * Where an overlay node keeps its replicas ({@code ReplicaStorage}): on the heap
 * ({@code MemoryStorage}, deterministic, the simulator's) or on disk ({@code DiskStorage}: a
 * W-TinyLFU memory tier over a HashCache disk tier, with the node's version floor beside it in
 * {@code VersionFloorFile}, and the provider key revocations it learned in {@code KeyRecordsFile}).
 *
 * <pre>
 *  node loop ── ContentStore.put/remove ──► WriteBehindTier ── pending map (reads see queued writes)
 *                                                │
 *                                                ▼
 *                                  DiskWrites: bounded queue, in order ──► node's disk stage
 *                                                                          (TieredStore → LogTier/SetMemTier,
 *                                                                           version floor appends)
 * </pre>
 *
 * <p>On a disk node nothing here blocks the loop: writes are queued and run on the node's
 * {@code disk} stage ({@code DiskWrites}), a full queue refuses the replica rather than wait, and
 * reads continue on the loop through {@code OnLoop}. See docs/architecture.md, "Disk writes off the
 * loop" and "The version floor on disk".
 */
package io.riptide.dolr.store;
