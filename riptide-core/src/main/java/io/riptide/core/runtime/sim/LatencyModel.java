package io.riptide.core.runtime.sim;

/** One-way message latency between two simulated hosts, named by their topology vertex. */
@FunctionalInterface
public interface LatencyModel {
    /** Nanoseconds for a message from {@code from} to {@code to}; zero for a host to itself. */
    long latencyNanos(int from, int to);
}
