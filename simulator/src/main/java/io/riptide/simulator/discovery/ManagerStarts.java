package io.riptide.simulator.discovery;

import io.riptide.simulator.topology.TransitStubTopology;

/**
 * The cache managers of the experiment: where each runs and when it starts offering the service
 * (from the start of the hint traffic). Answers which running manager is truly nearest a client.
 */
public record ManagerStarts(int[] vertices, long[] startNanos) {
    public ManagerStarts {
        if (vertices.length != startNanos.length || vertices.length == 0) {
            throw new IllegalArgumentException("one start time per manager, at least one manager");
        }
        for (int i = 1; i < startNanos.length; i++) {
            if (startNanos[i] < startNanos[i - 1]) {
                throw new IllegalArgumentException("managers must start in order");
            }
        }
    }

    /** How many managers. */
    public int count() {
        return vertices.length;
    }

    /** The index of the manager at {@code vertex}, or -1 if it is not a manager. */
    public int indexOf(int vertex) {
        for (int i = 0; i < vertices.length; i++) {
            if (vertices[i] == vertex) {
                return i;
            }
        }
        return -1;
    }

    /** When manager {@code i}'s turn as the newest ends: the next start, or {@code endNanos} for the last. */
    public long nextStartOrEnd(int i, long endNanos) {
        return i + 1 < startNanos.length ? startNanos[i + 1] : endNanos;
    }

    /** The running manager (started at or before {@code atNanos}) nearest {@code client} by true latency; -1 if none runs. */
    public int nearest(TransitStubTopology topology, int client, long atNanos) {
        int best = -1;
        long bestLatency = Long.MAX_VALUE;
        for (int i = 0; i < vertices.length && startNanos[i] <= atNanos; i++) {
            long latency = topology.latencyNanos(client, vertices[i]);
            if (latency < bestLatency) {
                best = i;
                bestLatency = latency;
            }
        }
        return best;
    }
}
