package io.riptide.cachemanager.sim;

import io.riptide.core.runtime.sim.LatencyModel;

/**
 * A small test network of stubs: vertex v is in group v mod groups; inside a group latency is
 * 1–7 ms by vertex distance, across groups 20–50 ms by group distance (after dolr's test model).
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
