package io.riptide.simulator.topology;

import io.riptide.core.runtime.sim.LatencyModel;
import io.riptide.core.runtime.sim.LinkModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Shortest-path one-way latencies between the hosts of a transit-stub graph, answered in O(1).
 *
 * <p>It keeps all pairs within each stub, all pairs among transit routers, and each stub's uplink.
 * Because a stub reaches the rest of the world through exactly one border host and one link, every
 * path between two stubs is host → border → uplink → transit routers → uplink → border → host, and a
 * path within a stub never gains by leaving it; so the sum of those parts is the true shortest path.
 * Memory is about {@code hosts × hostsPerStub + routers²} ints.
 *
 * <p>As a {@link LinkModel} it names the links that congest: each stub's 1.5 Mb/s uplink, one link
 * per direction (stub {@code s} sends on link {@code 2s} and receives on {@code 2s + 1}). The 100 Mb/s
 * LAN inside a stub and the 45 Mb/s transit core are 30–60 times faster and are left to latency.
 */
public final class TransitStubTopology implements LatencyModel, LinkModel {
    private final TopologyParams params;
    private final int[] stubOf;
    private final int[] stubStart;
    private final int[][] intraMicros;
    private final int[] borderLocal;
    private final int[] uplinkMicros;
    private final int[] routerOfStub;
    private final int routers;
    private final int[] transitMicros;

    /** Compiles the latency tables of {@code graph}. */
    public TransitStubTopology(TopologyGraph graph) {
        this.params = graph.params();
        int stubs = graph.stubCount();
        int hosts = graph.hostCount();
        this.routers = graph.routerCount();
        this.stubOf = new int[hosts];
        this.stubStart = new int[stubs + 1];
        this.borderLocal = new int[stubs];
        this.uplinkMicros = new int[stubs];
        this.routerOfStub = new int[stubs];
        for (int s = 0; s < stubs; s++) {
            stubStart[s] = graph.firstHost(s);
            stubStart[s + 1] = graph.firstHost(s) + graph.stubSize(s);
            for (int h = stubStart[s]; h < stubStart[s + 1]; h++) {
                stubOf[h] = s;
            }
            borderLocal[s] = graph.borderHost(s) - stubStart[s];
            routerOfStub[s] = graph.routerOfStub(s);
        }

        List<List<int[]>> stubEdges = new ArrayList<>(stubs);
        for (int s = 0; s < stubs; s++) {
            stubEdges.add(new ArrayList<>());
        }
        List<int[]> transitEdges = new ArrayList<>();
        for (Link link : graph.links()) {
            switch (link.linkClass()) {
                case INTRA_STUB -> {
                    int s = stubOf[link.a()];
                    if (stubOf[link.b()] != s) {
                        throw new IllegalArgumentException("intra-stub link across stubs: " + link);
                    }
                    stubEdges.get(s).add(new int[] {link.a() - stubStart[s], link.b() - stubStart[s], link.latencyMicros()});
                }
                case STUB_TRANSIT -> {
                    int host = Math.min(link.a(), link.b());
                    int s = stubOf[host];
                    if (host != graph.borderHost(s) || Math.max(link.a(), link.b()) != hosts + routerOfStub[s]) {
                        throw new IllegalArgumentException("uplink does not join a stub's border host to its router: " + link);
                    }
                    uplinkMicros[s] = link.latencyMicros();
                }
                case TRANSIT_TRANSIT -> transitEdges.add(new int[] {link.a() - hosts, link.b() - hosts, link.latencyMicros()});
            }
        }

        this.intraMicros = new int[stubs][];
        for (int s = 0; s < stubs; s++) {
            int size = stubStart[s + 1] - stubStart[s];
            WeightedGraph stub = new WeightedGraph(size, stubEdges.get(s));
            stubEdges.set(s, null);
            int[] table = new int[size * size];
            for (int local = 0; local < size; local++) {
                stub.distancesFrom(local, table, local * size);
            }
            intraMicros[s] = table;
        }
        this.transitMicros = new int[routers * routers];
        WeightedGraph transit = new WeightedGraph(routers, transitEdges);
        for (int r = 0; r < routers; r++) {
            transit.distancesFrom(r, transitMicros, r * routers);
        }
    }

    /** Draws and compiles the topology for {@code params} from {@code seed}. */
    public static TransitStubTopology generate(TopologyParams params, long seed) {
        return new TransitStubTopology(TopologyGenerator.generate(params, seed));
    }

    /** The parameters the topology was drawn with. */
    public TopologyParams params() {
        return params;
    }

    /** Overlay hosts, numbered {@code 0..hostCount()-1} (the simulated vertex, i.e. the NodeAddress port). */
    public int hostCount() {
        return stubOf.length;
    }

    /** Stub domains. */
    public int stubCount() {
        return uplinkMicros.length;
    }

    /** Transit routers. */
    public int transitRouterCount() {
        return routers;
    }

    /** The stub domain of {@code host}. */
    public int stubOf(int host) {
        return stubOf[Objects.checkIndex(host, stubOf.length)];
    }

    /** Whether two hosts share a stub domain. */
    public boolean sameStub(int a, int b) {
        return stubOf(a) == stubOf(b);
    }

    /** How many hosts {@code stub} has. */
    public int stubSize(int stub) {
        return stubStart[stub + 1] - stubStart[stub];
    }

    /** The lowest-numbered host of {@code stub}. */
    public int firstHost(int stub) {
        return stubStart[stub];
    }

    /** The hosts of {@code stub}, in increasing order (they are contiguous). */
    public int[] hostsInStub(int stub) {
        int[] hosts = new int[stubSize(stub)];
        for (int i = 0; i < hosts.length; i++) {
            hosts[i] = stubStart[stub] + i;
        }
        return hosts;
    }

    /** The host through which {@code stub} reaches its transit router. */
    public int borderHost(int stub) {
        return stubStart[stub] + borderLocal[stub];
    }

    /** The transit router {@code stub} hangs from; stubs on the same router are each other's near neighbours. */
    public int transitRouterOf(int stub) {
        return routerOfStub[stub];
    }

    /** Shortest-path one-way latency from {@code a} to {@code b} in microseconds; zero for a host to itself. */
    public long latencyMicros(int a, int b) {
        int sa = stubOf(a);
        int sb = stubOf(b);
        int la = a - stubStart[sa];
        int lb = b - stubStart[sb];
        int na = stubStart[sa + 1] - stubStart[sa];
        if (sa == sb) {
            return intraMicros[sa][la * na + lb];
        }
        int nb = stubStart[sb + 1] - stubStart[sb];
        return (long) intraMicros[sa][la * na + borderLocal[sa]]
                + uplinkMicros[sa]
                + transitMicros[routerOfStub[sa] * routers + routerOfStub[sb]]
                + uplinkMicros[sb]
                + intraMicros[sb][borderLocal[sb] * nb + lb];
    }

    @Override
    public long latencyNanos(int from, int to) {
        return latencyMicros(from, to) * 1_000L;
    }

    /** The slowest class of link on the path from {@code a} to {@code b}; a host to itself counts as intra-stub. */
    public LinkClass bottleneck(int a, int b) {
        return sameStub(a, b) ? LinkClass.INTRA_STUB : LinkClass.STUB_TRANSIT;
    }

    @Override
    public int linkCount() {
        return 2 * stubCount();
    }

    @Override
    public long bitsPerSecond(int link) {
        return LinkClass.STUB_TRANSIT.bitsPerSecond();
    }

    @Override
    public int path(int from, int to, int[] out) {
        int sa = stubOf(from);
        int sb = stubOf(to);
        if (sa == sb) {
            return 0;
        }
        out[0] = 2 * sa;
        out[1] = 2 * sb + 1;
        return 2;
    }

    @Override
    public int maxPathLength() {
        return 2;
    }
}
