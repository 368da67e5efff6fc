package io.riptide.simulator.topology;

import java.util.Arrays;
import java.util.List;

/** An undirected graph with integer edge weights in compact (CSR) form, answering single-source shortest paths. */
final class WeightedGraph {
    private final int vertices;
    private final int[] offsets;
    private final int[] targets;
    private final int[] weights;

    /** A graph on vertices {@code 0..vertices-1}; each edge is {@code {a, b, weight}}. */
    WeightedGraph(int vertices, List<int[]> edges) {
        this.vertices = vertices;
        this.offsets = new int[vertices + 1];
        for (int[] e : edges) {
            offsets[e[0] + 1]++;
            offsets[e[1] + 1]++;
        }
        for (int v = 0; v < vertices; v++) {
            offsets[v + 1] += offsets[v];
        }
        this.targets = new int[offsets[vertices]];
        this.weights = new int[offsets[vertices]];
        int[] fill = Arrays.copyOf(offsets, vertices);
        for (int[] e : edges) {
            add(fill, e[0], e[1], e[2]);
            add(fill, e[1], e[0], e[2]);
        }
    }

    private void add(int[] fill, int from, int to, int weight) {
        int slot = fill[from]++;
        targets[slot] = to;
        weights[slot] = weight;
    }

    /**
     * Shortest-path distance from {@code source} to every vertex, written to {@code out} starting at
     * {@code outOffset}. Dijkstra over a primitive heap, because it runs once per host.
     */
    void distancesFrom(int source, int[] out, int outOffset) {
        int[] dist = new int[vertices];
        Arrays.fill(dist, Integer.MAX_VALUE);
        // Lazy deletion: a vertex may sit in the heap once per incoming edge, plus the source.
        long[] heap = new long[targets.length + 1];
        int size = 0;
        dist[source] = 0;
        heap[size++] = pack(0, source);
        while (size > 0) {
            long top = heap[0];
            heap[0] = heap[--size];
            siftDown(heap, size);
            int d = (int) (top >>> 32);
            int v = (int) top;
            if (d > dist[v]) {
                continue;
            }
            for (int i = offsets[v]; i < offsets[v + 1]; i++) {
                int w = targets[i];
                int nd = d + weights[i];
                if (nd < dist[w]) {
                    dist[w] = nd;
                    heap[size] = pack(nd, w);
                    siftUp(heap, size++);
                }
            }
        }
        for (int v = 0; v < vertices; v++) {
            if (dist[v] == Integer.MAX_VALUE) {
                throw new IllegalStateException("graph is not connected: vertex " + v + " unreachable from " + source);
            }
        }
        System.arraycopy(dist, 0, out, outOffset, vertices);
    }

    private static long pack(int distance, int vertex) {
        return ((long) distance << 32) | vertex;
    }

    private static void siftUp(long[] heap, int i) {
        long x = heap[i];
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (heap[parent] <= x) {
                break;
            }
            heap[i] = heap[parent];
            i = parent;
        }
        heap[i] = x;
    }

    private static void siftDown(long[] heap, int size) {
        if (size == 0) {
            return;
        }
        long x = heap[0];
        int i = 0;
        while (true) {
            int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && heap[child + 1] < heap[child]) {
                child++;
            }
            if (heap[child] >= x) {
                break;
            }
            heap[i] = heap[child];
            i = child;
        }
        heap[i] = x;
    }
}
