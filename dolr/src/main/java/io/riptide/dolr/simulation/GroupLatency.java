package io.riptide.dolr.simulation;

import io.riptide.core.runtime.sim.LatencyModel;

/**
 * A small model network for tests and examples: vertices fall into groups (v mod groups); inside a group latency grows
 * with the distance between vertex numbers (1–7 ms), across groups it is 20–50 ms by group distance.
 */
public record GroupLatency(int groups) implements LatencyModel {
    public int groupOf(int vertex) {
        return vertex % groups;
    }

    @Override
    public long latencyNanos(int from, int to) {
        if (from == to) {
            return 0;
        }
        int ga = groupOf(from);
        int gb = groupOf(to);
        if (ga == gb) {
            return 1_000_000L + (Math.abs(from - to) / groups % 7) * 1_000_000L;
        }
        int d = Math.min(Math.abs(ga - gb), groups - Math.abs(ga - gb));
        return 20_000_000L + d * 30_000_000L / Math.max(1, groups / 2);
    }
}
