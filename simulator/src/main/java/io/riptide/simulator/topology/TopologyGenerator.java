package io.riptide.simulator.topology;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Draws a GT-ITM-style transit-stub graph. Each stub is a random connected graph (a random recursive
 * tree plus extra random links) joined to one transit router through one border host; transit routers
 * form connected domains, and the domains are connected to each other. Same seed, same graph.
 */
public final class TopologyGenerator {
    private final TopologyParams params;
    private final SplittableRandom random;
    private final List<Link> links = new ArrayList<>();

    private TopologyGenerator(TopologyParams params, long seed) {
        this.params = params;
        this.random = new SplittableRandom(seed);
    }

    /** The graph for {@code params} drawn from {@code seed}. */
    public static TopologyGraph generate(TopologyParams params, long seed) {
        return new TopologyGenerator(params, seed).draw();
    }

    private TopologyGraph draw() {
        int hosts = params.hosts();
        int stubs = params.stubCount();
        int routers = params.transitRouterCount();
        int domains = params.transitDomainCount();

        int[] stubStart = new int[stubs + 1];
        for (int s = 0; s < stubs; s++) {
            // Spread hosts evenly: stubs differ in size by at most one.
            stubStart[s + 1] = stubStart[s] + hosts / stubs + (s < hosts % stubs ? 1 : 0);
        }
        int[] borderHost = new int[stubs];
        for (int s = 0; s < stubs; s++) {
            int first = stubStart[s];
            int size = stubStart[s + 1] - first;
            connect(first, size, (long) Math.round(params.extraStubLinksPerHost() * size), LinkClass.INTRA_STUB);
            borderHost[s] = first + random.nextInt(size);
        }

        int[] routerDomain = new int[routers];
        int[] domainStart = new int[domains + 1];
        for (int r = 0; r < routers; r++) {
            routerDomain[r] = (int) ((long) r * domains / routers);
            domainStart[routerDomain[r] + 1] = r + 1;
        }
        for (int d = 0; d < domains; d++) {
            int size = domainStart[d + 1] - domainStart[d];
            connect(hosts + domainStart[d], size, size / 2, LinkClass.TRANSIT_TRANSIT);
        }
        connectDomains(hosts, domainStart);

        int[] stubRouter = new int[stubs];
        for (int s = 0; s < stubs; s++) {
            // Consecutive stubs share a router, so some stubs are near each other and others far.
            stubRouter[s] = s / params.stubsPerTransitRouter();
            links.add(new Link(borderHost[s], hosts + stubRouter[s], latency(LinkClass.STUB_TRANSIT), LinkClass.STUB_TRANSIT));
        }
        return new TopologyGraph(params, links, stubStart, borderHost, stubRouter, routerDomain);
    }

    /** Links vertices {@code first..first+size-1} into a random connected graph with about {@code extra} extra links. */
    private void connect(int first, int size, long extra, LinkClass linkClass) {
        int[] order = permutation(size);
        Set<Long> present = new HashSet<>();
        for (int i = 1; i < size; i++) {
            addOnce(present, first + order[i], first + order[random.nextInt(i)], linkClass);
        }
        long possible = (long) size * (size - 1) / 2 - (size - 1);
        long wanted = Math.min(extra, possible);
        // Bounded attempts: a nearly complete graph would otherwise spin on collisions.
        for (long added = 0, attempts = 0; added < wanted && attempts < 20 * wanted; attempts++) {
            int u = random.nextInt(size);
            int v = random.nextInt(size);
            if (u != v && addOnce(present, first + u, first + v, linkClass)) {
                added++;
            }
        }
    }

    private void connectDomains(int hosts, int[] domainStart) {
        int domains = domainStart.length - 1;
        int[] order = permutation(domains);
        Set<Long> present = new HashSet<>();
        for (int i = 1; i < domains; i++) {
            addOnce(present, routerIn(hosts, domainStart, order[i]), routerIn(hosts, domainStart, order[random.nextInt(i)]),
                    LinkClass.TRANSIT_TRANSIT);
        }
        for (int i = 0; i < domains / 2; i++) {
            int d1 = random.nextInt(domains);
            int d2 = random.nextInt(domains);
            if (d1 != d2) {
                addOnce(present, routerIn(hosts, domainStart, d1), routerIn(hosts, domainStart, d2), LinkClass.TRANSIT_TRANSIT);
            }
        }
    }

    private int routerIn(int hosts, int[] domainStart, int domain) {
        int size = domainStart[domain + 1] - domainStart[domain];
        return hosts + domainStart[domain] + random.nextInt(size);
    }

    private boolean addOnce(Set<Long> present, int u, int v, LinkClass linkClass) {
        long key = ((long) Math.min(u, v) << 32) | Math.max(u, v);
        if (!present.add(key)) {
            return false;
        }
        links.add(new Link(u, v, latency(linkClass), linkClass));
        return true;
    }

    private int latency(LinkClass linkClass) {
        return random.nextInt(linkClass.minLatencyMicros(), linkClass.maxLatencyMicros() + 1);
    }

    private int[] permutation(int size) {
        int[] p = new int[size];
        for (int i = 0; i < size; i++) {
            p[i] = i;
        }
        for (int i = size - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return p;
    }
}
