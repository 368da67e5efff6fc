package io.riptide.core.runtime.sim;

/**
 * The bandwidth-limited links a simulated message crosses and queues on: links are directed
 * (a full-duplex link is two), named by IDs {@code 0..linkCount()-1}. Links left out (fast LAN
 * hops, say) cost only their latency, which the {@link LatencyModel} already counts.
 */
public interface LinkModel {
    /** How many links there are. */
    int linkCount();

    /** Bandwidth of {@code link}, in bits per second. */
    long bitsPerSecond(int link);

    /**
     * Writes the links on the path from {@code from} to {@code to}, in the order crossed, into
     * {@code out} (long enough for any path) and returns how many there are.
     */
    int path(int from, int to, int[] out);

    /** Longest path {@link #path} can write. */
    int maxPathLength();
}
