package io.riptide.simulator.placement;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** How many reads each node answered in a measurement window, and how many reads no node answered. */
public final class ServedCounts {
    /** One node's tally. */
    public record NodeCount(int vertex, long requests) {
    }

    private final Map<Integer, Long> byVertex = new TreeMap<>();
    private long unanswered;

    /** The node at {@code vertex} answered one read. */
    public void served(int vertex) {
        byVertex.merge(vertex, 1L, Long::sum);
    }

    /** One read found no replica (failed or timed out). */
    public void unanswered() {
        unanswered++;
    }

    /** Reads answered by the busiest node; 0 if none was answered. */
    public long max() {
        return byVertex.values().stream().mapToLong(Long::longValue).max().orElse(0);
    }

    /** Reads answered by {@code vertex}. */
    public long of(int vertex) {
        return byVertex.getOrDefault(vertex, 0L);
    }

    /** Reads answered, by any node. */
    public long answered() {
        return byVertex.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Reads no node answered. */
    public long unansweredCount() {
        return unanswered;
    }

    /** Nodes that answered at least one read. */
    public int servingNodes() {
        return byVertex.size();
    }

    /** Every serving node, busiest first (ties by vertex, so the order is reproducible). */
    public List<NodeCount> busiestFirst() {
        List<NodeCount> out = new ArrayList<>();
        byVertex.forEach((v, n) -> out.add(new NodeCount(v, n)));
        out.sort(Comparator.comparingLong(NodeCount::requests).reversed().thenComparingInt(NodeCount::vertex));
        return out;
    }
}
