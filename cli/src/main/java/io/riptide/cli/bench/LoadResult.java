package io.riptide.cli.bench;

/** What a closed-loop load run achieved: responses, the time they took, the rate and the latencies. */
public record LoadResult(long responses, double seconds, LatencyStats latency) {
    /** Responses per second over the run. */
    public double rps() {
        return responses / seconds;
    }
}
