package io.riptide.cli.bench;

/** The proxy-overhead figures for one object size: the three routes' latencies and what each proxy adds at p50. */
public record OverheadRow(int sizeBytes, LatencyStats direct, LatencyStats proxy, LatencyStats squid) {
    /** Milliseconds the browser proxy adds to the direct fetch at p50 (NaN when not measured). */
    public double proxyAddedP50Ms() {
        return proxy.p50Ms() - direct.p50Ms();
    }

    /** Milliseconds Squid adds to the direct fetch at p50 (NaN when not measured). */
    public double squidAddedP50Ms() {
        return squid.p50Ms() - direct.p50Ms();
    }
}
