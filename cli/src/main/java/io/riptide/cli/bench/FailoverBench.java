package io.riptide.cli.bench;

import io.riptide.cli.demo.LoopbackRiptide;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.dolr.client.AccessFigures;
import io.riptide.dolr.server.OverlayServer;
import io.riptide.proxy.cache.CacheFigures;
import io.riptide.proxy.cache.OverlayCacheConfig;
import io.riptide.proxy.cache.ProxyCache;
import io.riptide.simulator.report.CsvWriter;
import io.riptide.simulator.report.Progress;
import io.riptide.simulator.report.ResultJson;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Overlay hits per second through the browser proxy, second by second, while the proxy's nearest access node
 * crashes (no goodbye; its sockets close as a {@code kill -9}'s do): what a user behind the proxy sees of an access
 * node's death. A loopback overlay of four storage nodes, a gateway and a cache manager, the proxy in this JVM with
 * its memory tier off (every hit is an overlay read), one 1 KB URL made a hit, then closed-loop load; the nearest
 * access node is crashed after {@link #WARMUP} and {@code before}, and the load goes on for {@code after}.
 */
public final class FailoverBench {
    private static final Duration HIT_PATIENCE = Duration.ofSeconds(15);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
    private static final int SIZE = 1024;
    /** Load before the measured seconds, discarded: the JIT and the connections settle. */
    static final Duration WARMUP = Duration.ofSeconds(5);

    private final int connections;
    private final Duration before;
    private final Duration after;
    private final Path out;
    private final Progress progress;

    public FailoverBench(int connections, Duration before, Duration after, Path out, Progress progress) {
        this.connections = connections;
        this.before = before;
        this.after = after;
        this.out = out;
        this.progress = progress;
    }

    /**
     * Per second of load: answers, of them overlay hits and misses, and the slowest answer; and answers per tenth of a
     * second, to show how long a dip lasts within its second.
     */
    private record Seconds(AtomicLongArray answers, AtomicLongArray hits, AtomicLongArray misses, AtomicLongArray slowestMicros,
            AtomicLongArray tenths) {
        static Seconds of(int n) {
            return new Seconds(new AtomicLongArray(n), new AtomicLongArray(n), new AtomicLongArray(n), new AtomicLongArray(n),
                    new AtomicLongArray(10 * n));
        }

        void record(long sinceStartNanos, boolean hit, boolean miss, long micros) {
            int second = (int) Math.floorDiv(sinceStartNanos, 1_000_000_000L);
            if (second < 0 || second >= answers.length()) {
                return;
            }
            tenths.incrementAndGet((int) (sinceStartNanos / 100_000_000L));
            answers.incrementAndGet(second);
            if (hit) {
                hits.incrementAndGet(second);
            }
            if (miss) {
                misses.incrementAndGet(second);
            }
            slowestMicros.accumulateAndGet(second, micros, Math::max);
        }
    }

    /** Runs it and writes {@code result.json} and {@code failover.csv}; returns the result as text. */
    public String run() throws Exception {
        Files.createDirectories(out);
        OverlayCacheConfig cache = LoopbackRiptide.OVERLAY_ONLY.withMemory(0, Duration.ofSeconds(2));
        try (LoopbackOrigin origin = LoopbackOrigin.start(List.of(SIZE), 1);
                LoopbackRiptide riptide = new LoopbackRiptide(4, 1, 0, cache)) {
            URI url = URI.create("http://" + origin.authority() + LoopbackOrigin.path(SIZE));
            if (!riptide.makeHit(url, HIT_PATIENCE)) {
                throw new IllegalStateException(url + " was not served from the overlay within " + HIT_PATIENCE.toSeconds() + " s");
            }
            InetSocketAddress proxy = riptide.proxyAddress();
            int total = (int) (before.toSeconds() + after.toSeconds());
            Seconds seconds = Seconds.of(total);
            progress.begin(String.format(Locale.ROOT, "%d connections, %d s warm-up + %d s, the nearest access node crashed after %d s",
                    connections, WARMUP.toSeconds(), total, before.toSeconds()), (int) WARMUP.toSeconds() + total);
            ExecutorService pool = Executors.newFixedThreadPool(connections);
            List<HttpConnection> opened = new ArrayList<>();
            NodeHandle killed;
            List<NodeHandle> accessBefore;
            CacheFigures figuresBefore;
            try {
                for (int i = 0; i < connections; i++) {
                    opened.add(HttpConnection.open(proxy, REQUEST_TIMEOUT));
                }
                long start = System.nanoTime() + WARMUP.toNanos();
                long end = start + before.plus(after).toNanos();
                List<Future<?>> workers = new ArrayList<>();
                for (HttpConnection c : opened) {
                    workers.add(pool.submit(() -> drive(c, url, start, end, seconds)));
                }
                sleepUntil(start + before.toNanos(), progress);
                accessBefore = riptide.proxy().accessNodes();
                figuresBefore = figures(riptide);
                killed = accessBefore.isEmpty() ? null : accessBefore.get(0);
                if (killed != null) {
                    for (OverlayServer s : riptide.all()) {
                        if (s.address().equals(killed.address())) {
                            s.crash();
                        }
                    }
                }
                sleepUntil(end, progress);
                for (Future<?> w : workers) {
                    w.get(REQUEST_TIMEOUT.toSeconds() * 2, TimeUnit.SECONDS);
                }
            } finally {
                opened.forEach(HttpConnection::close);
                pool.shutdownNow();
                pool.awaitTermination(10, TimeUnit.SECONDS);
            }
            progress.finish();
            List<NodeHandle> accessAfter = riptide.proxy().accessNodes();
            CacheFigures figuresAfter = figures(riptide);
            return write(seconds, killed, accessBefore, accessAfter, figuresBefore, figuresAfter);
        }
    }

    private static CacheFigures figures(LoopbackRiptide riptide) {
        return riptide.proxy().inspect(ProxyCache::figures, null);
    }

    private static void sleepUntil(long nanos, Progress progress) throws InterruptedException {
        long now;
        while ((now = System.nanoTime()) < nanos) {
            Thread.sleep(Math.min(1000, Math.max(1, (nanos - now) / 1_000_000)));
            progress.step();
        }
    }

    private static Void drive(HttpConnection c, URI url, long start, long end, Seconds seconds) throws IOException {
        // Bounded by the end of the run; each request by the socket's read timeout.
        while (System.nanoTime() < end) {
            long sent = System.nanoTime();
            HttpResponse r = c.get(url.toString(), url.getAuthority());
            long done = System.nanoTime();
            if (r.status() != 200 || r.body().length != SIZE) {
                throw new IOException("GET " + url + " answered " + HttpWire.firstLine(r.head()));
            }
            String status = HttpWire.header(r.head(), "Cache-Status").orElse("");
            seconds.record(done - start, status.contains("; hit"), status.contains("fwd=miss"),
                    (done - sent) / 1000);
        }
        return null;
    }

    private String write(Seconds s, NodeHandle killed, List<NodeHandle> accessBefore, List<NodeHandle> accessAfter,
            CacheFigures figuresBefore, CacheFigures figuresAfter) throws IOException {
        int n = s.answers().length();
        int kill = (int) before.toSeconds();
        long[] answers = new long[n];
        long[] tenths = new long[10 * n];
        for (int i = 0; i < tenths.length; i++) {
            tenths[i] = s.tenths().get(i);
        }
        long[] hits = new long[n];
        long[] misses = new long[n];
        double[] slowestMs = new double[n];
        StringBuilder table = new StringBuilder("second  reads/s  hits  misses  slowest ms\n");
        try (CsvWriter csv = new CsvWriter(out.resolve("failover.csv"), List.of("second", "reads", "hits", "misses", "slowest_ms"))) {
            for (int i = 0; i < n; i++) {
                answers[i] = s.answers().get(i);
                hits[i] = s.hits().get(i);
                misses[i] = s.misses().get(i);
                slowestMs[i] = s.slowestMicros().get(i) / 1000.0;
                int second = i - kill;
                csv.row(second, answers[i], hits[i], misses[i], slowestMs[i]);
                table.append(String.format(Locale.ROOT, "%+6d  %7d  %4d  %6d  %10.1f%n", second, answers[i], hits[i], misses[i], slowestMs[i]));
            }
        }
        double meanBefore = mean(answers, 0, kill);
        double meanAfter3 = mean(answers, kill, Math.min(n, kill + 3));
        long minAfter = Long.MAX_VALUE;
        for (int i = kill; i < n; i++) {
            minAfter = Math.min(minAfter, answers[i]);
        }
        boolean deadListed = killed != null && accessAfter.stream().anyMatch(h -> h.id().equals(killed.id()));
        boolean counted = figuresAfter != null && figuresBefore != null;
        AccessFigures a = counted ? figuresAfter.access() : AccessFigures.NONE;
        AccessFigures b = counted ? figuresBefore.access() : AccessFigures.NONE;
        long hedged = counted ? a.readsHedged() - b.readsHedged() : -1;
        long hedgeWins = counted ? a.hedgeWins() - b.hedgeWins() : -1;
        long resent = counted ? a.readsResent() - b.readsResent() : -1;
        new ResultJson().put("benchmark", "failover").put("connections", (long) connections)
                .put("seconds_before_kill", (long) kill).put("seconds_after_kill", (long) (n - kill))
                .put("killed", killed == null ? "none" : killed.toString())
                .put("access_nodes_before", accessBefore.stream().map(NodeHandle::toString).toList())
                .put("access_nodes_after", accessAfter.stream().map(NodeHandle::toString).toList())
                .put("dead_node_still_listed", deadListed)
                .put("reads_per_second", answers).put("hits_per_second", hits).put("misses_per_second", misses)
                .put("slowest_ms", slowestMs).put("reads_per_100ms", tenths)
                .put("mean_reads_per_second_before", meanBefore).put("mean_reads_per_second_first_3s_after", meanAfter3)
                .put("least_reads_per_second_after", minAfter)
                .put("reads_hedged_after_kill", hedged).put("hedge_wins_after_kill", hedgeWins)
                .put("reads_resent_after_kill", resent)
                .put("access_nodes_down_after", a.down().stream().map(NodeHandle::toString).toList())
                .put("machine_cores", (long) Runtime.getRuntime().availableProcessors())
                .put("java", System.getProperty("java.version"))
                .write(out.resolve("result.json"));
        StringBuilder around = new StringBuilder("reads per 100 ms from 1 s before the kill to 2 s after:");
        for (int i = Math.max(0, 10 * (kill - 1)); i < Math.min(tenths.length, 10 * (kill + 2)); i++) {
            around.append(i % 10 == 0 ? " | " : " ").append(tenths[i]);
        }
        return table.toString() + around + "\n" + String.format(Locale.ROOT,
                "killed %s; reads/s before %.0f, first 3 s after %.0f, least second after %d; misses after the kill %d;"
                        + " hedged after the kill %d (won %d), sent on at once %d; dead node still listed: %s; access nodes after: %s;"
                        + " down: %s",
                killed, meanBefore, meanAfter3, minAfter, sum(misses, kill, n), hedged, hedgeWins, resent, deadListed, accessAfter,
                a.down());
    }

    private static double mean(long[] values, int from, int to) {
        return to <= from ? 0 : (double) sum(values, from, to) / (to - from);
    }

    private static long sum(long[] values, int from, int to) {
        long sum = 0;
        for (int i = from; i < to; i++) {
            sum += values[i];
        }
        return sum;
    }
}
