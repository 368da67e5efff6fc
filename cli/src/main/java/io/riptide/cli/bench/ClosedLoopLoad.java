package io.riptide.cli.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * A closed-loop load generator: each of N keep-alive connections sends its next request as soon as the previous
 * response is in, for a fixed time, and every latency is recorded. One thread per connection keeps each
 * measurement free of scheduling by the others.
 */
public final class ClosedLoopLoad {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private final int connections;
    private final Duration duration;

    /** {@code connections} connections, each busy for {@code duration}. */
    public ClosedLoopLoad(int connections, Duration duration) {
        if (connections < 1) {
            throw new IllegalArgumentException("need at least one connection, got " + connections);
        }
        this.connections = connections;
        this.duration = duration;
    }

    /** Runs {@code GET target} with {@code Host: host} against {@code server}; every response must be 200 of {@code size} bytes. */
    public LoadResult run(InetSocketAddress server, String target, String host, int size) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(connections);
        try {
            List<HttpConnection> opened = new ArrayList<>();
            try {
                for (int i = 0; i < connections; i++) {
                    opened.add(HttpConnection.open(server, TIMEOUT));
                }
                long start = System.nanoTime();
                long deadline = start + duration.toNanos();
                List<Future<Histogram>> workers = new ArrayList<>();
                for (HttpConnection c : opened) {
                    workers.add(pool.submit(() -> drive(c, target, host, size, deadline)));
                }
                Histogram all = LatencyStats.newHistogram();
                for (Future<Histogram> w : workers) {
                    all.add(w.get(duration.toNanos() + TIMEOUT.toNanos() * 2, TimeUnit.NANOSECONDS));
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                return new LoadResult(all.getTotalCount(), seconds, LatencyStats.of(all));
            } finally {
                opened.forEach(HttpConnection::close);
            }
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    private static Histogram drive(HttpConnection connection, String target, String host, int size, long deadline) throws IOException {
        Histogram latencies = LatencyStats.newHistogram();
        // Bounded by the deadline; each request is bounded by the socket's read timeout.
        while (System.nanoTime() < deadline) {
            long start = System.nanoTime();
            HttpResponse response = connection.get(target, host);
            latencies.recordValue(System.nanoTime() - start);
            if (response.status() != 200 || response.body().length != size) {
                throw new IOException("GET " + target + " answered " + HttpWire.firstLine(response.head()) + " with "
                        + response.body().length + " bytes, not 200 and " + size);
            }
        }
        return latencies;
    }
}
