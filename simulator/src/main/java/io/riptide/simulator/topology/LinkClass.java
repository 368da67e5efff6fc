package io.riptide.simulator.topology;

/** The paper's three kinds of link (GT-ITM transit-stub), with their bandwidth and one-way latency range. */
public enum LinkClass {
    /** Between two hosts of one stub domain: 100 Mb/s, 1–7 ms. */
    INTRA_STUB(100_000_000L, 1_000, 7_000),
    /** Between a stub's border host and its transit router: 1.5 Mb/s, 10–30 ms. */
    STUB_TRANSIT(1_500_000L, 10_000, 30_000),
    /** Between two transit routers, within or across transit domains: 45 Mb/s, 10–30 ms. */
    TRANSIT_TRANSIT(45_000_000L, 10_000, 30_000);

    private final long bitsPerSecond;
    private final int minLatencyMicros;
    private final int maxLatencyMicros;

    LinkClass(long bitsPerSecond, int minLatencyMicros, int maxLatencyMicros) {
        this.bitsPerSecond = bitsPerSecond;
        this.minLatencyMicros = minLatencyMicros;
        this.maxLatencyMicros = maxLatencyMicros;
    }

    /** Link bandwidth in bits per second. */
    public long bitsPerSecond() {
        return bitsPerSecond;
    }

    /** Shortest one-way latency a link of this class is given, in microseconds. */
    public int minLatencyMicros() {
        return minLatencyMicros;
    }

    /** Longest one-way latency a link of this class is given, in microseconds. */
    public int maxLatencyMicros() {
        return maxLatencyMicros;
    }
}
