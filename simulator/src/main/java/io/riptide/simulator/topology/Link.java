package io.riptide.simulator.topology;

/**
 * One undirected link of the explicit topology graph. Vertices {@code 0..hosts-1} are the stub hosts;
 * transit router {@code r} is vertex {@code hosts + r}.
 */
public record Link(int a, int b, int latencyMicros, LinkClass linkClass) {
}
