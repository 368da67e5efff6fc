package io.riptide.proxy.cache;

/**
 * What the proxy's memory tier holds and has done, for the status page and {@code /metrics}.
 *
 * @param entries   copies and variant records kept
 * @param bytes     bytes charged against the bound: bodies off the heap plus their bookkeeping on it
 * @param maxBytes  the bound ({@code --memory-mb})
 * @param hits      requests answered from memory without an overlay read
 * @param misses    cacheable requests memory could not answer alone (not kept, stale, or not for this request)
 * @param stored    copies put (a new body; renewals of a kept version are not counted)
 * @param evictions entries pushed out to keep within the bound (W-TinyLFU may refuse a new one at once)
 */
public record MemoryFigures(long entries, long bytes, long maxBytes, long hits, long misses, long stored, long evictions) {
    /** Hits over all memory lookups, or 0 before any. */
    public double hitRatio() {
        long all = hits + misses;
        return all == 0 ? 0 : (double) hits / all;
    }
}
