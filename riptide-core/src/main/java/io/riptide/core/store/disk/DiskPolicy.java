package io.riptide.core.store.disk;

/** How a disk tier lays out its device and what its in-memory index keeps (HashCache, NSDI 2009, Table 3). */
public enum DiskPolicy {
    /**
     * HashCache-Log: records are appended to a circular log written in large sequential flushes; the
     * index keeps a tag, an LRU rank, the log block offset and a generation bit per entry (40 bits).
     */
    LOG,
    /**
     * HashCache-SetMem: records live in a fixed set-associative disk table, one fixed-size slot per
     * entry, written in place; the index keeps only a tag per entry and one LRU code per set (10 bits).
     */
    SETMEM
}
