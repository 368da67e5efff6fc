package io.riptide.simulator.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TransitStubTopologyTest {
    private static final long MS = 1_000_000L;

    /** Six stubs of 50 on six routers in three transit domains: every part of the decomposition is exercised. */
    private static final TopologyParams SMALL = new TopologyParams(300, 50, 1, 2, 1.0);

    @Test
    void sameSeedGivesSameTopologyAndOtherSeedsDiffer() {
        TransitStubTopology a = TransitStubTopology.generate(TopologyParams.forHosts(1100), 7);
        TransitStubTopology b = TransitStubTopology.generate(TopologyParams.forHosts(1100), 7);
        TransitStubTopology c = TransitStubTopology.generate(TopologyParams.forHosts(1100), 8);
        boolean anyDifferent = false;
        for (int x = 0; x < 1100; x += 7) {
            for (int y = 0; y < 1100; y += 3) {
                assertEquals(a.latencyNanos(x, y), b.latencyNanos(x, y));
                anyDifferent |= a.latencyNanos(x, y) != c.latencyNanos(x, y);
            }
        }
        assertTrue(anyDifferent, "a different seed should draw a different topology");
    }

    @Test
    void paperSizedTopologyHasAboutHundredHostsPerStubAndSeveralStubsPerRouter() {
        TransitStubTopology t = TransitStubTopology.generate(TopologyParams.forHosts(1100), 1);
        assertEquals(1100, t.hostCount());
        assertEquals(11, t.stubCount());
        assertEquals(4, t.transitRouterCount());
        for (int s = 0; s < t.stubCount(); s++) {
            assertEquals(100, t.stubSize(s));
            for (int h : t.hostsInStub(s)) {
                assertEquals(s, t.stubOf(h));
            }
        }
        assertEquals(t.transitRouterOf(0), t.transitRouterOf(1));
        assertNotEquals(t.transitRouterOf(0), t.transitRouterOf(10));
    }

    @Test
    void unevenHostCountsSpreadOverStubsDifferingByAtMostOne() {
        TransitStubTopology t = TransitStubTopology.generate(TopologyParams.forHosts(1001), 1);
        assertEquals(11, t.stubCount());
        int total = 0;
        for (int s = 0; s < t.stubCount(); s++) {
            assertTrue(t.stubSize(s) == 91 || t.stubSize(s) == 92, "stub size " + t.stubSize(s));
            total += t.stubSize(s);
        }
        assertEquals(1001, total);
    }

    @Test
    void latencyIsSymmetricZeroToSelfAndObeysTriangleInequality() {
        TransitStubTopology t = TransitStubTopology.generate(TopologyParams.forHosts(2000), 3);
        SplittableRandom r = new SplittableRandom(11);
        for (int i = 0; i < 20_000; i++) {
            int a = r.nextInt(2000);
            int b = r.nextInt(2000);
            int c = r.nextInt(2000);
            assertEquals(0, t.latencyNanos(a, a));
            assertEquals(t.latencyNanos(a, b), t.latencyNanos(b, a));
            assertTrue(t.latencyNanos(a, c) <= t.latencyNanos(a, b) + t.latencyNanos(b, c),
                    "triangle inequality broken for " + a + ", " + b + ", " + c);
        }
    }

    @Test
    void intraStubLatenciesAreWithinLinkBoundsAndInterStubCrossTwoUplinks() {
        TopologyGraph graph = TopologyGenerator.generate(TopologyParams.forHosts(1100), 5);
        TransitStubTopology t = new TransitStubTopology(graph);
        for (int a = 0; a < 1100; a++) {
            for (int b = 0; b < 1100; b++) {
                long ns = t.latencyNanos(a, b);
                if (a == b) {
                    continue;
                }
                if (t.sameStub(a, b)) {
                    assertEquals(LinkClass.INTRA_STUB, t.bottleneck(a, b));
                    assertTrue(ns >= MS, "intra-stub below 1 ms: " + ns);
                    // No shortest path within a stub has more hops than the stub has hosts.
                    assertTrue(ns <= 7 * MS * (t.stubSize(t.stubOf(a)) - 1), "intra-stub too long: " + ns);
                } else {
                    assertEquals(LinkClass.STUB_TRANSIT, t.bottleneck(a, b));
                    assertTrue(ns >= 20 * MS, "inter-stub below two uplinks: " + ns);
                }
            }
        }
    }

    @Test
    void stubsOnTheSameRouterAreNearerThanStubsAcrossTheTransitCore() {
        TransitStubTopology t = TransitStubTopology.generate(TopologyParams.forHosts(1100), 2);
        int border0 = t.borderHost(0);
        long sameRouter = t.latencyNanos(border0, t.borderHost(1));
        long farRouter = t.latencyNanos(border0, t.borderHost(10));
        // Same router: exactly two uplinks, at most 60 ms; another router adds at least one 10 ms transit link.
        assertTrue(sameRouter <= 60 * MS, "same-router stubs " + sameRouter);
        assertTrue(farRouter >= 30 * MS, "far stubs " + farRouter);
    }

    @Test
    void decompositionEqualsDijkstraOverTheFullGraphForAllPairs() {
        for (long seed = 1; seed <= 3; seed++) {
            TopologyGraph graph = TopologyGenerator.generate(SMALL, seed);
            TransitStubTopology t = new TransitStubTopology(graph);
            assertEquals(6, t.stubCount());
            assertEquals(6, t.transitRouterCount());
            long[][] truth = allPairsOnFullGraph(graph);
            for (int a = 0; a < graph.hostCount(); a++) {
                for (int b = 0; b < graph.hostCount(); b++) {
                    assertEquals(truth[a][b], t.latencyMicros(a, b), "pair " + a + " -> " + b + " (seed " + seed + ")");
                }
            }
        }
    }

    @Test
    void tenThousandHostsFitInModestMemory() {
        Runtime rt = Runtime.getRuntime();
        long before = usedAfterGc(rt);
        long start = System.nanoTime();
        TransitStubTopology t = TransitStubTopology.generate(TopologyParams.forHosts(10_000), 1);
        long buildMs = (System.nanoTime() - start) / 1_000_000;
        long after = usedAfterGc(rt);
        long usedMb = (after - before) / (1024 * 1024);
        System.out.printf("10,000 hosts: %d stubs, %d routers, built in %d ms, retained about %d MB%n",
                t.stubCount(), t.transitRouterCount(), buildMs, usedMb);
        assertEquals(10_000, t.hostCount());
        assertTrue(t.latencyNanos(0, 9_999) > 0);
        assertTrue(usedMb < 200, "retained " + usedMb + " MB");
    }

    private static long usedAfterGc(Runtime rt) {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return rt.totalMemory() - rt.freeMemory();
    }

    /** Textbook O(V²) Dijkstra over every vertex and link, independent of the code under test. */
    private static long[][] allPairsOnFullGraph(TopologyGraph graph) {
        int v = graph.vertexCount();
        long[][] w = new long[v][v];
        for (long[] row : w) {
            Arrays.fill(row, Long.MAX_VALUE);
        }
        for (Link link : graph.links()) {
            w[link.a()][link.b()] = Math.min(w[link.a()][link.b()], link.latencyMicros());
            w[link.b()][link.a()] = Math.min(w[link.b()][link.a()], link.latencyMicros());
        }
        long[][] dist = new long[graph.hostCount()][];
        for (int s = 0; s < graph.hostCount(); s++) {
            long[] d = new long[v];
            Arrays.fill(d, Long.MAX_VALUE);
            boolean[] done = new boolean[v];
            d[s] = 0;
            for (int round = 0; round < v; round++) {
                int u = -1;
                for (int i = 0; i < v; i++) {
                    if (!done[i] && d[i] != Long.MAX_VALUE && (u < 0 || d[i] < d[u])) {
                        u = i;
                    }
                }
                if (u < 0) {
                    break;
                }
                done[u] = true;
                for (int x = 0; x < v; x++) {
                    if (w[u][x] != Long.MAX_VALUE && d[u] + w[u][x] < d[x]) {
                        d[x] = d[u] + w[u][x];
                    }
                }
            }
            dist[s] = d;
        }
        return dist;
    }

    @Test
    void onlyStubUplinksQueueOneLinkPerDirection() {
        TransitStubTopology t = TransitStubTopology.generate(SMALL, 3);
        int[] path = new int[t.maxPathLength()];
        int a = t.firstHost(0);
        int b = t.firstHost(0) + 1;
        int far = t.firstHost(4) + 2;
        assertEquals(0, t.path(a, b, path), "inside a stub nothing queues");
        assertEquals(2, t.path(a, far, path));
        assertEquals(0, path[0], "out over stub 0's uplink");
        assertEquals(9, path[1], "in over stub 4's downlink");
        assertEquals(2, t.path(far, a, path));
        assertEquals(8, path[0]);
        assertEquals(1, path[1]);
        assertEquals(12, t.linkCount());
        assertEquals(1_500_000L, t.bitsPerSecond(5));
    }
}
